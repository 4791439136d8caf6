"""The games a club's rating in one game is computed from, read from the database.

Each table of a closed stage (a club night's, a championship stage's, a series round's, a
head-to-head match) is one game: its players ranked by their places at the table as the
standings object gives them (`scoring.selectors.sheet_of` → `TableSheet.order`, the one
order every page, sheet, record and league reads), equal places a tie. A play-off table is
no game (its deal is the tie-break its parent table's order already reads). An imported
event is one game, ranked by the places the club's spreadsheet gave.

Games come in the order they were played: the event's date (then the event), the stage,
the table's number (`GameKey`). A player merged into another counts as that player.

A fixed number of queries however long the club's history: every read is one query for
all the games wanted (the events, stages, tables, seats, deals, the merged players, the
imported results, and the tables' recorded tie-breaks when a tie reaches them).
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from django.db.models import Q

from ratings.engine import Placing
from rules import VARIANT_IDS, Variant
from scoring.models import Deal, DealStatus
from scoring.selectors import TableTieBreaks, sheet_of
from tournaments.event_formats import format_ids
from tournaments.models import (
    Event,
    ImportedResult,
    Player,
    Seat,
    Stage,
    StageStatus,
    Table,
)

# Every game the site plays is rated, each on its own: a Räväytys rating says nothing of
# Gin Römi. The ids are the events' `variant_id`s.
RATED_GAMES: tuple[str, ...] = tuple(VARIANT_IDS)

# (played on, event id, stage number, table number): where a game falls in the club's
# history of its game. An imported event's stage and table are 0.
GameKey = tuple[datetime.date, int, int, int]


def rated_games() -> tuple[str, ...]:
    """The variant ids that are rated (each its own rating)."""
    return RATED_GAMES


@dataclass(frozen=True)
class RatedGame:
    """One game: where and when it was played, and its players by place, best first."""

    played_on: datetime.date
    event_id: int
    stage_id: int | None
    stage_number: int
    table_id: int | None
    table_number: int
    placings: tuple[Placing[int], ...]

    @property
    def key(self) -> GameKey:
        return (self.played_on, self.event_id, self.stage_number, self.table_number)


def key_to_json(key: GameKey | None) -> list[Any] | None:
    """A key as a Celery argument (JSON)."""
    return None if key is None else [key[0].isoformat(), key[1], key[2], key[3]]


def key_from_json(value: Any) -> GameKey | None:
    if value is None:
        return None
    day, event, stage, table = value
    return (datetime.date.fromisoformat(day), int(event), int(stage), int(table))


def from_key(key: GameKey, prefix: str = "") -> Q:
    """Rows whose game key (`played_on`, `event_id`, `stage_number`, `table_number` under
    `prefix`) is `key` or later."""
    day, event, stage, table = key
    f = prefix
    return (
        Q(**{f"{f}played_on__gt": day})
        | Q(**{f"{f}played_on": day, f"{f}event_id__gt": event})
        | Q(**{f"{f}played_on": day, f"{f}event_id": event, f"{f}stage_number__gt": stage})
        | Q(
            **{
                f"{f}played_on": day,
                f"{f}event_id": event,
                f"{f}stage_number": stage,
                f"{f}table_number__gte": table,
            }
        )
    )


class _Seat:
    """A seat as the sheet reads it (`Seat`'s fields that `TableSheet.order` reads); a
    plain slotted class: a history has a hundred thousand of them."""

    __slots__ = ("is_first_dealer", "player_id", "position")

    def __init__(self, position: int, player_id: int, is_first_dealer: bool) -> None:
        self.position = position
        self.player_id = player_id
        self.is_first_dealer = is_first_dealer


class _Deal:
    """A deal as the sheet reads it (`Deal`'s fields that a standing reads)."""

    __slots__ = ("flags", "is_confirmed", "is_voided", "number", "points")

    def __init__(self, number: int, points: Any, flags: Any, status: str) -> None:
        self.number = number
        self.points = points
        self.flags = flags
        self.is_voided = status == DealStatus.VOIDED
        self.is_confirmed = status == DealStatus.CONFIRMED


class _ClubTieBreaks(TableTieBreaks):
    """The recorded tie-breaks of every table of the club's closed stages in the game, read
    in one query when the first tie reaches them."""

    def __init__(self, where: dict[str, Any]) -> None:
        super().__init__()
        self.where = where


def club_rated_games(*, club_id: int, game: str, since: GameKey | None = None) -> list[RatedGame]:
    """Every game of `game` at club `club_id` (from `since` on, when given), in the order
    played. A fixed number of queries however many games."""
    events_q: dict[str, Any] = {"club_id": club_id, "variant_id": game}
    if since is not None:
        events_q["date__gte"] = since[0]
    events = {
        event.pk: event
        for event in Event.objects.filter(**events_q).only(
            "club_id", "date", "variant_id", "variant_options", "tie_breaks", "format"
        )
    }
    if not events:
        return []
    merged = _merged(club_id)
    games = [*_table_games(events, events_q, merged), *_imported_games(events_q, merged)]
    # A game of fewer than two (a merge left one person at a table of two) rates nobody.
    games = [g for g in games if len(g.placings) > 1 and (since is None or g.key >= since)]
    games.sort(key=lambda g: g.key)
    return games


def _merged(club_id: int) -> dict[int, int]:
    """Each merged player of the club → the player they now are (a chain followed)."""
    into = dict(
        Player.objects.filter(club_id=club_id, merged_into__isnull=False).values_list(
            "pk", "merged_into_id"
        )
    )
    resolved = {}
    for player in into:
        target, seen = into[player], {player}
        while target in into and target not in seen:
            seen.add(target)
            target = into[target]
        resolved[player] = target
    return resolved


def _placings(pairs: Iterable[tuple[int, int]], merged: dict[int, int]) -> tuple[Placing[int], ...]:
    """(player, place) best first → placings, merged players as who they now are (one
    person twice at a game keeps their better place)."""
    seen: set[int] = set()
    out = []
    for player, place in pairs:
        player = merged.get(player, player)
        if player not in seen:
            seen.add(player)
            out.append(Placing(player=player, place=place))
    return tuple(out)


def _table_games(
    events: dict[int, Event], events_q: dict[str, Any], merged: dict[int, int]
) -> list[RatedGame]:
    stage_q = {f"event__{name}": value for name, value in events_q.items()}
    stage_q["status"] = StageStatus.FINISHED
    table_q = {f"stage__{name}": value for name, value in stage_q.items()}
    sub_q = {f"table__{name}": value for name, value in table_q.items()}
    stages = {}
    # Forty nights of one game share one rules object (built once, not per event).
    variants: dict[str, Variant] = {}
    for stage in Stage.objects.filter(**stage_q).only("event_id", "number", "status", "outcome"):
        event = stage.event = events[stage.event_id]
        if "_variant" not in event.__dict__:
            options = json.dumps(event.variant_options, sort_keys=True)
            if options not in variants:
                variants[options] = event.variant
            event.__dict__["_variant"] = variants[options]
        stages[stage.pk] = stage
    if not stages:
        return []
    tables = list(Table.objects.filter(**table_q).only("stage_id", "number", "playoff_of"))
    seats: dict[int, list[_Seat]] = defaultdict(list)
    for table_id, position, player_id, first in (
        Seat.objects.filter(table__playoff_of=None, **sub_q)
        .order_by("table_id", "position")
        .values_list("table_id", "position", "player_id", "is_first_dealer")
    ):
        seats[table_id].append(_Seat(position, player_id, first))
    deals: dict[int, list[_Deal]] = defaultdict(list)
    for table_id, number, points, flags, status in (
        Deal.objects.filter(table__playoff_of=None, **sub_q)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "points", "flags", "status")
    ):
        deals[table_id].append(_Deal(number, points, flags, status))
    tie_breaks = _ClubTieBreaks({f"stage__{k}": v for k, v in stage_q.items()})
    games = []
    for table in tables:
        stage = table.stage = stages[table.stage_id]
        at_table, played = seats.get(table.pk, []), deals.get(table.pk, [])
        if len(at_table) < 2 or not any(not deal.is_voided for deal in played):
            continue  # nothing was played here: no result to rate
        sheet = sheet_of(
            table,
            cast("list[Seat]", at_table),
            cast("list[Deal]", played),
            stage.event.variant,
            False,
            tie_breaks,
        )
        player_at = {seat.position: seat.player_id for seat in at_table}
        games.append(
            RatedGame(
                played_on=stage.event.date,
                event_id=stage.event_id,
                stage_id=stage.pk,
                stage_number=stage.number,
                table_id=table.pk,
                table_number=table.number,
                placings=_placings(
                    ((player_at[seat.position], seat.place) for seat in sheet.order), merged
                ),
            )
        )
    return games


def _imported_games(events_q: dict[str, Any], merged: dict[int, int]) -> list[RatedGame]:
    """Each imported event is one game, its players by the place the club recorded."""
    by_event: dict[int, list[tuple[int, int]]] = defaultdict(list)
    dates: dict[int, datetime.date] = {}
    for event_id, day, player_id, place in (
        ImportedResult.objects.filter(
            event__format__in=format_ids(imported=True),
            **{f"event__{name}": value for name, value in events_q.items()},
        )
        .order_by("event_id", "place", "player_id")
        .values_list("event_id", "event__date", "player_id", "place")
    ):
        by_event[event_id].append((player_id, place))
        dates[event_id] = day
    return [
        RatedGame(
            played_on=dates[event_id],
            event_id=event_id,
            stage_id=None,
            stage_number=0,
            table_id=None,
            table_number=0,
            placings=_placings(pairs, merged),
        )
        for event_id, pairs in by_event.items()
    ]
