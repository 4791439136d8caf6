"""Reads for a season's league table: every counted event's final places, the table as
stored with the season, and the same table recomputed when it is out of date.

Which events count: the season's **published** events that are **in play or finished**
(an event in play counts as it stands, marked so on the page, and a deal confirmed or
corrected there changes the table); a private event never counts, nor one whose tables
have not played a deal, nor a championship before its final has a champion. Each event
gives every player who played a deal there one :class:`~tournaments.engine.league.EventResult`:
the place in the whole event, the field it was won in (everyone placed), the penalty total
and the deals played (see :func:`event_final_places`).

A season loads in a fixed number of queries however many events and players it has (five,
plus four per reseated series, whose standings have their own selector), and the page
reads the stored table with the season: it is recomputed only when out of date (a result
that feeds it changed, or the scheme did), see :func:`leagues.services.season_league`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from formats.championship import stored_advancement
from formats.headtohead import Match, h2h_bye_value
from formats.series import series_standings
from rules import RuleViolation
from scoring.models import Deal
from scoring.selectors import TableSheet, TableTieBreaks, sheet_of
from standings.selectors import event_ranking
from tournaments.changes import event_results_version, with_results_version
from tournaments.engine.advancement import final_ranking
from tournaments.engine.league import EventResult, LeagueRow, LeagueScheme, league_table
from tournaments.engine.pairing import Bye, MatchResult, h2h_standings
from tournaments.event_formats import format_spec
from tournaments.models import (
    Event,
    EventStatus,
    ImportedResult,
    Player,
    Season,
    SeasonSchemeChange,
    Seat,
    Stage,
    StageStatus,
    Table,
    TieBreak,
)
from tournaments.privacy import public_record_ids
from tournaments.visibility import confirmed_only, public_events_q

log = logging.getLogger(__name__)

# The stored table's layout (Season.league_rows) and the JSON feed's: bump on any change.
ROWS_VERSION = 1
SEATED = (StageStatus.CONFIRMED, StageStatus.FINISHED)


# -- an event's final places ----------------------------------------------------------------------


@dataclass(frozen=True)
class FinalPlace:
    """One player's final result at an event: the place among ``field`` players placed,
    their penalty total (settlement points in a head-to-head event) and deals played
    (matches in a head-to-head event)."""

    player_id: int
    name: str
    guest: bool
    place: int
    field: int
    total: int
    games: int


@dataclass
class EventPlay:
    """What an event's final places are read from: its seated stages in order, and every
    table of them with its standing, by stage id (loaded for a whole season at once)."""

    event: Event
    stages: list[Stage]
    sheets: dict[int, list[TableSheet]] = field(default_factory=dict)
    # The director's recorded tie-breaks by stage id (orders of player ids, oldest first).
    tie_breaks: dict[int, list[list[int]]] = field(default_factory=dict)
    # An imported event's results (it has no stages), best first.
    imported: list[ImportedResult] = field(default_factory=list)

    def all_sheets(self) -> list[TableSheet]:
        return [sheet for stage in self.stages for sheet in self.sheets.get(stage.pk, [])]


def event_final_places(play: EventPlay) -> list[FinalPlace]:
    """The event's final places, whatever its format; players who played no deal are left
    out (a seat that never played has no result to count).

    * a club night: its ranking (:func:`scoring.selectors.event_ranking`) of the last
      seated stage, the event-wide place;
    * a championship: its final ranking (champion first, then by the last stage reached,
      :func:`tournaments.engine.advancement.final_ranking`) once its last stage closed it, the
      totals and deals of every stage added up; none before that;
    * a reseated series: its standings after every round (:func:`formats.series.
      series_standings`, which reads its own rows);
    * a head-to-head event: its standings by match wins, then points (the settlement
      points and the matches played are the total and the games);
    * an imported event: the places and totals imported, each counted as one game (the
      file has no deals; the average scheme reads an imported event's total as one game's).
    """
    event = play.event
    if event.spec.imported:
        return _imported_places(play)
    if event.spec.knockout:
        return _championship_places(play)
    if event.spec.reseated:
        return _series_places(play)
    if event.spec.paired:
        return _h2h_places(play)
    last = play.stages[-1] if play.stages else None
    sheets = play.sheets.get(last.pk, []) if last is not None else []
    guests = {seat.player_id: seat.player.guest for sheet in sheets for seat in sheet.seats}
    orders = play.tie_breaks.get(last.pk, []) if last is not None else []
    ranking = event_ranking(event=event, sheets=sheets, tie_break_orders=orders)
    rows = [row for row in ranking if row.deals]
    return [
        FinalPlace(
            row.player_id,
            row.player,
            guests.get(row.player_id, False),
            row.place,
            len(rows),
            row.total,
            row.deals,
        )
        for row in rows
    ]


def _imported_places(play: EventPlay) -> list[FinalPlace]:
    return [
        FinalPlace(
            result.player_id,
            result.player.name,
            result.player.guest,
            result.place,
            len(play.imported),
            result.total_number,  # type: ignore[arg-type]  # a decimal where the file had one
            1,
        )
        for result in play.imported
    ]


def _seat_sums(sheets: Sequence[TableSheet]) -> dict[int, tuple[str, bool, int, int]]:
    """Player id → (name, guest, total, deals) over the sheets (a player's every stage)."""
    sums: dict[int, tuple[str, bool, int, int]] = {}
    for sheet in sheets:
        for seat in sheet.seats:
            _name, _guest, total, games = sums.get(seat.player_id, ("", False, 0, 0))
            sums[seat.player_id] = (
                seat.player.name,
                seat.player.guest,
                total + sheet.standing.totals[seat.position],
                games + sheet.played,
            )
    return sums


def _championship_places(play: EventPlay) -> list[FinalPlace]:
    closed = [stored_advancement(stage.outcome) for stage in play.stages if stage.outcome]
    if not closed or not closed[-1].over:
        return []
    sums = _seat_sums(play.all_sheets())
    ranked = [row for row in final_ranking(closed) if sums.get(row.player, ("", False, 0, 0))[3]]
    return [
        FinalPlace(row.player, *sums[row.player][:2], row.place, len(ranked), *sums[row.player][2:])
        for row in ranked
    ]


def _series_places(play: EventPlay) -> list[FinalPlace]:
    standings = series_standings(event=play.event)
    guests = {seat.player_id: seat.player.guest for s in play.all_sheets() for seat in s.seats}
    rows = [row for row in standings.rows if row.rounds_played]
    return [
        FinalPlace(
            row.player_id,
            row.player,
            guests.get(row.player_id, False),
            row.place,
            len(rows),
            row.total,
            sum(cell.played for cell in row.cells if cell is not None),
        )
        for row in rows
    ]


def _h2h_places(play: EventPlay) -> list[FinalPlace]:
    matches = [
        Match(stage.number, sheet, sheet.seats[0].player_id, sheet.seats[1].player_id)
        for stage in play.stages
        for sheet in play.sheets.get(stage.pk, [])
        if len(sheet.seats) == 2
    ]
    people = {seat.player_id: seat.player for m in matches for seat in m.sheet.seats}
    results: list[MatchResult[int] | Bye[int]] = [
        result for match in matches if (result := match.result) is not None
    ]
    for stage in play.stages:
        bye = stage.format.get("bye") if isinstance(stage.format, dict) else None
        if isinstance(bye, int) and not isinstance(bye, bool) and bye in people:
            results.append(Bye(round=stage.number, player=bye))
    players = sorted(people, key=lambda p: (people[p].name, p))
    table = h2h_standings(players, results, bye_value=h2h_bye_value(event=play.event))
    rows = [row for row in table if row.played]
    return [
        FinalPlace(
            row.player,
            people[row.player].name,
            people[row.player].guest,
            row.place,
            len(rows),
            row.points,
            row.played,
        )
        for row in rows
    ]


# -- a season's results -----------------------------------------------------------------------


# The statuses of an event the league table counts (when it is published).
COUNTED_STATUSES = (EventStatus.RUNNING, EventStatus.FINISHED)


def season_counted_events(*, season: Season) -> QuerySet[Event]:
    """The events the season's league table may count: published, in play or finished, by
    date (those with no result yet are left out by :func:`season_results`)."""
    return with_results_version(
        Event.objects.filter(public_events_q(), season=season, status__in=COUNTED_STATUSES)
        .select_related("club")
        .order_by("date", "pk")
    )


def season_plays(*, season: Season, events: list[Event] | None = None) -> list[EventPlay]:
    """Every counted event (or `events`) with its seated stages and their tables'
    standings, in six queries however many events, tables and players (events, stages,
    the director's tie-breaks, tables, seats with their players, deals). A club whose public pages show confirmed
    results only has its table computed from confirmed deals alone."""
    if events is None:
        events = list(season_counted_events(season=season))
    if not events:
        return []
    plays = {event.pk: EventPlay(event, []) for event in events}
    imported = [event for event in events if event.spec.imported]
    if imported:
        for result in (
            ImportedResult.objects.filter(event__in=imported)
            .select_related("player")
            .only("event_id", "place", "total", "player_id", "player__name", "player__guest")
            .order_by("event_id", "place", "player__name")
        ):
            plays[result.event_id].imported.append(result)
    stages = list(
        Stage.objects.filter(event__in=events, status__in=SEATED).order_by("event_id", "number")
    )
    for stage in stages:
        stage.event = plays[stage.event_id].event
        plays[stage.event_id].stages.append(stage)
    by_id = {stage.pk: stage for stage in stages}
    recorded = TieBreak.objects.filter(stage__in=stages).order_by("recorded_at", "pk")
    for stage_id, order in recorded.values_list("stage_id", "order"):
        if isinstance(order, list):
            plays[by_id[stage_id].event_id].tie_breaks.setdefault(stage_id, []).append(order)
    # Only the columns a standing reads: a season is some 10,000 deals, and each JSON
    # column left out is that many values not decoded.
    tables = (
        Table.objects.filter(stage__in=stages)
        .only("id", "stage_id", "number")
        .order_by("stage_id", "number")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("player")
                .only("id", "table_id", "player_id", "position", "player__name", "player__guest")
                .order_by("position"),
            ),
            Prefetch(
                "deals",
                queryset=Deal.objects.only(
                    "id", "table_id", "number", "points", "flags", "status"
                ).order_by("number"),
            ),
        )
    )
    tie_breaks: dict[int, TableTieBreaks] = {}
    for table in tables:
        stage = table.stage = by_id[table.stage_id]
        seats, deals = list(table.seats.all()), list(table.deals.all())
        event = stage.event
        # The club's public pages show confirmed results only: so does its table.
        shared = tie_breaks.setdefault(stage.pk, TableTieBreaks(stage_id=stage.pk))
        sheet = sheet_of(
            table, seats, deals, event.variant, confirmed_only(club=event.club), shared
        )
        plays[stage.event_id].sheets.setdefault(stage.pk, []).append(sheet)
    return [plays[event.pk] for event in events]


