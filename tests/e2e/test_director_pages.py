"""Every page a director uses, in a real browser at a phone's width and a laptop's: each is
checked by axe and shot (tests/artifacts/director-*-390.png and -1280.png) for a person to
look at."""

from __future__ import annotations

from demo.loader import demo_load
from tests.e2e.conftest import shoot_widths, sign_in


def test_the_new_event_forms_fixed_rules_read_across_a_laptop(live_server, phone):
    club = demo_load()
    sign_in(phone, live_server.url, "director", "director")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/events/new/?game=rutupeli")
    phone.set_viewport_size({"width": 1280, "height": 900})
    fixed = phone.locator("dl.rules")
    # Each value once lay one character a line (the names' column took the whole width).
    values = fixed.locator("dd").evaluate_all("dds => dds.map(dd => dd.offsetWidth)")
    assert values and min(values) > fixed.bounding_box()["width"] / 2, values
    assert fixed.bounding_box()["height"] < 600
    shoot_widths(phone, "director-new-event")
