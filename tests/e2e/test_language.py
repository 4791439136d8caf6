from __future__ import annotations

from demo.loader import demo_load
from tests.support.browser import shoot, sign_in


def test_director_switches_to_finnish_and_sees_the_club_translated(live_server, phone):
    club = demo_load()
    sign_in(phone, live_server.url, "director", "director")
    phone.goto(f"{live_server.url}{club.get_absolute_url()}")
    # The demo club's default is Finnish, but the director has not chosen yet: English browser.
    # The page was in English before the choice too: wait for the page the choice loads.
    with phone.expect_navigation():
        phone.select_option("#language-select", "en")
    phone.wait_for_selector("html[lang=en]")
    assert phone.get_by_role("button", name="Recount members").is_visible()

    phone.select_option("#language-select", "fi")
    phone.wait_for_selector("html[lang=fi]")
    assert phone.url.endswith(club.get_absolute_url())
    assert phone.get_by_role("button", name="Laske jäsenet uudelleen").is_visible()
    assert phone.get_by_role("link", name="Näytä jäsenet").is_visible()
    shoot(phone, "club-page-fi")
