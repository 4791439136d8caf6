"""A phone set to German scans a Finnish club's table link: the page is in Finnish, and
stays so once a seat is taken and the table's part polls."""

from __future__ import annotations

from tests.support.browser import shoot
from tests.support.events import seated_event
from tests.support.factories import ClubFactory


def test_a_german_phone_reads_a_finnish_clubs_table_in_finnish(live_server, browser):
    club = ClubFactory(language="fi")
    _event, (table,) = seated_event(variant_id="rutupeli", players=4, club=club)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    polls: list[int] = []
    phone.on("response", lambda r: polls.append(r.status) if r.url.endswith("/live/") else None)
    phone.clock.install()
    phone.goto(f"{live_server.url}{table.get_entry_url()}")
    phone.wait_for_selector("html[lang=fi]")
    assert phone.get_by_text("Missä istut?").is_visible()
    phone.locator("button[name=seat]").first.click()
    phone.get_by_role("button", name="Etkö ole sinä? Vaihda paikkaa").wait_for()
    with phone.expect_response(lambda r: r.url.endswith("/live/")):
        phone.clock.run_for(5_500)
    assert polls[:1] == [304], polls  # the tag of the Finnish part the page was built with
    assert phone.locator("html").get_attribute("lang") == "fi"
    assert not [c for c in context.cookies() if c["name"] == "django_language"]
    shoot(phone, "table-page-german-phone-finnish-club")
