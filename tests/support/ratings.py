"""Rated club nights and championships built through the site's services (shared by the
ratings tests; not a conftest)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from formats.finish import event_finish
from ratings.models import Rating, RatingStep
from tests.support.championship import entry, play
from tournaments.models import Club, Event, Player, Seat
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

DEALS = 7  # Rutupeli


def players_of(club: Club, *names: str) -> list[Player]:
    return [Player.objects.create(club=club, name=name) for name in names]


def scheme(points: Sequence[int]) -> list[dict]:
    """Seven Rutupeli deals in which every seat takes `points[seat]` (0: goes out)."""
    out = list(points).index(0)
    return [entry(out, list(points)) for _ in range(DEALS)]


def night(
    club: Club,
    tables: Sequence[Sequence[tuple[Player, int]]],
    *,
    day: int,
    finish: bool = True,
    game: str = "rutupeli",
) -> Event:
    """A Rutupeli club night of one table per item of `tables`, each (player, points per
    deal) by seat: the seating is drawn, then each table is given its players and plays
    seven deals in which each takes their points; finished unless asked otherwise."""
    size = max(len(table) for table in tables)
    event = event_create(
        club=club,
        name=f"Night {day}",
        date=datetime.date(2026, 1, 1) + datetime.timedelta(days=day),
        variant_id=game,
        preferred_table_size=size,
        published=True,
    )
    everyone = [player for table in tables for player, _points in table]
    for player in everyone:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=3)
    stage_confirm(stage=stage)
    drawn = list(stage.tables.order_by("number"))
    assert [t.seats.count() for t in drawn] == [len(table) for table in tables]
    # The draw seats at random: put each table's players where the test wants them.
    seats = [seat for t in drawn for seat in t.seats.order_by("position")]
    Seat.objects.filter(pk__in=[s.pk for s in seats]).delete()
    Seat.objects.bulk_create(
        [
            Seat(table=t, player=player, position=position)
            for t, table in zip(drawn, tables, strict=True)
            for position, (player, _points) in enumerate(table)
        ]
    )
    for t, table in zip(drawn, tables, strict=True):
        play(t, scheme([points for _player, points in table]))
    if finish:
        event_finish(event=event, confirmed=True)
        event.refresh_from_db()
    return event


def steps_of(club: Club, game: str = "rutupeli") -> list[tuple]:
    return list(
        RatingStep.objects.filter(club=club, game=game)
        .order_by("seq", "place", "player_id")
        .values_list(
            "seq", "player_id", "event_id", "table_id", "place", "mu_before", "sigma_before",
            "mu", "sigma", "games",
        )
    )  # fmt: skip


def ratings_of(club: Club, game: str = "rutupeli") -> dict[int, tuple]:
    return {
        r.player_id: (r.mu, r.sigma, r.rating, r.games, r.last_played)
        for r in Rating.objects.filter(club=club, game=game)
    }