@dataclass
class SeasonResults:
    """A season's counted events and every player's result at each: what the league table
    is computed from, under any scheme (the director's page compares two)."""

    events: list[Event]
    results: list[EventResult[int]]
    names: dict[int, str]
    guests: dict[int, bool]


# A finished event's results are read again from its tables unless they last changed at
# least this long before the stored table was read: a change committed while that read ran
# (a transaction of a few milliseconds) is never taken for one it saw.
REUSE_MARGIN = timedelta(minutes=1)


def _stored_results(
    previous: Mapping[str, Any] | None, events: Sequence[Event]
) -> dict[int, list[tuple[int, int, int, int, int]]]:
    """Event id → (player, place, field, total, games) from the stored table, for each
    finished event whose results cannot have changed since it was read: a finished event
    takes no more scores, and a change of its ranking (a correction, a setting, a tie-break,
    a closed stage's decision) moves its results version on."""
    if not isinstance(previous, Mapping) or previous.get("version") != ROWS_VERSION:
        return {}
    read = parse_datetime(str(previous.get("read_at") or ""))
    if read is None:
        return {}
    finished = {e["id"] for e in previous.get("events", []) if e.get("finished")}
    reusable = {
        event.pk
        for event in events
        if event.status == EventStatus.FINISHED
        and event.pk in finished
        and event_results_version(event) < read - REUSE_MARGIN
    }
    stored: dict[int, list[tuple[int, int, int, int, int]]] = {pk: [] for pk in reusable}
    for row in previous.get("rows", []):
        for cell in row["cells"]:
            if cell["event_id"] in stored:
                stored[cell["event_id"]].append(
                    (row["player_id"], cell["place"], cell["field"], cell["total"], cell["games"])
                )
    return {pk: results for pk, results in stored.items() if results}


