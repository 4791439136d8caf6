"""A deal of each game entered on a phone as a table would: one tap per card (the card grid
of a Römi hand, the rank keys of a contract hand), one hand open at a time. Each test counts
every tap it makes, checks what was saved, and bounds the page's height; the screenshots
(seat pick, first hand open, mid-deal, waiting on the second phone, confirmed) are kept under
tests/artifacts/ for a person to look at."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scoring.models import Deal
from tests.support.browser import shoot
from tests.support.events import seated_event

# The entry page's height (px, 390×844, deal 1, just seated) with every hand open and the
# old tap rows (a suit, then ranks), measured before the card grid and the folds.
HEIGHT_BEFORE = {"rutupeli": 2824, "ravaytys": 2836, "gin_romi": 1936, "tizlapos_romi": 3628}
# With one hand open the others are a line each: a four-player page loses three hands' keys,
# so it is at most 60% of the old page; a Gin page closes one hand of two and keeps a grid
# for its upper card, so at most 75%. (Measured after: Rutupeli 1490, Räväytys 1496, Gin
# Römi 1311, Tízlapos Römi 1745.) Mid-deal, with the live check's messages on the page, it
# stays under the old page with none.
HEIGHT_BOUND = {
    "rutupeli": HEIGHT_BEFORE["rutupeli"] * 60 // 100,
    "ravaytys": HEIGHT_BEFORE["ravaytys"] * 60 // 100,
    "gin_romi": HEIGHT_BEFORE["gin_romi"] * 75 // 100,
    "tizlapos_romi": HEIGHT_BEFORE["tizlapos_romi"] * 60 // 100,
}


class Taps:
    """Every tap a test makes on the entry page, counted."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, locator) -> None:
        locator.click()
        self.count += 1


def _phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def _open_hand(page):
    return page.locator("form.entry .fold.open")


def _hand(page, seat: int):
    """Seat `seat`'s hand, once it is the one open."""
    fold = page.locator(f"fieldset.seat[data-seat='{seat}']")
    expect(fold).to_have_class(re.compile(r"\bopen\b"))
    return fold


def _seated(browser, live_server, variant_id: str, players: int, name: str):
    """A phone at a new table: the seat pick shot, then the first seat taken."""
    _event, tables = seated_event(variant_id=variant_id, players=players)
    table = tables[0]
    page = _phone(browser)
    page.goto(f"{live_server.url}{table.get_entry_url()}")
    shoot(page, f"grid-{name}-1-seat-pick")
    page.locator("button[name=seat]").first.click()
    expect(page.locator("form.entry.one-hand")).to_be_visible()
    return table, page


