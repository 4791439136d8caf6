"""Seasons of finished club nights with the places each test wants (shared by the league
tests; not a conftest)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from formats.finish import event_finish
from tests.support.championship import entry, play
from tournaments.models import Club, Event, Player, Season
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

DEALS = 7  # Rutupeli


def season_of(club: Club, name: str = "Autumn 2026") -> Season:
    return Season.objects.create(
        club=club,
        name=name,
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
    )


def players_of(club: Club, *names: str) -> list[Player]:
    return [Player.objects.create(club=club, name=name) for name in names]


def night(
    season: Season,
    order: Sequence[Player],
    *,
    day: int,
    published: bool = True,
    finish: bool = True,
    name: str | None = None,
) -> Event:
    """A Rutupeli club night of the season, finished with `order` as its final places (best
    first) when it has one table: at each table the best of `order` goes out every deal,
    and the others take 10, 20, … by how far behind them `order` puts them."""
    event = event_create(
        club=season.club,
        season=season,
        name=name or f"Night {day}",
        date=season.starts_on + datetime.timedelta(days=day),
        variant_id="rutupeli",
        preferred_table_size=len(order),
        published=published,
    )
    for player in order:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=3)
    stage_confirm(stage=stage)
    rank = {player.pk: index for index, player in enumerate(order)}
    for table in stage.tables.all():
        seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
        best = min(rank[player] for player in seats)
        points = [10 * (rank[player] - best) for player in seats]
        out = points.index(0)
        play(table, [entry(out, points) for _ in range(DEALS)])
    if finish:
        event_finish(event=event, confirmed=True)
        event.refresh_from_db()
    return event