def season_results(*, season: Season, previous: Mapping[str, Any] | None = None) -> SeasonResults:
    """The season's counted events and every result there. With `previous` (the stored
    table), a finished event it already holds is taken from it (see :func:`_stored_results`)
    and only the others are read from their tables: a night in play costs its own tables,
    not the whole season's. Names are read afresh (one query)."""
    events = list(season_counted_events(season=season))
    stored = _stored_results(previous, events)
    plays = {
        play.event.pk: play
        for play in season_plays(
            season=season, events=[event for event in events if event.pk not in stored]
        )
    }
    names: dict[int, str] = {}
    guests: dict[int, bool] = {}
    if stored:
        ids = {player for results in stored.values() for player, *_rest in results}
        for pk, name, guest in Player.objects.filter(pk__in=ids).values_list("pk", "name", "guest"):
            names[pk], guests[pk] = name, guest
    counted, results = [], []
    for event in events:
        if event.pk in stored:
            places = [
                FinalPlace(player, names.get(player, "?"), guests.get(player, False), *rest)
                for player, *rest in stored[event.pk]
            ]
        else:
            places = event_final_places(plays[event.pk])
        if not places:
            continue
        counted.append(event)
        for place in places:
            names[place.player_id] = place.name
            guests[place.player_id] = place.guest
            results.append(
                EventResult(
                    event=event.pk,
                    date=event.date,
                    player=place.player_id,
                    place=place.place,
                    table_size=place.field,
                    total=place.total,
                    games=place.games,
                )
            )
    return SeasonResults(counted, results, names, guests)


