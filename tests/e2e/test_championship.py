"""A 9-player Rutupeli table-winner championship on phones, from check-in to champion: the
director draws and closes each stage on the manage page and settles a tie there; each stage
has a deal entered at a table's page by one phone and confirmed by another (the other deals
go through the same scoring services, to keep the test short)."""

from __future__ import annotations

import datetime

from playwright.sync_api import expect

from scoring.models import Deal
from scoring.services import Actor, deal_confirm, deal_record
from tests.e2e.conftest import shoot, sign_in
from tests.factories import ClubFactory, MembershipFactory
from tournaments.models import EventFormat, Player, Role, Stage, Table
from tournaments.services import event_create, registration_add

DEALS = 7  # Rutupeli's seven games
NAMES = ["Aino", "Eero", "Helmi", "Jussi", "Kaisa", "Mikko", "Noora", "Olli"]


def entry(out: int, points: list[int]) -> dict:
    return {
        "out": out,
        "players": [
            {"cards": None, "points": None if seat == out else value, "buys": 0}
            for seat, value in enumerate(points)
        ],
    }


def enter(table: Table, number: int, item: dict) -> None:
    """A deal as two phones at the table would save it: one submits, another confirms."""
    deal = deal_record(
        table=table,
        number=number,
        entry=item,
        by=Actor(device="svc-a", seat=0),
        expected_version=0,
        request_id=f"svc-{table.pk}-{number}",
    )
    deal_confirm(
        deal=deal,
        by=Actor(device="svc-b", seat=1),
        expected_version=deal.version,
        request_id=f"svc-{table.pk}-{number}-ok",
    )


def win_from(table: Table, first: int) -> None:
    """Deals `first`..7: seat 0 goes out every time, the others take 10 and 20."""
    for number in range(first, DEALS + 1):
        enter(table, number, entry(0, [0, 10, 20]))


def tie_first_two(table: Table) -> None:
    """Seats 0 and 1 level on total, last deal and deals won: only a tie-break parts them."""
    for number in range(1, DEALS + 1):
        if number <= 3:
            item = entry(0, [0, 10, 50])
        elif number <= 6:
            item = entry(1, [10, 0, 50])
        else:
            item = entry(2, [10, 10, 0])
        enter(table, number, item)


def names_of(table: Table) -> list[str]:
    return list(table.seats.order_by("position").values_list("player__name", flat=True))


def deal_one_on_phones(browser, url: str) -> None:
    """Deal 1 at a table of three, through its page: seat 1 submits (seat 0 went out; the
    others' hands tapped), seat 2 confirms from another phone."""

    def phone():
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    scorer = phone()
    scorer.goto(url)
    scorer.locator("button[name=seat]").first.click()
    expect(scorer.get_by_text("2 sets")).to_be_visible()
    scorer.locator("input[name=out]").first.check()
    second = scorer.locator("fieldset.seat").nth(1)
    second.get_by_role("button", name="A", exact=True).click()
    second.get_by_role("button", name="K", exact=True).click()
    second.get_by_role("button", name="Next hand").click()
    scorer.locator("fieldset.seat").nth(2).get_by_role("button", name="5", exact=True).click()
    expect(scorer.locator("#check")).to_contain_text("Looks right")
    scorer.get_by_role("button", name="Submit").click()
    expect(scorer.get_by_text("Deal 1 saved")).to_be_visible()
    other = phone()
    other.goto(url)
    other.locator("button[name=seat]").nth(1).click()
    other.get_by_role("button", name="Confirm deal 1").click()
    expect(other.get_by_text("Deal 1 confirmed.")).to_be_visible()
    shoot(other, "championship-table-confirmed")


def test_a_nine_player_championship_from_check_in_to_champion(live_server, phone, browser):
    club = ClubFactory(language="en")
    director = MembershipFactory(club=club, role=Role.DIRECTOR, user__username="dora").user
    director.set_password("dora")
    director.save()
    event = event_create(
        club=club,
        name="Rutupeli championship",
        date=datetime.date(2026, 12, 5),
        variant_id="rutupeli",
        preferred_table_size=3,
        format=EventFormat.CHAMPIONSHIP,
        format_options={"top_k": 1, "lucky_losers": False},
    )
    for name in NAMES:
        registration_add(
            event=event, player=Player.objects.create(club=club, name=name), checked_in=True
        )
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

    one, two, three = Table.objects.filter(stage__event=event).order_by("number")
    deal_one_on_phones(browser, f"{live_server.url}{two.get_entry_url()}")
    win_from(two, 2)
    tie_first_two(one)
    win_from(three, 1)

    # The close is blocked by the tie at table 1: the director records a card draw.
    first, second, _third = names_of(one)
    phone.goto(manage)
    phone.reload()  # the page was last at the same address with an anchor: load it anew
    close = phone.locator("#close")
    expect(close).to_contain_text(f"Tie at table 1: {first}, {second}")
    expect(close).to_contain_text("tied for place 1")
    expect(close.get_by_role("button", name="Close the stage and draw stage 2")).to_have_count(0)
    close.scroll_into_view_if_needed()
    shoot(phone, "championship-tie")
    close.get_by_label("How it was settled").select_option("card_draw")
    close.get_by_label("Place 1").select_option(label=second)
    close.get_by_label("Place 2").select_option(label=first)
    close.get_by_label("Note").fill("high card")
    close.get_by_role("button", name="Record the tie-break").click()
    expect(phone.get_by_text("The tie-break is recorded.")).to_be_visible()

    # Before committing: who goes on and why, the tie-break that decided named.
    close = phone.locator("#close")
    expect(close.locator("ol.advancers li")).to_have_count(3)
    expect(close).to_contain_text("Decided by a tie-break: card draw: high card.")
    winners = [second, names_of(two)[0], names_of(three)[0]]
    for name in winners:
        expect(close.locator("ol.advancers")).to_contain_text(name)
    close.scroll_into_view_if_needed()
    shoot(phone, "championship-close-preview")
    close.get_by_role("button", name="Close the stage and draw stage 2").click()
    expect(phone.get_by_text("Stage 1 is closed.")).to_be_visible()

    # Stage 2 is the final of the three winners, previewed, then confirmed.
    expect(phone.locator("ol.tables li")).to_have_count(1)
    phone.get_by_role("button", name="Confirm the tables").click()
    final = Table.objects.get(stage=Stage.objects.get(event=event, number=2))
    assert sorted(names_of(final)) == sorted(winners)
    deal_one_on_phones(browser, f"{live_server.url}{final.get_entry_url()}")
    win_from(final, 2)
    assert Deal.objects.filter(table=final).count() == DEALS
    champion = names_of(final)[0]

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
    rows = bracket.locator("table.ranking tbody tr")
    expect(rows).to_have_count(9)
    expect(rows.first).to_contain_text(champion)
    bracket.scroll_into_view_if_needed()
    shoot(phone, "championship-public")
