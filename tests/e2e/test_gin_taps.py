from __future__ import annotations

from playwright.sync_api import expect

from tests.support.events import seated_event


def test_gin_cards_are_one_tap_each_and_a_second_tap_takes_one_out(live_server, phone):
    _event, (table,) = seated_event(variant_id="gin_romi", players=2)
    phone.goto(f"{live_server.url}{table.get_entry_url()}")
    phone.locator("button[name=seat]").first.click()

    # The upper card is one card: a tap replaces it, the same tap again clears it.
    upper = phone.locator(".card-entry[data-target=f-upper]")
    upper.get_by_role("button", name="7 of diamonds", exact=True).click()
    expect(phone.locator("#f-upper")).to_have_value("7D")
    # Tapped, it closes and the first hand opens; its summary shows the card.
    expect(upper).to_be_hidden()
    summary = phone.locator(".fold-summary[aria-controls=f-upper-fold]")
    expect(summary).to_have_attribute("aria-expanded", "false")
    expect(summary).to_contain_text("7♦")
    summary.click()
    upper.get_by_role("button", name="9 of diamonds", exact=True).click()
    expect(phone.locator("#f-upper")).to_have_value("9D")
    summary.click()
    upper.get_by_role("button", name="9 of diamonds", exact=True).click()
    expect(phone.locator("#f-upper")).to_have_value("")
    expect(upper.get_by_role("button", name="9 of diamonds", exact=True)).to_have_attribute(
        "aria-pressed", "false"
    )

    # A hand: each card one tap; one deck, so the same tap again takes the card out.
    hand = phone.locator("fieldset.seat[data-seat='0']")
    hand.locator(".fold-summary").click()
    field = hand.locator("input[name=p0_cards]")
    for name in ["ace of spades", "2 of spades", "3 of spades", "king of hearts"]:
        hand.get_by_role("button", name=name, exact=True).click()
    expect(field).to_have_value("AS 2S 3S KH")
    king = hand.get_by_role("button", name="king of hearts", exact=True)
    expect(king).to_have_attribute("aria-pressed", "true")
    king.click()
    expect(field).to_have_value("AS 2S 3S")
    expect(king).to_have_attribute("aria-pressed", "false")
    hand.get_by_role("button", name="Remove the last card").click()
    expect(field).to_have_value("AS 2S")
    expect(hand.get_by_role("button", name="3 of spades", exact=True)).to_have_attribute(
        "aria-pressed", "false"
    )
    # One deck: no joker key, and no second copy.
    expect(hand.get_by_role("button", name="Joker")).to_have_count(0)

    # What is typed shows on the keys; a tap then works on it.
    field.fill("as 2s 3s 4h 5h 6h 7d 8d 9d")
    expect(hand.get_by_role("button", name="9 of diamonds", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    hand.get_by_role("button", name="2 of clubs", exact=True).click()
    expect(field).to_have_value("as 2s 3s 4h 5h 6h 7d 8d 9d 2C")
    # Ten cards: this hand closes and the other player's opens.
    expect(hand.locator(".fold-summary")).to_have_attribute("aria-expanded", "false")
    other = phone.locator("fieldset.seat[data-seat='1']")
    expect(other.locator(".fold-summary")).to_have_attribute("aria-expanded", "true")
    expect(other.locator("input[name=p1_cards]")).to_be_visible()
    expect(field).to_be_hidden()
