"""A 9-player Rutupeli table-winner championship on phones, from check-in to champion: the
director draws and closes each stage on the manage page, and has a tie played off on the
site (one deal at a play-off table of its own); every deal of every table (three tables of
three, the play-off, then the final: 29 deals) is entered at its table's page by one phone
and confirmed by another phone at a different seat."""

from __future__ import annotations

import datetime
import re

from playwright.sync_api import expect

from scoring.models import Deal
from tests.support.browser import director_event, shoot, sign_in
from tournaments.models import EventFormat, Stage, Table

DEALS = 7  # Rutupeli's seven games
NAMES = ["Aino", "Eero", "Helmi", "Jussi", "Kaisa", "Mikko", "Noora", "Olli"]

# A deal as the table enters it: who went out, and the others' points typed.
WIN = [(0, [0, 10, 20])] * DEALS  # seat 0 goes out every time: a clear winner
# Seats 0 and 1 level on total, last deal and deals won: only a tie-break parts them.
TIE = [(0, [0, 10, 50])] * 3 + [(1, [10, 0, 50])] * 3 + [(2, [10, 10, 0])]


def names_of(table: Table) -> list[str]:
    return list(table.seats.order_by("position").values_list("player__name", flat=True))


class TablePhones:
    """Two phones at one table, each holding its seat for the whole game: the scorer (seat 0)
    enters each deal, the other (seat 1) confirms it."""

    def __init__(self, browser, url: str) -> None:
        self.url = url
        self.scorer = self._phone(browser)
        self.checker = self._phone(browser)
        self.scorer.goto(url)
        self.scorer.locator("button[name=seat]").first.click()
        expect(self.scorer.get_by_text(re.compile(r"You are \w+\."))).to_be_visible()
        self.checker.goto(url)
        self.checker.locator("button[name=seat]").nth(1).click()
        expect(self.checker.get_by_text(re.compile(r"You are \w+\."))).to_be_visible()

    @staticmethod
    def _phone(browser):
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    def enter(self, number: int, out: int, points: list[int]) -> None:
        """Deal `number` on the scorer's page: who went out picked, each other hand's points
        typed with one hand open at a time ("Next hand" between them), then submitted."""
        page = self.scorer
        page.goto(self.url)
        expect(page.locator("h2.deal-title")).to_have_text(f"Deal {number}")
        page.locator(f"input[name=out][value='{out}']").check()
        hands = [seat for seat in range(len(points)) if seat != out]
        for index, seat in enumerate(hands):
            if index:
                page.locator(f"fieldset.seat[data-seat='{hands[index - 1]}']").get_by_role(
                    "button", name="Next hand"
                ).click()
            hand = page.locator(f"fieldset.seat[data-seat='{seat}']")
            expect(hand).to_have_class(re.compile(r"\bopen\b"))
            hand.get_by_label("…or points").fill(str(points[seat]))
        expect(page.locator("#check")).to_contain_text("Looks right")
        page.get_by_role("button", name="Submit").click()
        expect(page.get_by_text(f"Deal {number} saved")).to_be_visible()

    def confirm(self, number: int) -> None:
        page = self.checker
        page.goto(self.url)
        expect(page.get_by_text(f"Deal {number} waits for confirmation.")).to_be_visible()
        page.get_by_role("button", name=f"Confirm deal {number}").click()
        expect(page.get_by_text(f"Deal {number} confirmed.")).to_be_visible()

    def play(
        self,
        deals: list[tuple[int, list[int]]],
        name: str,
        winner: str | None,
        wins: str = "wins the table.",
    ) -> None:
        """The whole game, every deal entered on one phone and confirmed on the other; the
        page then names the table's `winner` (None: a tie, left to the director)."""
        for number, (out, points) in enumerate(deals, start=1):
            self.enter(number, out, points)
            if number == 1:
                shoot(self.scorer, f"championship-{name}-saved")
            self.confirm(number)
        expect(self.checker.get_by_text("The game is over. Thank you!")).to_be_visible()
        if winner is not None:
            expect(self.checker.get_by_text(f"{winner} {wins}")).to_be_visible()
        else:  # level at the top: the page names nobody, the director settles it
            expect(self.checker.get_by_text("the director settles the win")).to_be_visible()
            expect(self.checker.get_by_text("wins the table")).to_have_count(0)
        shoot(self.checker, f"championship-{name}-over")
        # The phones are done: no more polling from them while the event goes on.
        self.scorer.context.close()
        self.checker.context.close()


def assert_saved(table: Table, deals: list[tuple[int, list[int]]]) -> None:
    """What the pages saved is the deals as entered, each confirmed by a second phone."""
    saved = list(Deal.objects.filter(table=table).order_by("number"))
    assert [deal.number for deal in saved] == list(range(1, DEALS + 1))
    assert all(deal.is_confirmed for deal in saved)
    assert [deal.entry["out"] for deal in saved] == [out for out, _points in deals]
    assert [deal.points for deal in saved] == [points for _out, points in deals]


