"""The card grid with the keyboard and screen readers, and the site's pages at 200 % zoom on
a phone (a 390 px phone at 200 % is a 195 CSS px wide page)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.support.browser import director_event, shoot, sign_in
from tests.support.events import seated_event
from tests.support.factories import ClubFactory
from tests.support.records import play_rummy_deal
from tournaments.models import EventFormat
from tournaments.services import stage_confirm, stage_draw

GIN_UPPER = "9C"
GIN_HANDS = [
    "AS 2S 3S 4H 5H 6H 7D 8D 9D 2C",
    "KS QS JS KH QH JH KD QD 5C 6C",
]


class Keyboard:
    """A person at the keyboard, every key press counted: Tab and Shift+Tab between the
    page's stops, the arrows, Home and End inside a card grid, Enter or Space to press."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1

    def _where(self, selector: str) -> dict:
        # Where focus is against the target: the same element, or in the same roving card
        # grid (row and column of each), or before or after it in the page.
        return self.page.evaluate(
            """(selector) => {
              const target = document.querySelector(selector);
              const active = document.activeElement;
              if (active === target) return {here: true};
              const grid = target.closest('.card-grid');
              if (grid && grid.contains(active) && active.tabIndex === 0
                  && [...grid.querySelectorAll('.card')].some((key) => key.tabIndex === -1)) {
                const keys = [...grid.querySelectorAll('.card')];
                const columns = keys.length / 4;
                const at = (key) => [Math.floor(keys.indexOf(key) / columns),
                                     keys.indexOf(key) % columns];
                return {grid: true, from: at(active), to: at(target), columns};
              }
              const after = !active || active === document.body ||
                (active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING);
              return {after: Boolean(after)};
            }""",
            selector,
        )

    def go(self, selector: str) -> None:
        """Move focus to `selector` as a person would, in the fewest presses."""
        for _ in range(200):
            where = self._where(selector)
            if where.get("here"):
                return
            if where.get("grid"):
                (row, column), (to_row, to_column) = where["from"], where["to"]
                for _ in range(abs(to_row - row)):
                    self.press("ArrowDown" if to_row > row else "ArrowUp")
                last = where["columns"] - 1
                # Home or End first where that is shorter than walking.
                if to_column + 1 < abs(to_column - column):
                    self.press("Home")
                    column = 0
                elif last - to_column + 1 < abs(to_column - column):
                    self.press("End")
                    column = last
                for _ in range(abs(to_column - column)):
                    self.press("ArrowRight" if to_column > column else "ArrowLeft")
                continue
            self.press("Tab" if where["after"] else "Shift+Tab")
        raise AssertionError(f"the keyboard never reached {selector}")

    def tap(self, selector: str) -> None:
        self.go(selector)
        self.press("Enter")


def _seated_phone(
    browser, live_server, variant_id: str, players: int, *, locale="en-GB", width=390, club=None
):
    options = {"club": club} if club else {}
    _event, tables = seated_event(variant_id=variant_id, players=players, **options)
    context = browser.new_context(viewport={"width": width, "height": 844}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}{tables[0].get_entry_url()}")
    page.locator("button[name=seat]").first.click()
    expect(page.locator("form.entry.one-hand")).to_be_visible()
    return tables[0], page


def _key(target: str, card: str) -> str:
    return f".card-entry[data-target={target}] button[data-card='{card}']"


