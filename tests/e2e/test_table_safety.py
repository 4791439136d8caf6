"""On phones: a seat belongs to one phone, a replaced link says so at the next poll, and a
table whose deals cannot be scored asks for the director while the event carries on."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scoring.models import Deal
from tests.support.browser import director_of, shoot, sign_in
from tests.support.events import seated_event
from tournaments.services import table_key_revoke


def _phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def test_a_seat_is_one_phones_and_a_replaced_link_says_so(live_server, browser):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    url = f"{live_server.url}/t/{table.entry_key}/"
    first, second = _phone(browser), _phone(browser)
    first.goto(url)
    first.locator("button[name=seat]").first.click()
    expect(first.get_by_text(re.compile(r"You are Player \d+\."))).to_be_visible()

    second.goto(url)
    expect(second.locator("button[name=seat]").first).to_be_disabled()
    expect(second.get_by_text("Taken on another phone").first).to_be_visible()
    shoot(second, "seat-pick-taken")

    # Half a deal typed when the director replaces the link.
    typed = first.locator("form.entry fieldset.seat input[name$=_cards]:visible").first
    typed.fill("5 7 K")
    table_key_revoke(table=table)
    # The phone already on the page learns at its next poll (every 5 s), and sees what it
    # had typed, to hand to the director.
    expect(first.get_by_text("This link no longer works")).to_be_visible(timeout=12_000)
    expect(first.get_by_text("Ask the director for the new link")).to_be_visible()
    kept = first.locator("#typed-before")
    expect(kept).to_be_visible()
    expect(kept.locator("dd")).to_contain_text(["5 7 K"])
    expect(kept.locator("dt").first).to_contain_text("Player")
    shoot(first, "link-replaced")


def test_a_table_that_cannot_be_scored_asks_for_the_director(live_server, browser):
    event, (broken, _healthy) = seated_event(variant_id="tizlapos_romi", players=8)
    # A deal no service would save (a re-entry of a player still in), as old data could be.
    Deal.objects.create(
        table=broken,
        number=1,
        entry={},
        points=[0, 5, 5, 5],
        flags={"winner": 0, "ending": "romi", "reenter": [1]},
        version=1,
    )
    director_of(event.club)

    public = _phone(browser)
    public.goto(f"{live_server.url}{event.get_absolute_url()}")
    expect(public.get_by_text("needs the director").first).to_be_visible()
    expect(public.get_by_text("Table 2")).to_be_visible()
    shoot(public, "public-needs-director")

    desk = _phone(browser)
    sign_in(desk, live_server.url, "dora", "dora")
    desk.goto(
        f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/tables/{broken.pk}/history/"
    )
    expect(desk.get_by_text("Deal 1 cannot be scored")).to_be_visible()
    shoot(desk, "history-needs-director")
    desk.get_by_text("Void this deal").click()
    desk.get_by_label("Why").fill("re-entry of a player still in")
    desk.get_by_role("button", name="Void deal 1").click()
    expect(desk.get_by_text("Deal 1 is voided; the table enters it again.")).to_be_visible()
    expect(desk.get_by_text("needs the director")).to_have_count(0)
    expect(desk.locator("table.table").first).to_contain_text("voided")
    shoot(desk, "history-after-void")

    phone = _phone(browser)
    phone.goto(f"{live_server.url}/t/{broken.entry_key}/")
    phone.locator("button[name=seat]").first.click()
    expect(phone.get_by_role("heading", name="Deal 1")).to_be_visible()
    shoot(phone, "table-after-void")