# -- the stored table ----------------------------------------------------------------------------


def season_scheme(season: Season) -> LeagueScheme:
    """The season's scheme (the default when none is stored). A stored scheme the rules no
    longer accept is logged and read as the default, so the page still shows."""
    try:
        return LeagueScheme.from_dict(season.league_scheme or {})
    except RuleViolation:
        log.error(
            "season %s has a league scheme the rules refuse: %r", season.pk, season.league_scheme
        )
        return LeagueScheme()


def league_payload(
    data: SeasonResults, scheme: LeagueScheme, *, computed_at: datetime, read_at: datetime
) -> dict[str, Any]:
    """The league table as plain values: what the season stores, and the JSON feed's body
    (less the club and season, which the feed adds). `read_at`: when the results were
    read (before any of them was)."""
    rows: list[LeagueRow[int]] = league_table(data.results, scheme)
    return {
        "version": ROWS_VERSION,
        "computed_at": computed_at.isoformat(),
        "read_at": read_at.isoformat(),
        "scheme": scheme.to_dict(),
        "events": [
            {
                "id": event.pk,
                "name": event.name,
                "date": event.date.isoformat(),
                "format": event.format,
                "finished": event.status == EventStatus.FINISHED,
            }
            for event in data.events
        ],
        "rows": [
            {
                "player_id": row.player,
                "name": data.names[row.player],
                "guest": data.guests[row.player],
                "ranked": row.ranked,
                "place": row.place,
                "shared": row.shared,
                "place_label": row.place_label,
                "points": row.points,
                "events": row.events,
                "counted_events": row.counted_events,
                "decided_by": row.decided_by,
                "cells": [
                    {
                        "event_id": cell.result.event,
                        "place": cell.result.place,
                        "field": cell.result.table_size,
                        "total": cell.result.total,
                        "games": cell.result.games,
                        "score": cell.score,
                        "counted": cell.counted,
                    }
                    for cell in row.cells
                ],
            }
            for row in rows
        ],
    }