def _fits(page) -> None:
    """Nothing on the page scrolls sideways on a 390 px phone."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def _first_hand_open(page, variant_id: str, name: str) -> None:
    """One fold open, the others a summary line; the page well under the old one."""
    expect(_open_hand(page)).to_have_count(1)
    expect(page.locator(".fold-summary[aria-expanded=true]")).to_have_count(1)
    height = _height(page)
    shoot(page, f"grid-{name}-2-first-hand-open")
    assert height < HEIGHT_BOUND[variant_id], (height, HEIGHT_BOUND[variant_id])
    _fits(page)


def _submit_and_confirm(browser, live_server, page, table, taps: Taps, name: str) -> Deal:
    """Submit (a tap), then a second phone at another seat sees the deal waiting and
    confirms it."""
    _fits(page)  # every hand's summary in, each on one line
    taps(page.get_by_role("button", name="Submit"))
    expect(page.get_by_text("Deal 1 saved")).to_be_visible()
    other = _phone(browser)
    other.goto(f"{live_server.url}{table.get_entry_url()}")
    other.locator("button[name=seat]:not([disabled])").first.click()
    expect(other.get_by_text("Deal 1 waits for confirmation.")).to_be_visible()
    expect(other.locator("form.entry")).to_have_count(0)
    shoot(other, f"grid-{name}-4-waiting-on-second-phone")
    other.get_by_role("button", name="Confirm deal 1").click()
    expect(other.get_by_text("Deal 1 confirmed.")).to_be_visible()
    shoot(other, f"grid-{name}-5-confirmed")
    deal = Deal.objects.get(table=table, number=1)
    assert deal.is_confirmed
    return deal


# -- contract games: rank keys, about ten taps for four players -------------------------------

CONTRACT_HANDS = [None, ["A", "K"], ["7", "Q"], ["5", "5", "9"]]  # seat 0 went out


def _contract_deal(browser, live_server, variant_id: str) -> None:
    table, page = _seated(browser, live_server, variant_id, 4, variant_id)
    _first_hand_open(page, variant_id, variant_id)
    taps = Taps()
    taps(page.locator("input[name=out]").first)
    # Who went out needs no hand: it closes, marked, and the next hand is the open one.
    out = page.locator("fieldset.seat[data-seat='0']")
    expect(out.locator(".fold-summary")).to_have_attribute("aria-expanded", "false")
    expect(out.locator(".fold-note")).to_have_text("went out")
    for seat, ranks in enumerate(CONTRACT_HANDS):
        if ranks is None:
            continue
        hand = _hand(page, seat)
        for rank in ranks:
            taps(hand.get_by_role("button", name=rank, exact=True))
        expect(hand.locator(".fold-cards")).to_have_text(" ".join(ranks))
        if seat == 1:
            # The live check has caught up with this hand (no error left on it).
            expect(hand.locator(".field-errors .error")).to_have_count(0)
            shoot(page, f"grid-{variant_id}-3-mid-deal")
            assert _height(page) < HEIGHT_BEFORE[variant_id]
        if seat < len(CONTRACT_HANDS) - 1:
            taps(hand.get_by_role("button", name="Next hand"))
    expect(page.locator("#check")).to_contain_text("Looks right")
    # Each closed hand's summary shows its price once the live check has scored the deal.
    expect(page.locator("fieldset.seat[data-seat='1'] .fold-value")).to_have_text("30")
    expect(page.locator("fieldset.seat[data-seat='2'] .fold-value")).to_have_text("15")
    deal = _submit_and_confirm(browser, live_server, page, table, taps, variant_id)
    # Out (1), the seven cards left, two "Next hand", Submit.
    assert taps.count == 11
    cards = [line.get("cards") for line in deal.entry["players"]]
    assert cards == [None, "A K", "7 Q", "5 5 9"]
    assert deal.entry["out"] == 0
    assert deal.points == [0, 30, 15, 15]


def test_a_rutupeli_deal_by_rank_keys(live_server, browser):
    _contract_deal(browser, live_server, "rutupeli")


def test_a_ravaytys_deal_by_rank_keys(live_server, browser):
    _contract_deal(browser, live_server, "ravaytys")


# -- Römi: one tap per card --------------------------------------------------------------------


def _tap_cards(taps: Taps, fold, codes: list[str]) -> None:
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    ranks = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
    for code in codes:
        rank, suit = code[:-1], code[-1]
        name = "Joker" if code == "JK" else f"{ranks.get(rank, rank)} of {suits[suit]}"
        taps(fold.get_by_role("button", name=name, exact=True))


GIN_UPPER = "9C"
GIN_HANDS = [
    "AS 2S 3S 4H 5H 6H 7D 8D 9D 2C",  # seat 0 knocks: 2 of deadwood
    "KS QS JS KH QH JH KD QD 5C 6C",  # 31 of deadwood, none laid off
]


def test_a_gin_romi_deal_one_tap_per_card(live_server, browser):
    table, page = _seated(browser, live_server, "gin_romi", 2, "gin_romi")
    _first_hand_open(page, "gin_romi", "gin_romi")
    taps = Taps()
    taps(page.locator("input[name=by]").first)  # the knock is the preselected ending
    upper = _open_hand(page)
    expect(upper.locator("#f-upper")).to_be_visible()
    _tap_cards(taps, upper, [GIN_UPPER])
    # The upper card is one card: tapped, it closes and the first hand opens.
    expect(page.locator("#f-upper")).to_have_value(GIN_UPPER)
    for seat, hand in enumerate(GIN_HANDS):
        fold = _hand(page, seat)
        _tap_cards(taps, fold, hand.split()[:5])
        if seat == 0:
            # The live check has caught up with the upper card (no error left on it).
            expect(page.locator("#err-upper .error")).to_have_count(0)
            shoot(page, "grid-gin_romi-3-mid-deal")
            assert _height(page) < HEIGHT_BEFORE["gin_romi"]
        _tap_cards(taps, fold, hand.split()[5:])
        # Ten cards in: this hand closes, showing them, and the next opens by itself.
        expect(fold.locator(".fold-summary")).to_have_attribute("aria-expanded", "false")
        expect(page.locator(f"#f-p{seat}_cards")).to_have_value(hand)
    expect(_open_hand(page)).to_have_count(0)
    expect(page.locator("fieldset.seat[data-seat='0'] .fold-cards")).to_contain_text("A♠ 2♠ 3♠")
    expect(page.locator("#check")).to_contain_text("Looks right")
    expect(page.locator("fieldset.seat[data-seat='0'] .fold-value")).to_have_text("29")
    deal = _submit_and_confirm(browser, live_server, page, table, taps, "gin_romi")
    # Who knocked, the upper card, ten cards each, Submit.
    assert taps.count == 23
    assert deal.entry["hands"] == GIN_HANDS
    assert deal.entry["upper"] == GIN_UPPER
    assert deal.entry["by"] == 0
    assert deal.points == [29, 0]


TIZ_HANDS = [
    None,  # seat 0 goes römi: its hand is not needed
    "AS 3S 5S 7H 9H JH 2D 4D 6C 8C",
    "KS QS 10H 8H 6D 5D 3C 2C AC 9C",
    "4S 6S 8S 9S JD QD KD 7C 10C JK",
]


def test_a_tizlapos_deal_one_tap_per_card(live_server, browser):
    table, page = _seated(browser, live_server, "tizlapos_romi", 4, "tizlapos_romi")
    _first_hand_open(page, "tizlapos_romi", "tizlapos_romi")
    taps = Taps()
    taps(page.locator("input[name=winner]").first)  # römi is the preselected ending
    winner = page.locator("fieldset.seat[data-seat='0']")
    expect(winner.locator(".fold-summary")).to_have_attribute("aria-expanded", "false")
    expect(winner.locator(".fold-note")).to_have_text("won the deal")
    for seat, hand in enumerate(TIZ_HANDS):
        if hand is None:
            continue
        fold = _hand(page, seat)
        _tap_cards(taps, fold, hand.split())
        if seat == 1:
            # The live check has caught up with this hand (no error left on it).
            expect(fold.locator(".field-errors .error")).to_have_count(0)
            shoot(page, "grid-tizlapos_romi-3-mid-deal")
            assert _height(page) < HEIGHT_BEFORE["tizlapos_romi"]
        expect(page.locator(f"#f-p{seat}_cards")).to_have_value(hand)
    expect(_open_hand(page)).to_have_count(0)
    expect(page.locator("#check")).to_contain_text("Looks right")
    deal = _submit_and_confirm(browser, live_server, page, table, taps, "tizlapos_romi")
    # The winner, ten cards for each of the three other hands, Submit.
    assert taps.count == 32
    assert [line.get("cards") for line in deal.entry["players"]] == TIZ_HANDS
    assert deal.entry["winner"] == 0


# -- the grid's keys -------------------------------------------------------------------------


def test_two_decks_a_second_tap_adds_the_second_copy(live_server, phone):
    _event, (table,) = seated_event(variant_id="tizlapos_romi", players=3)
    phone.goto(f"{live_server.url}{table.get_entry_url()}")
    phone.locator("button[name=seat]").first.click()
    hand = _open_hand(phone)
    field = hand.locator("input[name$=_cards]")
    seven = hand.get_by_role("button", name="7 of hearts", exact=True)
    seven.click()
    expect(field).to_have_value("7H")
    expect(seven).to_have_attribute("aria-pressed", "true")
    expect(seven).not_to_have_attribute("data-count", "2")
    seven.click()  # two decks: the second 7♥
    expect(field).to_have_value("7H 7H")
    expect(seven).to_have_attribute("data-count", "2")
    expect(seven).to_have_attribute("aria-description", "two copies")
    seven.click()  # a third tap takes both out
    expect(field).to_have_value("")
    expect(seven).to_have_attribute("aria-pressed", "false")
    joker = hand.get_by_role("button", name="Joker", exact=True)
    joker.click()
    joker.click()
    expect(field).to_have_value("JK JK")
    expect(joker).to_have_attribute("data-count", "2")
    hand.get_by_role("button", name="Remove the last card").click()
    expect(field).to_have_value("JK")
    # Typed cards show on the keys as tapped ones do, however they are written.
    field.fill("7h ♥7 10s")
    expect(seven).to_have_attribute("data-count", "2")
    expect(hand.get_by_role("button", name="10 of spades", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(hand.locator("button.joker[data-count]")).to_have_count(0)
    # The knock card is one card, a 2 or a 3: a tap replaces it.
    knock = phone.locator(".card-entry[data-target=f-knock_card]")
    expect(knock.locator("button.card")).to_have_count(8)
    knock.get_by_role("button", name="2 of hearts", exact=True).click()
    knock.get_by_role("button", name="3 of clubs", exact=True).click()
    expect(phone.locator("#f-knock_card")).to_have_value("3C")
    expect(knock.get_by_role("button", name="2 of hearts", exact=True)).to_have_attribute(
        "aria-pressed", "false"
    )


def test_without_script_every_hand_stays_open(live_server, browser):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-GB", java_script_enabled=False
    )
    page = context.new_page()
    page.goto(f"{live_server.url}{table.get_entry_url()}")
    page.locator("button[name=seat]").first.click()
    expect(page.locator("fieldset.seat input[name$=_cards]:visible")).to_have_count(4)
    expect(page.locator(".fold-summary:visible")).to_have_count(0)
    expect(page.locator(".fold-next:visible")).to_have_count(0)
    expect(page.locator("fieldset.seat legend").first).to_be_visible()


def test_a_refused_deal_opens_the_hand_its_error_is_on(live_server, phone):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    phone.goto(f"{live_server.url}{table.get_entry_url()}")
    phone.locator("button[name=seat]").first.click()
    phone.locator("input[name=out]").first.check()
    _hand(phone, 1).get_by_role("button", name="Next hand").click()
    _hand(phone, 2).locator("input[name=p2_cards]").fill("7H QX")
    _hand(phone, 2).locator(".fold-summary").click()  # every hand closed
    expect(_open_hand(phone)).to_have_count(0)
    phone.get_by_role("button", name="Submit").click()
    # The page comes back with what was typed; the hand with the bad card is the open one.
    hand = _hand(phone, 2)
    expect(hand).to_have_class(re.compile(r"\bhas-error\b"))
    expect(hand.locator("#err-p2_cards")).to_contain_text("QX")
    expect(hand.locator(".fold-cards")).to_have_text("7♥ QX")
    expect(_open_hand(phone)).to_have_count(1)
