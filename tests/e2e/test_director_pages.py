"""Every page a director uses, in a real browser at a phone's width and a laptop's: each is
checked by axe and shot (tests/artifacts/director-*-390.png and -1280.png) for a person to
look at."""

from __future__ import annotations

from django.urls import reverse

from core.tasks import QUEUE_UNAVAILABLE
from demo.loader import CORRECTED_NIGHT, demo_load
from tests.e2e.conftest import shoot_widths, sign_in
from tests.test_tasks_broker_down import CLOSED, queue_pointed_at
from tournaments.models import Event


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


def _manage(club, name: str) -> str:
    event = Event.objects.get(club=club, name=name)
    return reverse("event_manage", args=[club.slug, event.pk])


def test_the_print_button_shows_it_is_at_work_and_a_queue_down_says_so(live_server, phone):
    club = demo_load()
    sign_in(phone, live_server.url, "director", "director")
    phone.goto(live_server.url + _manage(club, CORRECTED_NIGHT) + "#print")
    box = phone.locator("form.print-job-form")
    # Sent into a frame of its own, the page stays to be looked at as it is while it waits.
    sent = []
    phone.route("**/print/", lambda route: (sent.append(route.request), route.fulfill(body="")))
    box.evaluate(
        "form => { const f = document.createElement('iframe'); f.name = 'sent'; "
        "f.title = 'sent'; document.body.append(f); form.target = 'sent'; }"
    )
    box.get_by_role("button", name="Print every table's result sheet").click()
    phone.wait_for_function("document.querySelector('form.print-job-form[aria-busy]')")
    assert box.locator("[data-busy-status]").is_visible()
    assert box.get_by_role("button", name="Print every table's score sheet").is_disabled()
    # The tapped button's choice still goes with the form (a disabled button's would not).
    assert sent and "kind=result_sheets" in (sent[0].post_data or "")
    phone.unroute("**/print/")

    phone.goto(live_server.url + _manage(club, CORRECTED_NIGHT))
    with queue_pointed_at(CLOSED):
        box.get_by_role("button", name="Print every table's score sheet").click()
        phone.get_by_role("alert").wait_for()
    assert str(QUEUE_UNAVAILABLE) in phone.get_by_role("alert").inner_text()
    shoot_widths(phone, "director-print-queue-down")
