"""In a browser: "Olli Uusi" was typed in as a guest at two nights of a season, so the
league table shows him twice, unranked; a director merges the duplicate and the table then
shows one ranked Olli Uusi with two events."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import director_of, shoot_widths, sign_in
from tests.support.factories import ClubFactory
from tests.support.leagues import night, players_of, season_of
from tournaments.models import Player, PlayerMerge, Season

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "Ääritäpläinen Öljynporaaja-Åke"  # thirty characters, accents and all


def olli_twice():
    club = ClubFactory(name="Kotikerho")
    director_of(club)
    season = season_of(club)
    Season.objects.filter(pk=season.pk).update(league_scheme={"min_events": 2})
    others = players_of(club, "Aino", LONG)
    first = Player.objects.create(club=club, name="Olli Uusi", guest=True)
    second = Player.objects.create(club=club, name="Olli Uusi", guest=True)
    night(season, [first, *others], day=3, name="Syysilta")
    night(season, [*others, second], day=10, name="Marraskuun ilta")
    return club, season, first, second


def olli_rows(page) -> list[str]:
    rows = page.locator("table.league tbody tr", has_text="Olli Uusi")
    return [rows.nth(i).locator("td").nth(0).inner_text() for i in range(rows.count())]


def test_a_director_merges_a_duplicate_and_the_league_shows_one_ranked_player(
    live_server, phone, settings
):
    settings.LEAGUE_STALE_GRACE_SECONDS = 0
    club, season, first, second = olli_twice()
    league = f"{live_server.url}/clubs/{club.slug}/seasons/{season.pk}/"
    phone.goto(league)
    assert olli_rows(phone) == ["", ""]  # two unranked rows

    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/")
    phone.get_by_role("link", name="Merged players").click()
    phone.get_by_label("Player to keep").select_option(value=str(first.pk))
    shoot_widths(phone, "player-merges-empty")
    phone.get_by_role("button", name="Find their duplicate").click()
    expect(phone.locator("h1")).to_contain_text("Merge a duplicate of Olli Uusi")
    # The look-alike is offered first, in its own group.
    group = phone.locator("#id_other optgroup").first
    assert group.get_attribute("label") == "Same name"
    assert phone.url.endswith(f"/players/{first.pk}/merge/")
    phone.get_by_label("Duplicate to merge").select_option(value=str(second.pk))
    phone.get_by_role("button", name="Show what would move").click()
    preview = phone.locator("section").inner_text()
    assert "1 registration" in preview and "Autumn 2026" in preview
    shoot_widths(phone, "player-merge-preview")
    phone.get_by_role("button", name="Merge", exact=True).click()
    expect(phone.locator("h1")).to_contain_text("Merge Olli Uusi into Olli Uusi")
    shoot_widths(phone, "player-merge-confirm")
    phone.get_by_role("button", name="Merge", exact=True).click()
    expect(phone.locator("body")).to_contain_text("Olli Uusi is now Olli Uusi.")
    assert PlayerMerge.objects.filter(club=club).count() == 1
    shoot_widths(phone, "player-merges")

    phone.goto(league)
    places = olli_rows(phone)
    assert len(places) == 1 and places[0] != ""
    row = phone.locator("table.league tbody tr", has_text="Olli Uusi")
    assert row.locator("td").nth(3).inner_text() == "2"  # events