def test_a_whole_gin_deal_by_keyboard(live_server, browser):
    _table, page = _seated_phone(browser, live_server, "gin_romi", 2)
    keys = Keyboard(page)
    keys.go("#f-by_0")
    keys.press("Space")
    keys.tap(_key("f-upper", GIN_UPPER))
    expect(page.locator("#f-upper")).to_have_value(GIN_UPPER)
    for seat, hand in enumerate(GIN_HANDS):
        expect(page.locator(f"fieldset.seat[data-seat='{seat}']")).to_have_class(
            re.compile(r"\bopen\b")
        )
        for card in hand.split():
            keys.tap(_key(f"f-p{seat}_cards", card))
        expect(page.locator(f"#f-p{seat}_cards")).to_have_value(hand)
    expect(page.locator("#check")).to_contain_text("Looks right")
    keys.tap("form.entry button[type=submit]")
    expect(page.get_by_text("Deal 1 saved")).to_be_visible()

    # Before the grid was one tab stop a deal took 183 presses this way (each card reached
    # by Tab or Shift+Tab across the 52 keys); now 83: 21 cards, Submit and the seat's radio
    # pressed (23) and 60 moves, one of them past the totals table's scrolling box, one
    # past its downloads' semicolon CSV (the form's Submit comes after the totals) and one
    # past the header's "Sign up" beside "Sign in".
    assert keys.count <= 83, keys.count


def _focused(page) -> str:
    return page.evaluate("document.activeElement.dataset.card || document.activeElement.id")


def test_the_grid_is_one_tab_stop_and_the_arrows_move_in_it(live_server, browser):
    _table, page = _seated_phone(browser, live_server, "tizlapos_romi", 3)
    hand = page.locator("form.entry .fold.open .card-entry")
    grid = hand.locator(".card-grid")
    expect(grid.locator("button.card[tabindex='0']")).to_have_count(1)
    expect(grid.locator("button.card[tabindex='-1']")).to_have_count(51)
    field = hand.locator("input[name$=_cards]")
    field.focus()
    stops = []
    for _ in range(4):  # the field's joker and ⌫ keys, then the grid, once, then past it
        page.keyboard.press("Tab")
        stops.append(_focused(page))
    assert stops[:3] == ["JK", "", "AS"], stops
    assert stops[3] not in {"2S", "AH"}, stops  # the next Tab leaves the grid
    page.keyboard.press("Shift+Tab")
    assert _focused(page) == "AS"
    # Right along the spades, Down to the same rank in hearts, End and Home in the row.
    for key, card in [
        ("ArrowRight", "2S"),
        ("ArrowRight", "3S"),
        ("ArrowDown", "3H"),
        ("ArrowDown", "3D"),
        ("ArrowUp", "3H"),
        ("End", "KH"),
        ("ArrowRight", "KH"),
        ("Home", "AH"),
        ("ArrowLeft", "AH"),
        ("ArrowUp", "AS"),
        ("ArrowUp", "AS"),
    ]:
        page.keyboard.press(key)
        assert _focused(page) == card, (key, card, _focused(page))
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # a tap: the ace of hearts in
    expect(field).to_have_value("AH")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    expect(field).to_have_value("AH 2H")
    expect(grid.locator("button[data-card='2H']")).to_have_attribute("aria-pressed", "true")
    # Tab comes back to the key last used, not to the first.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert _focused(page) == "2H"
    # The joker and ⌫ keys are pressed from the keyboard too.
    hand.locator("button.joker").focus()
    page.keyboard.press("Enter")
    expect(field).to_have_value("AH 2H JK")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(field).to_have_value("AH 2H")
    # The knock card's grid (a 2 or a 3 of each suit) moves by its own rows.
    knock = page.locator(".card-entry[data-target=f-knock_card] .card-grid")
    knock.locator("button[data-card='2S']").focus()
    for key, card in [("ArrowRight", "3S"), ("ArrowDown", "3H"), ("Home", "2H")]:
        page.keyboard.press(key)
        assert _focused(page) == card, (key, card)
    # The key with focus shows it: the site's own ring, not the browser's.
    ring = page.evaluate(
        "[getComputedStyle(document.activeElement).outlineColor,"
        " getComputedStyle(document.activeElement).outlineWidth]"
    )
    assert ring == ["rgb(255, 191, 71)", "3px"], ring
    shoot(page, "keys-focus-ring")


