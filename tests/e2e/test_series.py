"""A reseated series on the director's phone: round 1 played, round 2 drawn with no repeat
tablemates and confirmed; the public page then shows the rounds and cumulative standings."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from tests.support.browser import director_event, director_of, shoot, sign_in
from tests.support.series import play_out
from tests.support.standings import series_in_round_two
from tournaments.models import Event, EventFormat, StageStatus
from tournaments.services import event_publish, stage_confirm, stage_draw

NAMES = [
    "Aino", "Eero", "Helmi", "Jussi", "Kaisa", "Mikko", "Noora", "Olli",
    "Pirjo", "Risto", "Satu", "Timo", "Ulla", "Veikko", "Wilma", "Yrjö",
]  # fmt: skip


def test_the_director_draws_round_two_without_repeats_and_the_public_sees_the_rounds(
    live_server, phone
):
    event, _players = director_event(
        names=NAMES,
        name="Räväytys series",
        date=datetime.date(2026, 12, 5),
        variant_id="ravaytys",
    )
    Event.objects.filter(pk=event.pk).update(
        format=EventFormat.SERIES,
        format_options={
            "rounds": 5,
            "reseat": "avoid_repeats",
            "clubs_apart": False,
            "series_ranking": "points",
        },
    )
    club = event.club
    stage = stage_draw(event=event, seed=3)
    stage_confirm(stage=stage)
    for table in stage.tables.all():
        play_out(table, out=table.number % 4)

    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/manage/")
    series = phone.locator("#series")
    expect(series).to_contain_text("Series of 5 rounds")
    expect(series).to_contain_text("Round 1 of 5 is seated.")
    series.get_by_role("button", name="Draw round 2").click()
    expect(
        phone.get_by_text("Round 2 is drawn: look at the tables, then confirm them.")
    ).to_be_visible()
    expect(phone.locator("#series-repeats")).to_have_text("Round 2: 0 repeats")
    expect(phone.locator("#series")).not_to_contain_text("They meet again")
    expect(phone.locator("ol.tables li")).to_have_count(4)
    phone.locator("#draw").scroll_into_view_if_needed()
    shoot(phone, "series-round-2-preview")
    phone.get_by_role("button", name="Confirm the tables").click()
    expect(phone.get_by_text("Tables confirmed")).to_be_visible()
    expect(phone.locator("#series")).to_contain_text("Round 2 of 5 is seated.")
    expect(phone.locator("#series")).to_contain_text("Round 2 is still playing at table 1")
    shoot(phone, "series-round-2-seated")
    assert event.stages.get(number=2).status == StageStatus.CONFIRMED

    phone.goto(f"{live_server.url}{event.get_absolute_url()}")
    standings = phone.locator("#series-standings")
    expect(standings.get_by_role("heading", name="Round by round")).to_be_visible()
    expect(standings).to_contain_text("2 of 5 rounds played or in play.")
    expect(standings).to_contain_text("Ranked by the total of every round's points, lowest first.")
    expect(standings.locator("thead th")).to_have_text(["Place", "Player", "Total", "R1", "R2"])
    expect(standings.locator("tbody tr")).to_have_count(16)
    # The event's standings, the same order, in the page's one ranking table.
    ranking = phone.locator("table.ranking-table tbody tr")
    expect(ranking).to_have_count(16)
    first = standings.locator("tbody tr").first.locator("td").nth(1).inner_text()
    expect(ranking.first).to_contain_text(first)
    # On a phone the totals are on the screen, without scrolling either table sideways.
    for total in (
        standings.locator("thead th", has_text="Total"),
        phone.locator("table.ranking-table thead th", has_text="Total"),
    ):
        box = total.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
    shoot(phone, "series-public-standings")


@pytest.mark.parametrize("width", [390, 1280])
def test_every_rounds_links_fit_the_public_and_tables_pages(live_server, browser, width):
    event = series_in_round_two()
    event_publish(event=event, published=True)
    director_of(event.club)
    context = browser.new_context(viewport={"width": width, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{live_server.url}{event.get_absolute_url()}")
    rounds = page.locator("ul.rounds")
    expect(rounds.get_by_role("link", name="Round 1")).to_be_visible()
    expect(rounds.get_by_role("link", name="Round 2")).to_be_visible()
    shoot(page, f"public-page-every-round-{width}")
    sign_in(page, live_server.url, "dora", "dora")
    page.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/tables/")
    expect(page.locator("#earlier-results")).to_be_visible()
    shoot(page, f"tables-page-earlier-rounds-{width}")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    context.close()
