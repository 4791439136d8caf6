from __future__ import annotations

from playwright.sync_api import expect

from tests.scoring.conftest import seated_event


def test_gin_hands_are_tapped_suit_then_ranks(live_server, phone):
    _event, (table,) = seated_event(variant_id="gin_romi", players=2)
    phone.goto(f"{live_server.url}{table.get_entry_url()}")
    phone.locator("button[name=seat]").first.click()
    hand = phone.locator("fieldset.seat").first
    hand.get_by_role("button", name="A", exact=True).click()  # no suit chosen yet: nothing added
    expect(hand.locator("input[name=p0_cards]")).to_have_value("")
    hand.get_by_role("button", name="♠").click()
    for rank in ["A", "2", "3"]:
        hand.get_by_role("button", name=rank, exact=True).click()
    hand.get_by_role("button", name="♥").click()
    hand.get_by_role("button", name="K", exact=True).click()
    expect(hand.locator("input[name=p0_cards]")).to_have_value("AS 2S 3S KH")
    hand.get_by_role("button", name="Remove the last card").click()
    expect(hand.locator("input[name=p0_cards]")).to_have_value("AS 2S 3S")

    upper = phone.locator(".tap-row[data-target=f-upper]")
    upper.get_by_role("button", name="♦").click()
    upper.get_by_role("button", name="7", exact=True).click()
    upper.get_by_role("button", name="9", exact=True).click()  # one card: a tap replaces it
    expect(phone.locator("#f-upper")).to_have_value("9D")