def test_without_script_every_key_is_a_tab_stop(live_server, browser):
    _event, (table,) = seated_event(variant_id="gin_romi", players=2)
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}{table.get_entry_url()}")
    page.locator("button[name=seat]").first.click()
    expect(page.locator(".card-grid button.card")).to_have_count(52 * 3)
    expect(page.locator(".card-grid button.card[tabindex]")).to_have_count(0)


CARD_NAMES = {
    "fi": {"10S": "pata 10", "AH": "hertta ässä", "JD": "ruutu jätkä", "QC": "risti rouva",
           "KS": "pata kuningas"},
    "hu": {"10S": "pikk 10", "AH": "kőr ász", "JD": "káró bubi", "QC": "treff dáma",
           "KS": "pikk király"},
    "en": {"10S": "10 of spades", "AH": "ace of hearts", "JD": "jack of diamonds",
           "QC": "queen of clubs", "KS": "king of spades"},
}  # fmt: skip
# What the keys show: Hungarian cards read B (bubi) for the jack and D (dáma) for the queen.
FACES = {"fi": "A 2 3 4 5 6 7 8 9 10 J Q K", "hu": "A 2 3 4 5 6 7 8 9 10 B D K",
         "en": "A 2 3 4 5 6 7 8 9 10 J Q K"}  # fmt: skip


@pytest.mark.parametrize("language", ["fi", "hu", "en"])
def test_the_keys_are_named_in_the_pages_language(live_server, browser, language):
    _table, page = _seated_phone(
        browser, live_server, "gin_romi", 2, locale=language, club=ClubFactory(language=language)
    )
    upper = page.locator(".card-entry[data-target=f-upper]")
    for code, name in CARD_NAMES[language].items():
        key = upper.get_by_role("button", name=name, exact=True)
        expect(key).to_have_attribute("data-card", code)
    faces = upper.locator(".card-grid button.card span:first-child").all_inner_texts()[:13]
    assert " ".join(faces) == FACES[language]
    # A tap types the engine's code whatever the face says: the Hungarian dáma is Q.
    upper.get_by_role("button", name=CARD_NAMES[language]["QC"], exact=True).click()
    expect(page.locator("#f-upper")).to_have_value("QC")


@pytest.mark.parametrize("variant_id, players", [("gin_romi", 2), ("tizlapos_romi", 3)])
def test_the_grid_at_200_percent_zoom_on_a_phone(live_server, browser, variant_id, players):
    # A 390 px phone at 200 % is 195 CSS px wide: the keys wrap a suit's row rather than
    # shrink, at least 24 px each, their labels inside them, the page not scrolling sideways.
    _table, page = _seated_phone(browser, live_server, variant_id, players, width=195)
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('.card-grid button.card')]
             .filter((key) => key.offsetWidth).map((key) => {
               const box = key.getBoundingClientRect();
               const labels = [...key.children].map((span) => span.getBoundingClientRect());
               return {width: box.width, height: box.height, fits: labels.every((label) =>
                 label.left >= box.left && label.right <= box.right + 0.5)};
             })"""
    )
    assert len(sizes) >= 52
    assert min(size["width"] for size in sizes) >= 24, sizes
    assert min(size["height"] for size in sizes) >= 24, sizes
    assert all(size["fits"] for size in sizes), sizes
    # Every suit starts a row of its own.
    lefts = page.evaluate(
        """() => [...document.querySelector('.fold.open .card-grid').children]
             .filter((key, index) => index % 13 === 0)
             .map((key) => key.getBoundingClientRect().left)"""
    )
    assert len(set(lefts)) == 1, lefts
    assert page.evaluate("document.documentElement.scrollWidth") <= 195
    shoot(page, f"keys-{variant_id}-195px")


# -- no page scrolls sideways at 200 % zoom ---------------------------------------------------

# What sticks out of a page wider than its window: each such element's tag, class and right
# edge, for the failure message.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const scroller = (element) => {
    for (let up = element.parentElement; up; up = up.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(up).overflowX)) return true;
    }
    return false;
  };
  const wide = [...document.body.querySelectorAll('*')].filter((element) =>
    element.getBoundingClientRect().right > width + 0.5 && !scroller(element));
  return {scroll: document.documentElement.scrollWidth, width,
          wide: wide.slice(0, 8).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)};
}"""


