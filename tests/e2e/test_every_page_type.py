"""The page types no other browser test looks at, each checked by axe through `shoot`: the
sign-in page, the error page, the new-event form, a championship's stage standings and the
club page with each of its lists paged. Together with the other browser tests, every kind of
page the site shows is checked."""

from __future__ import annotations

from demo.loader import CHAMPIONSHIP, demo_load
from tests.support.browser import shoot, sign_in
from tournaments.models import Event


def test_the_pages_no_other_browser_test_visits(live_server, phone):
    club = demo_load()
    phone.goto(f"{live_server.url}/accounts/login/")
    shoot(phone, "every-page-sign-in")

    # One row a page, so each of the club's three lists has its page links: each named apart.
    paged = "upcoming-per_page=1&past-per_page=1&players-per_page=1"
    phone.goto(f"{live_server.url}{club.get_absolute_url()}?{paged}")
    names = phone.locator("main nav").evaluate_all("navs => navs.map(n => n.ariaLabel)")
    assert len(names) == len(set(names)) == 3, names
    shoot(phone, "every-page-club-paged")

    answer = phone.goto(f"{live_server.url}/clubs/no-such-club/")
    assert answer is not None and answer.status == 404
    shoot(phone, "every-page-404")

    sign_in(phone, live_server.url, "director", "director")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/events/new/")
    phone.get_by_role("button", name="Create the event").wait_for()
    shoot(phone, "every-page-new-event")

    championship = Event.objects.get(club=club, name=CHAMPIONSHIP)
    phone.goto(f"{live_server.url}{championship.get_absolute_url()}stages/1/")
    assert phone.locator("h1").inner_text()
    shoot(phone, "every-page-stage-standings")
