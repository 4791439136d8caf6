"""What a table meets on its phones, in a real browser: Räväytys' twos are tapped by suit,
the confirming phone reads the deal it confirms, a Gin Römi match says who pays whom and a
Tízlapos Römi re-entry is explained."""

from __future__ import annotations

from playwright.sync_api import expect

from scoring.services import Actor, deal_record
from tests.support.browser import shoot
from tests.support.deals import gin, record, tiz
from tests.support.events import new_request_id, seated_event


def _seated(browser, url: str, position: int, locale: str = "en-GB"):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    page.locator("button[name=seat]").nth(position).click()
    return page


def test_ravaytys_twos_are_tapped_by_suit(live_server, browser):
    _event, (table,) = seated_event(variant_id="ravaytys", players=4)
    page = _seated(browser, f"{live_server.url}{table.get_entry_url()}", 0)
    page.locator("input[name=out]").first.check()
    hand = page.locator("fieldset.seat").nth(1)
    expect(hand.locator(".tap-row").get_by_role("button", name="2", exact=True)).to_have_count(0)
    hand.get_by_role("button", name="♥2").click()
    hand.get_by_role("button", name="♠2").click()
    expect(hand.locator("input[name$=_cards]")).to_have_value("2H 2S")
    hand.get_by_role("button", name="Next hand").click()
    page.locator("fieldset.seat").nth(2).locator("input[name$=_cards]").fill("K")
    page.locator("fieldset.seat").nth(2).get_by_role("button", name="Next hand").click()
    page.locator("fieldset.seat").nth(3).get_by_role("button", name="♦2").click()
    expect(page.locator("#check")).to_contain_text("Looks right")
    expect(page.locator("#check")).to_contain_text(": 25")  # a red two 5, a black two 20
    shoot(page, "ravaytys-twos-by-suit")


def test_the_confirming_phone_reads_the_deal_in_seat_order(live_server, browser):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    entry = {
        "out": 2,
        "players": [
            {"cards": "AS KD 7H", "buys": 1},
            {"cards": "10C 10D QH", "buys": 0},
            {"cards": None, "buys": 0},
            {"cards": None, "points": 25, "buys": 2},
        ],
        "laydown": ["7H 7S 7D", "QC QD QS"],
    }
    deal_record(table=table, number=1, entry=entry, expected_version=0,
                request_id=new_request_id(), by=Actor(device="another-phone", seat=2))  # fmt: skip
    page = _seated(browser, f"{live_server.url}{table.get_entry_url()}", 1, locale="fi-FI")
    pending = page.locator(".pending")
    rows = pending.locator("table.entered tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_contain_text("A♠ K♦ 7♥")
    expect(rows.nth(2)).to_contain_text("kortit loppuivat")  # went out
    shoot(page, "confirm-reads-the-deal-fi")


def test_a_gin_match_says_who_pays(live_server, browser):
    _event, (table, *_rest) = seated_event(
        variant_id="gin_romi", players=4, options={"allow_points_entry": True}
    )
    for number, deadwood in enumerate([(5, 65), (5, 65), (5, 40)], 1):
        record(table, number, gin(deadwood=deadwood))
    page = _seated(browser, f"{live_server.url}{table.get_entry_url()}", 1)
    expect(page.locator(".payment")).to_contain_text("pays")
    shoot(page, "gin-settlement-pays")


def test_a_tizlapos_reentry_is_explained(live_server, browser):
    _event, (table,) = seated_event(
        variant_id="tizlapos_romi", players=4, options={"allow_points_entry": True}
    )
    record(table, 1, tiz(points=(None, 100, 40, 55)))
    record(table, 2, tiz(points=(None, 20, 10, 5), reenter=(1,)))
    page = _seated(browser, f"{live_server.url}{table.get_entry_url()}", 2, locale="hu-HU")
    expect(page.locator(".restart")).to_be_visible()
    shoot(page, "tizlapos-reentry-hu")