def league_compute(
    *,
    season: Season,
    scheme: LeagueScheme | None = None,
    previous: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The season's table computed now from its results (stores nothing); `previous`: the
    stored table, whose finished events need not be read again (the results do not depend
    on the scheme)."""
    scheme = season_scheme(season) if scheme is None else scheme
    read_at = timezone.now()
    data = season_results(season=season, previous=previous)
    return league_payload(data, scheme, computed_at=timezone.now(), read_at=read_at)


def league_is_fresh(season: Season) -> bool:
    """Whether the stored table is the season's current one: computed, under the scheme the
    season has now, and no result that feeds it changed since."""
    stored = season.league_rows
    return (
        isinstance(stored, dict)
        and stored.get("version") == ROWS_VERSION
        and stored.get("scheme") == season_scheme(season).to_dict()
        and season.league_computed_at is not None
        and season.league_stale_since is None
    )


@dataclass
class LeagueCellView:
    event_id: int
    place: int
    field: int
    total: int
    games: int
    score: float
    counted: bool


@dataclass
class LeagueLine:
    """A player's line as the page, the downloads and the embed show it: one cell per
    counted event of the season (None where the player did not play it)."""

    player_id: int
    name: str
    guest: bool
    ranked: bool
    place: int | None
    shared: bool
    place_label: str
    points: float
    events: int
    counted_events: int
    decided_by: str | None
    cells: list[LeagueCellView | None]
    club_slug: str = ""
    linked: bool = True
    # The row as the page writes it (leagues.tables.row_html).
    html: str = ""

    @property
    def rank_key(self) -> int:
        """What sorting by place compares: the unranked after every ranked player."""
        return self.place if self.place is not None else 1_000_000_000


@dataclass(frozen=True)
class LeagueEvent:
    id: int
    name: str
    date: date
    format: str
    # False while the event is in play: its places may still change.
    finished: bool = True

    @property
    def imported(self) -> bool:
        """Results brought in from the club's spreadsheet (its column says so)."""
        return format_spec(self.format).imported


@dataclass
class SeasonLeague:
    season: Season
    scheme: LeagueScheme
    events: list[LeagueEvent]
    rows: list[LeagueLine]
    computed_at: datetime | None
    # The table was out of date and was recomputed for this read.
    recomputed: bool
    payload: dict[str, Any]
    # The table shown is out of date: a newer one is being computed.
    stale: bool = False

    @property
    def in_play(self) -> bool:
        """Some counted event is still in play: its places may change."""
        return any(not event.finished for event in self.events)

    @property
    def ranked(self) -> list[LeagueLine]:
        return [row for row in self.rows if row.ranked]

    @property
    def unranked(self) -> list[LeagueLine]:
        return [row for row in self.rows if not row.ranked]


def league_view(
    season: Season, payload: Mapping[str, Any], *, recomputed: bool, stale: bool = False
) -> SeasonLeague:
    """The stored table as rows for the pages (no queries)."""
    events = [
        LeagueEvent(
            e["id"], e["name"], date.fromisoformat(e["date"]), e["format"], e.get("finished", True)
        )
        for e in payload.get("events", [])
    ]
    column = {event.id: index for index, event in enumerate(events)}
    club = season.club
    rows = payload.get("rows", [])
    # Whose names link to a record: the one rule (tournaments.privacy), asked of the
    # players as they are now (a record hidden after the table was stored included).
    linked = public_record_ids(club=club, player_ids=(row["player_id"] for row in rows))
    lines = []
    for row in rows:
        cells: list[LeagueCellView | None] = [None] * len(events)
        for cell in row["cells"]:
            if cell["event_id"] in column:
                cells[column[cell["event_id"]]] = LeagueCellView(**cell)
        lines.append(
            LeagueLine(
                player_id=row["player_id"],
                name=row["name"],
                guest=row["guest"],
                ranked=row["ranked"],
                place=row["place"],
                shared=row["shared"],
                place_label=row["place_label"],
                points=row["points"],
                events=row["events"],
                counted_events=row["counted_events"],
                decided_by=row["decided_by"],
                cells=cells,
                club_slug=club.slug,
                linked=row["player_id"] in linked,
            )
        )
    computed = payload.get("computed_at")
    return SeasonLeague(
        season=season,
        scheme=season_scheme(season),
        events=events,
        rows=lines,
        computed_at=parse_datetime(computed) if isinstance(computed, str) else None,
        recomputed=recomputed,
        payload=dict(payload),
        stale=stale,
    )


def public_season(*, slug: str, season_id: int) -> Season | None:
    """The club's season for a public page (every season is public; its private events are
    simply not in its table)."""
    return Season.objects.select_related("club").filter(club__slug=slug, pk=season_id).first()


def season_scheme_changes(*, season: Season) -> list[SeasonSchemeChange]:
    """The season's scheme changes, newest first, with who made them."""
    return list(season.scheme_changes.select_related("changed_by").order_by("-changed_at", "-pk"))


def stored_scheme(scheme: Mapping[str, Any] | None) -> LeagueScheme:
    """A scheme as stored (a season's, or one side of a recorded change); a missing or bad
    one reads as the default."""
    try:
        return LeagueScheme.from_dict(scheme or {})
    except RuleViolation:
        return LeagueScheme()


def place_changes(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> list[tuple[str, str, str]]:
    """(player, place before, place after) for every player whose place a new scheme would
    change, in the new table's order ("" for unranked)."""
    old = {row["player_id"]: row["place_label"] for row in before.get("rows", [])}
    changes = []
    for row in after.get("rows", []):
        was = old.get(row["player_id"], "")
        if was != row["place_label"]:
            changes.append((row["name"], was, row["place_label"]))
    return changes
