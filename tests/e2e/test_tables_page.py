"""The director's tables page on a phone (issue 23): every sheet on A4 or Letter in the
reader's language, and the "sheet returned" toggle with its count."""

from __future__ import annotations

from playwright.sync_api import expect

from printing.models import SheetReturn
from tests.support.browser import shoot, sign_in
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tests.support.sheets import contract_entry, record
from tournaments.models import Role


def test_a_director_ticks_the_sheets_that_came_back(live_server, phone):
    event, tables = seated_event(variant_id="rutupeli", players=12)
    event.club.language = "fi"
    event.club.save()
    record(tables[0], 1, contract_entry(1, 4))
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    sign_in(phone, live_server.url, director.username, "pass")
    phone.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/tables/")
    expect(phone.get_by_text("Sheets returned: 0 of 3")).to_be_visible()
    # An English reader of a Finnish club: the links ask for English.
    letter = phone.locator("#table-1 .paper-links a", has_text="Letter").first
    assert "lang=en" in (letter.get_attribute("href") or "")

    card = phone.locator("#table-2")
    card.get_by_role("button", name="Sheet returned").click()
    expect(phone.get_by_text("Sheets returned: 1 of 3")).to_be_visible()
    expect(card.get_by_role("button", name="Sheet returned")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert SheetReturn.objects.get().table == tables[1]
    shoot(phone, "tables-page-sheets-returned")

    # The notice-board sheets' links, both papers, on the manage page and the public page.
    for page, name in ((f"{event.pk}/manage/", "manage"), (f"{event.pk}/", "public")):
        phone.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{page}")
        links = phone.locator(".paper-links a", has_text="Letter")
        assert links.count() >= 2 and all(
            "lang=en&paper=Letter" in (href or "")
            for href in links.evaluate_all("links => links.map(a => a.getAttribute('href'))")
        )
        shoot(phone, f"tables-page-board-links-{name}")