def _championship(language: str):
    event, players = director_event(
        names=["Aleksanteri Kivimäki-Häkkinen", *(f"Player {n:03d}" for n in range(7))],
        language=language,
        club_name="Pohjois-Helsingin Korttikerho",
        name="Räväytyksen seuramestaruuskilpailu",
        date=datetime.date(2026, 12, 5),
        variant_id="ravaytys",
        format=EventFormat.CHAMPIONSHIP,
        format_options={"top_k": 1, "lucky_losers": False},
    )
    stage = stage_draw(event=event, seed=7)
    stage_confirm(stage=stage)
    one, two = stage.tables.order_by("number")
    play_rummy_deal(one, 1, out=0, ravaytys=True)
    play_rummy_deal(two, 1, out=1)
    return event.club, event, players[0]


@pytest.mark.parametrize("language", ["fi", "hu", "en"])
def test_no_page_scrolls_sideways_on_a_phone_at_200_percent(live_server, browser, language):
    club, event, player = _championship(language)
    base = live_server.url
    pages = {
        "sign-in": "/accounts/login/",
        "club": club.get_absolute_url(),
        "event": event.get_absolute_url(),
        "player": reverse("player_record", kwargs={"slug": club.slug, "player_id": player.pk}),
        "manage": reverse("event_manage", kwargs={"slug": club.slug, "event_id": event.pk}),
        "new-event": reverse("event_new", kwargs={"slug": club.slug}),
    }
    wide = []
    for width in (195, 390):
        context = browser.new_context(viewport={"width": width, "height": 844}, locale=language)
        page = context.new_page()
        for name, path in pages.items():
            if name == "manage":
                sign_in(page, base, "dora", "dora")
            page.goto(base + path)
            expect(page.locator("main")).to_be_visible()
            found = page.evaluate(OVERFLOW)
            if width == 195:
                shoot(page, f"zoom-{language}-{name}")
            if found["scroll"] > found["width"]:
                wide.append((name, width, found))
        context.close()
    assert not wide, "\n".join(map(str, wide))


# -- a Gin Römi hand opens by itself ---------------------------------------------------------


def test_after_a_romi_the_hand_to_enter_opens_by_itself(live_server, browser):
    # A römi needs no upper card (it sets only a knock's limit) and no hand of the player
    # who went römi: the other player's hand is the one to open, without a tap on it, and
    # once its ten cards are in nothing else waits.
    _table, page = _seated_phone(browser, live_server, "gin_romi", 2)
    upper = page.locator("form.entry .fold-named")
    expect(upper).to_have_class(re.compile(r"\bopen\b"))  # a knock, preselected, needs it
    page.locator("#f-ending_1").check()  # römi
    page.locator("#f-by_0").check()
    other = page.locator("fieldset.seat[data-seat='1']")
    expect(other).to_have_class(re.compile(r"\bopen\b"))
    expect(upper.locator(".fold-note")).to_have_text("not needed")
    expect(page.locator("fieldset.seat[data-seat='0'] .fold-note")).to_have_text("went römi")
    for card in GIN_HANDS[1].split():
        other.locator(f"button[data-card='{card}']").click()
    expect(page.locator("#f-p1_cards")).to_have_value(GIN_HANDS[1])
    expect(page.locator("form.entry .fold.open")).to_have_count(0)
    expect(page.locator("#check")).to_contain_text("Looks right")
    # Back to a knock: the upper card is needed again, and opens.
    page.locator("#f-ending_0").check()
    expect(upper).to_have_class(re.compile(r"\bopen\b"))
    expect(upper.locator(".fold-note")).to_have_text("")
