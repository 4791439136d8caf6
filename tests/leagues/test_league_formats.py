"""One function reads every format's final places for the league table: a championship's
final ranking (champion first), a series' standings, a head-to-head event's standings and a
night's ranking, each the same as the format's own page shows."""

from __future__ import annotations

import pytest
from django.utils import timezone

from formats.championship import championship_bracket, championship_stage_close
from formats.headtohead import h2h_event_standings
from formats.series import series_standings
from leagues.selectors import event_final_places, season_plays
from leagues.services import season_league
from standings.selectors import event_ranking
from tests.support.championship import championship, play, winner_scheme
from tests.support.factories import ClubFactory
from tests.support.headtohead import h2h_event, pair_and_confirm
from tests.support.headtohead import play as play_match
from tests.support.leagues import night, players_of, season_of
from tests.support.series import play_out, series_event
from tournaments.models import Event, EventFormat, EventStatus, Season
from tournaments.services import stage_confirm

pytestmark = pytest.mark.django_db


def into_season(event: Event, season: Season) -> Event:
    Event.objects.filter(pk=event.pk).update(season=season, published_at=timezone.now())
    event.refresh_from_db()
    return event


def places_of(season: Season) -> dict[int, list[tuple[int, int, int, int, int]]]:
    """Event id → (player id, place, field, total, games), in place order."""
    return {
        play.event.pk: [
            (p.player_id, p.place, p.field, p.total, p.games) for p in event_final_places(play)
        ]
        for play in season_plays(season=season)
    }


def test_a_championship_counts_its_final_ranking_champion_first():
    club = ClubFactory()
    season = season_of(club)
    event, stage, director = championship(9, club=club)
    into_season(event, season)
    for table in stage.tables.all():
        play(table, winner_scheme(3, winner=2))
    final = championship_stage_close(stage=stage, by=director, seed=5)
    stage_confirm(stage=final)
    (table,) = final.tables.all()
    play(table, winner_scheme(3, winner=1))
    championship_stage_close(stage=final, by=director)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED

    bracket = championship_bracket(event=event)
    mine = places_of(season)[event.pk]
    assert [(player, place) for player, place, *_rest in mine] == [
        (row.player, row.place) for row in bracket.ranking
    ]
    champion = table.seats.get(position=1).player_id
    assert mine[0][:3] == (champion, 1, 9)
    # The champion's totals and deals of both stages add up: 7 deals at each.
    assert mine[0][4] == 14 and mine[0][3] == 0
    league = season_league(season=season)
    assert league.rows[0].player_id == champion and league.rows[0].points == 10.0


def test_a_championship_in_play_counts_only_once_it_has_a_champion():
    club = ClubFactory()
    season = season_of(club)
    event, stage, _director = championship(9, club=club)
    into_season(event, season)
    for table in stage.tables.all():
        play(table, winner_scheme(3, winner=2))
    assert places_of(season) == {event.pk: []}
    assert season_league(season=season).events == []


def test_a_series_counts_its_standings():
    club = ClubFactory()
    season = season_of(club)
    event, tables = series_event(8, rounds=1)
    Event.objects.filter(pk=event.pk).update(club=club)
    for table in tables:
        play_out(table)
    event = into_season(event, season)
    standings = series_standings(event=event)
    mine = places_of(season)[event.pk]
    assert [(player, place) for player, place, *_rest in mine] == [
        (row.player_id, row.place) for row in standings.rows
    ]
    assert {field for _p, _place, field, _t, _g in mine} == {8}
    assert [total for _p, _place, _f, total, _g in mine] == [row.total for row in standings.rows]


def test_a_head_to_head_event_counts_its_standings():
    club = ClubFactory()
    season = season_of(club)
    event = h2h_event(players=4, format=EventFormat.ROUND_ROBIN, club=club)
    into_season(event, season)
    Event.objects.filter(pk=event.pk).update(status=EventStatus.RUNNING)
    strength = {}
    for number in range(1, 4):
        stage = pair_and_confirm(event, seed=3)
        for table in stage.tables.order_by("number"):
            pair = list(table.seats.order_by("position").values_list("player_id", flat=True))
            play_match(table, min(pair), extra=number)
            strength.update(dict.fromkeys(pair, 0))
    board = h2h_event_standings(event=event)
    mine = places_of(season)[event.pk]
    assert [(player, place) for player, place, *_rest in mine] == [
        (row.standing.player, row.standing.place) for row in board.rows
    ]
    # The lowest id beat everyone: three wins, three matches.
    assert mine[0][0] == min(strength) and mine[0][4] == 3


def test_a_night_counts_its_ranking():
    club = ClubFactory()
    season = season_of(club)
    people = players_of(club, "A", "B", "C", "D", "E", "F", "G", "H")
    event = night(season, people, day=1)
    ranking = event_ranking(event=event)
    mine = places_of(season)[event.pk]
    assert [(player, place) for player, place, *_rest in mine] == [
        (row.player_id, row.place) for row in ranking
    ]
    assert mine[0][2] == 8