def test_a_nine_player_championship_from_check_in_to_champion(live_server, phone, browser):
    event, _players = director_event(
        names=NAMES,
        name="Rutupeli championship",
        date=datetime.date(2026, 12, 5),
        variant_id="rutupeli",
        preferred_table_size=3,
        format=EventFormat.CHAMPIONSHIP,
        format_options={"top_k": 1, "lucky_losers": False},
    )
    club = event.club
    manage = f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/manage/"

    # The ninth player arrives and is checked in; the director draws three tables of three.
    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(manage)
    phone.get_by_placeholder("Guest's name").fill("Ville")
    phone.get_by_role("button", name="Check in").click()
    expect(phone.get_by_text("9 players checked in")).to_be_visible()
    phone.get_by_role("button", name="Draw the tables").click()
    expect(phone.locator("ol.tables li")).to_have_count(3)
    phone.get_by_role("button", name="Confirm the tables").click()
    expect(phone.get_by_text("Tables confirmed: hand each table its link")).to_be_visible()

    # Each table plays its seven deals on two phones: table 1 ends in an exact tie (no
    # winner asserted there: the director settles it), at the others seat 0 wins.
    one, two, three = Table.objects.filter(stage__event=event).order_by("number")
    for table, deals, name, winner in [
        (one, TIE, "table-1", None),
        (two, WIN, "table-2", names_of(two)[0]),
        (three, WIN, "table-3", names_of(three)[0]),
    ]:
        phones = TablePhones(browser, f"{live_server.url}{table.get_entry_url()}")
        phones.play(deals, name, winner)
        assert_saved(table, deals)

    # The close is blocked by the tie at table 1: the director has it played off on the
    # site, one deal between the two at a table of its own, entered and confirmed there.
    first, second, _third = names_of(one)
    phone.goto(manage)
    phone.reload()  # the page was last at the same address with an anchor: load it anew
    close = phone.locator("#close")
    expect(close).to_contain_text(f"Tie at table 1: {first}, {second}")
    expect(close).to_contain_text("tied for place 1")
    expect(close.get_by_role("button", name="Close the stage and draw stage 2")).to_have_count(0)
    close.scroll_into_view_if_needed()
    shoot(phone, "championship-tie")
    close.get_by_role("button", name="Play a play-off deal on the site").click()
    expect(phone.get_by_text("The play-off is table 4")).to_be_visible()
    close = phone.locator("#close")
    expect(close).to_contain_text("Play-off at table 4")
    close.scroll_into_view_if_needed()
    shoot(phone, "championship-playoff-open")
    href = close.get_by_role("link", name="Open the play-off's score entry").get_attribute("href")
    playoff = Table.everything.get(playoff_of=one)
    assert href == playoff.get_entry_url() and names_of(playoff) == [first, second]
    phones = TablePhones(browser, f"{live_server.url}{href}")
    expect(phones.scorer.locator("h1")).to_contain_text("Play-off 4 (table 1)")
    phones.play([(1, [25, 0])], "playoff", second, wins="wins the play-off, and with it the tie")
    phone.goto(manage)
    phone.reload()
    close = phone.locator("#close")
    expect(close).to_contain_text("Decided by a tie-break: play-off deal.")

    # Before committing: who goes on and why, the tie-break that decided named.
    close = phone.locator("#close")
    expect(close.locator("ol.advancers li")).to_have_count(3)
    winners = [second, names_of(two)[0], names_of(three)[0]]
    for name in winners:
        expect(close.locator("ol.advancers")).to_contain_text(name)
    close.scroll_into_view_if_needed()
    shoot(phone, "championship-close-preview")
    # A phone still showing table 3's page is told by its next poll that the stage is over.
    watcher = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    watcher.goto(f"{live_server.url}{three.get_entry_url()}")
    watcher.locator("button[name=seat]:not([disabled])").first.click()
    expect(watcher.get_by_text("The game is over. Thank you!")).to_be_visible()
    close.get_by_role("button", name="Close the stage and draw stage 2").click()
    expect(phone.get_by_text("Stage 1 is closed.")).to_be_visible()
    expect(watcher.get_by_role("heading", name="Stage 1 is over")).to_be_visible(timeout=12_000)
    expect(watcher.get_by_role("link", name="The event's page")).to_be_visible()
    shoot(watcher, "championship-stage-over-at-a-table")
    watcher.context.close()

    # Stage 2 is the final of the three winners, previewed, confirmed, played on two phones.
    expect(phone.locator("ol.tables li")).to_have_count(1)
    phone.get_by_role("button", name="Confirm the tables").click()
    expect(phone.get_by_text("Tables confirmed: hand each table its link")).to_be_visible()
    final = Table.objects.get(stage=Stage.objects.get(event=event, number=2))
    assert sorted(names_of(final)) == sorted(winners)
    champion = names_of(final)[0]
    phones = TablePhones(browser, f"{live_server.url}{final.get_entry_url()}")
    phones.play(WIN, "final", champion)
    assert_saved(final, WIN)

    phone.goto(manage)
    phone.reload()
    phone.get_by_role("button", name="Close the final and crown the champion").click()
    expect(phone.get_by_text("The championship is over")).to_be_visible()

    # The public page: the bracket of both stages, who went on, the champion, the ranking.
    phone.goto(f"{live_server.url}{event.get_absolute_url()}")
    bracket = phone.locator("#bracket")
    expect(bracket).to_contain_text(f"Champion: {champion}")
    expect(bracket.locator("h3", has_text="Stage 2: the final")).to_have_count(1)
    expect(bracket.locator("li.advances")).to_have_count(3 + 1)
    # The event's standings below it: every player, the champion first (marked).
    rows = phone.locator("table.ranking-table tbody tr")
    expect(rows).to_have_count(9)
    expect(rows.first).to_contain_text(champion)
    expect(rows.first).to_contain_text("champion")
    bracket.scroll_into_view_if_needed()
    shoot(phone, "championship-public")
