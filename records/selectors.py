"""A player's record and the statistics rummy players care about, read in a fixed number of
queries however many events the player has played.

One pass over the player's seats (each with its table's seats and deals) gives every figure:
the events and placings, the totals per game, deals won, räväytys, the average per deal,
the best and worst deal, championship stages and titles, and the Gin Römi head-to-head.
Only what the reader may see counts: published events, and for the club's directors the
private ones too (marked).
"""

from __future__ import annotations

import datetime
import functools
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Max, Q

from rules import VARIANT_IDS, RuleViolation, TableStanding, Variant, game_spec, table_standing
from rules.gin import Settlement
from scoring.judge import TableProblem, deal_scores, ravaytys_out, standing_and_problem
from scoring.models import Deal, DealStatus
from scoring.selectors import TableSheet, TableTieBreaks, stage_precedence
from standings.standings import events_standings
from tournaments.models import (
    Event,
    EventStatus,
    ImportedResult,
    Player,
    Role,
    Seat,
    Stage,
    StageStatus,
    Table,
)
from tournaments.permissions import club_allows
from tournaments.privacy import record_public
from tournaments.visibility import confirmed_only, is_public, public_events_q

SEATED = (StageStatus.CONFIRMED, StageStatus.FINISHED)


# -- who may see what ----------------------------------------------------------------------------


def player_page_visible(
    *, player: Player, user: User | AnonymousUser, director: bool | None = None
) -> bool:
    """Whether `user` may open `player`'s record page: anyone when it is public
    (tournaments.privacy.record_public: not hidden, and not a guest's unless the club
    publishes those), else the club's directors and the player themself alone.
    `director`: whether `user` directs the player's club, when the caller knows already."""
    if record_public(player=player):
        return True
    if user.is_authenticated and player.user_id is not None and player.user_id == user.pk:
        return True
    if director is None:
        director = club_allows(club=player.club, user=user, role=Role.DIRECTOR)
    return director


def player_record_for(*, player: Player, user: User | AnonymousUser) -> PlayerRecord | None:
    """`player`'s record as `user` may see it, or None when the page is not theirs to see.
    The club's directors see its private events too (marked), as
    `tournaments.permissions.event_visible` lets them preview those."""
    director = club_allows(club=player.club, user=user, role=Role.DIRECTOR)
    if not player_page_visible(player=player, user=user, director=director):
        return None
    only = confirmed_only(club=player.club, director=director)
    return player_record(player=player, private=director, confirmed_only=only)


def my_players(*, user: User | AnonymousUser) -> list[Player]:
    """The player records of `user`'s account, one per club, by club name."""
    if not user.is_authenticated:
        return []
    return list(
        Player.objects.filter(user=user, merged_into__isnull=True)
        .select_related("club")
        .order_by("club__name")
    )


# -- the record -----------------------------------------------------------------------------------


@dataclass
class EventRow:
    """One table the player sat at (an event, or one stage of a championship)."""

    event: Event
    event_name: str
    date: datetime.date
    game: str  # the game's name (English; shown translated)
    stage: int
    stages: int  # the event's seated stages (1 but for championships and series)
    table: int
    place: int
    seats: int
    total: int
    deals: int
    won: int
    # Level with another player at the table on every tie-break ("=2/4").
    shared: bool
    # Deals the player went out with a räväytys; None where the game records none.
    ravaytys: int | None
    unconfirmed: bool
    needs_director: bool
    # A private event: on the page only for the club's directors.
    private: bool


@dataclass
class EventLine:
    """One event of the record: the player's place and total there as the event's
    standings give them (the pages, downloads and league of the event read the same
    object), then the tables the player sat at there (`rounds`: its rounds or stages,
    oldest first; none for an imported event)."""

    event: Event
    event_name: str
    date: datetime.date
    game: str  # the game's name (English; shown translated)
    # None: the standings rank the player nowhere (yet).
    place: int | None
    shared: bool
    # How many players the event's standings rank.
    ranked: int
    # The event's own "Total": a night's or a championship's points at the last table, a
    # series' rounds added up, a head-to-head event's settlement points, the imported total.
    total: int | float | None
    # Head to head: the matches won (what the ranking goes by).
    wins: int | None
    # A championship's last stage reached (or the stage an imported result names).
    stage: int | None
    champion: bool
    unconfirmed: bool
    private: bool
    rounds: list[EventRow] = field(default_factory=list)

    @property
    def imported(self) -> bool:
        return self.event.spec.imported

    @property
    def total_key(self) -> float:
        # Sorting by the total: an event that ranks the player nowhere sorts last.
        return float("-inf") if self.total is None else float(self.total)

    @property
    def deals(self) -> int:
        return sum(row.deals for row in self.rounds)

    @property
    def won(self) -> int:
        return sum(row.won for row in self.rounds)

    @property
    def ravaytys(self) -> int | None:
        counted = [row.ravaytys for row in self.rounds if row.ravaytys is not None]
        return sum(counted) if counted else None


@dataclass
class DealMark:
    """One deal of the player's and where it was played. `shown` is what it is judged by:
    the player's points in a penalty game (lower is better), the points won minus the
    opponent's in a game where higher is better; `value` orders it, higher better."""

    value: int
    shown: int
    number: int
    table: int
    event: Event


@dataclass
class GameTotals:
    """Everything the player did in one game (variant)."""

    variant_id: str
    game: str
    lower_is_better: bool
    events: int = 0
    tables: int = 0
    firsts: int = 0  # tables won: first when the game (or the event) was over
    deals: int = 0
    points: int = 0
    won: int = 0  # deals won: went out (contract games), won the deal (Römi games)
    ravaytys: int | None = None
    best: DealMark | None = None
    worst: DealMark | None = None
    _events: set[int] = field(default_factory=set, repr=False)

    @property
    def average(self) -> Fraction | None:
        """Points per deal (penalty games: lower is better)."""
        return Fraction(self.points, self.deals) if self.deals else None


@dataclass
class ChampionshipRow:
    event: Event
    # The highest stage the player played, and the event's last seated stage.
    reached: int
    stages: int
    champion: bool
    private: bool


@dataclass
class OpponentRow:
    """A Gin Römi record against one opponent: finished games only."""

    opponent_id: int
    name: str
    played: int = 0
    won: int = 0
    lost: int = 0
    # Games with this opponent still in play (or needing the director): not counted yet.
    open: int = 0


@dataclass
class PlayerRecord:
    player: Player
    rows: list[EventRow]  # newest first
    lines: list[EventLine]  # newest first: each event's place and total, its tables beneath
    games: list[GameTotals]  # in the site's order of games
    championships: list[ChampionshipRow]  # newest first
    head_to_head: list[OpponentRow]  # most played first
    events: int
    deals: int
    won: int
    ravaytys: int
    records_ravaytys: bool
    titles: int
    # Penalty points per deal over every penalty game played (None when none).
    penalty_average: Fraction | None
    penalty_deals: int
    shows_private: bool

    @property
    def unconfirmed(self) -> bool:
        return any(row.unconfirmed for row in self.rows)

    @property
    def private(self) -> bool:
        return any(row.private for row in self.rows)


@dataclass(slots=True)
class _StoredDeal:
    """A deal as the record reads it (what `scoring.judge.deal_scores` needs): read as
    plain values, since a record of many events reads hundreds of them."""

    number: int
    points: Any
    flags: Any
    status: str

    @property
    def is_voided(self) -> bool:
        return self.status == DealStatus.VOIDED

    @property
    def is_confirmed(self) -> bool:
        return self.status == DealStatus.CONFIRMED


@dataclass(slots=True)
class _Sitter:
    position: int
    player_id: int
    name: str


def _player_seats(player: Player, *, private: bool) -> list[Seat]:
    """The player's seats at seated or finished stages of the events the reader may see,
    newest first, each with its table, stage and event (only the fields the record reads).
    A play-off table's seat is none: its deal is a tie-break, not a table played."""
    visible = public_events_q("table__stage__event")
    if private:
        visible |= Q(table__stage__event__club=player.club_id)
    seats = list(
        Seat.objects.filter(
            visible, player=player, table__stage__status__in=SEATED, table__playoff_of=None
        )
        .select_related("table__stage__event")
        .only(
            "table_id",
            "position",
            "player_id",
            "table__number",
            "table__playoff_of",  # none here (see the filter): read by `Table.variant`
            "table__stage_id",
            "table__stage__number",
            "table__stage__status",
            "table__stage__outcome",
            "table__stage__event_id",
            *(f"table__stage__event__{name}" for name in _EVENT_FIELDS),
        )
        .order_by(
            "-table__stage__event__date",
            "-table__stage__event__created_at",
            "-table__stage__event_id",
            "-table__stage__number",
        )
    )
    variants: dict[str, Variant] = {}
    for seat in seats:
        event = seat.table.stage.event
        # A player registers only for its own club's events: the club is at hand, so an
        # event's address needs no query.
        if event.club_id == player.club_id:
            event.club = player.club
        # Forty nights of one game share one rules object (read once, not per event).
        key = json.dumps(event.variant_options, sort_keys=True)
        if key not in variants:
            variants[key] = event.variant
        event.__dict__["_variant"] = variants[key]
    return seats


_EVENT_FIELDS = (
    "club_id",
    "name",
    "date",
    "variant_id",
    "tie_breaks",  # the precedence a table's places follow
    "variant_options",
    "format",
    "status",
    "published_at",
    "created_at",
)


def _tables_of(
    seats: list[Seat], *, confirmed_only: bool
) -> tuple[dict[int, list[_Sitter]], dict[int, list[_StoredDeal]]]:
    """Who sat where at each of `seats`' tables, and the tables' deals (`confirmed_only`:
    without those still waiting for confirmation): two queries."""
    table_ids = sorted({seat.table_id for seat in seats})
    sitters: dict[int, list[_Sitter]] = defaultdict(list)
    deals: dict[int, list[_StoredDeal]] = defaultdict(list)
    if not table_ids:
        return sitters, deals
    for table_id, position, player_id, name in (
        Seat.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "position")
        .values_list("table_id", "position", "player_id", "player__name")
    ):
        sitters[table_id].append(_Sitter(position, player_id, name))
    stored = Deal.objects.filter(table_id__in=table_ids)
    if confirmed_only:
        stored = stored.exclude(status=DealStatus.SUBMITTED)
    for table_id, number, points, flags, status in stored.order_by(
        "table_id", "number"
    ).values_list("table_id", "number", "points", "flags", "status"):
        deals[table_id].append(_StoredDeal(number, points, flags, status))
    return sitters, deals


def _winner(flags: dict[str, Any]) -> Any:
    # Who won the deal: who went out in a contract game, the deal's winner in a Römi game.
    return flags.get("went_out") if "went_out" in flags else flags.get("winner")


def _lower_is_better(variant: Any, seats: int, known: dict[str, bool]) -> bool:
    """The game's order as the engine gives it (an empty table's standing)."""
    if variant.id not in known:
        try:
            known[variant.id] = table_standing(variant, seats, []).lower_is_better
        except RuleViolation:
            known[variant.id] = True
    return known[variant.id]


def _player_deals(
    deals: list[_StoredDeal], position: int
) -> Iterable[tuple[_StoredDeal, int, int]]:
    """(deal, the player's points, the best of the others') for every deal that counts
    for the player: not voided, and (Tízlapos) with the player still in the game."""
    for deal in deals:
        points = deal.points if isinstance(deal.points, list) else []
        flags = deal.flags if isinstance(deal.flags, dict) else {}
        present = flags.get("present")
        if deal.is_voided or position >= len(points) or not isinstance(points[position], int):
            continue
        if isinstance(present, list) and position < len(present) and present[position] is False:
            continue
        others = [p for seat, p in enumerate(points) if seat != position and isinstance(p, int)]
        yield deal, points[position], max(others, default=0)


def _went_out_with_ravaytys(deal: _StoredDeal, position: int) -> bool:
    """Whether the seat at `position` went out with a räväytys in `deal` (voided: no)."""
    return not deal.is_voided and ravaytys_out(deal.flags) == position


def _mark(current: DealMark | None, mark: DealMark, *, better: bool) -> DealMark:
    # The first of equal deals stands (deals are read oldest first).
    if current is None:
        return mark
    return (
        mark if (mark.value > current.value if better else mark.value < current.value) else current
    )


def _event_stages(event_ids: list[int]) -> dict[int, int]:
    if not event_ids:
        return {}
    return dict(
        Stage.objects.filter(event_id__in=event_ids, status__in=SEATED)
        .values("event_id")
        .annotate(last=Max("number"))
        .values_list("event_id", "last")
    )


def player_record(
    *, player: Player, private: bool = False, confirmed_only: bool = False
) -> PlayerRecord:
    """`player`'s record: every table they sat at in a published event (with `private`,
    the club's private events too), newest first, and their statistics; with
    `confirmed_only` (a club whose public pages show confirmed results only), the deals
    still waiting for confirmation are left out.

    At most four queries whatever the number of events: the player's seats with their
    table, stage and event; those tables' seats (with the players' names, the Gin
    opponents); their deals; and, when there are championships or series, their last
    stages. Voided deals count for nobody; deals not yet confirmed count, and their rows
    are marked.
    """
    seats = _player_seats(player, private=private)
    sitters, deals_of = _tables_of(seats, confirmed_only=confirmed_only)
    last_stage = _event_stages(
        sorted({s.table.stage.event_id for s in seats if not s.table.stage.event.spec.one_stage})
    )
    known_order: dict[str, bool] = {}
    tie_breaks = TableTieBreaks(table_ids=sorted(sitters))
    rows: list[EventRow] = []
    games: dict[str, GameTotals] = {}
    championships: dict[int, ChampionshipRow] = {}
    opponents: dict[int, OpponentRow] = {}
    penalty_points = penalty_deals = 0
    # Oldest first, so the first of equal best (or worst) deals is the earliest.
    for seat in reversed(seats):
        table = seat.table
        stage = table.stage
        event = stage.event
        variant = event.variant
        at_table = sitters[table.pk]
        deals_at = deals_of[table.pk]
        standing, problem = standing_and_problem(variant, len(at_table), deal_scores(deals_at))
        position = seat.position
        lower = _lower_is_better(variant, len(at_table), known_order)
        place, shared = _table_place(
            table, at_table, deals_at, standing, problem, position, tie_breaks
        )
        totals = games.get(variant.id)
        if totals is None:
            totals = games[variant.id] = GameTotals(variant.id, variant.name, lower)
        won = deals = 0
        for deal, points, others in _player_deals(deals_at, position):
            deals += 1
            totals.points += points
            if lower:
                penalty_points += points
                penalty_deals += 1
            flags = deal.flags if isinstance(deal.flags, dict) else {}
            if _winner(flags) == position:
                won += 1
            shown = points if lower else points - others
            mark = DealMark(-points if lower else shown, shown, deal.number, table.number, event)
            totals.best = _mark(totals.best, mark, better=True)
            totals.worst = _mark(totals.worst, mark, better=False)
        ravaytys = (
            sum(_went_out_with_ravaytys(deal, position) for deal in deals_at)
            if game_spec(variant).records_ravaytys
            else None
        )
        totals.deals += deals
        totals.won += won
        totals.tables += 1
        # A table won: first once its game is over (or the event finished without it).
        over = standing.finished or event.status == EventStatus.FINISHED
        # A shared first is no win: the table has none until the director settles it.
        totals.firsts += place == 1 and not shared and deals > 0 and over and problem is None
        totals._events.add(event.pk)
        totals.events = len(totals._events)
        if ravaytys is not None:
            totals.ravaytys = (totals.ravaytys or 0) + ravaytys
        rows.append(
            EventRow(
                event=event,
                event_name=event.name,
                date=event.date,
                game=variant.name,
                stage=stage.number,
                stages=last_stage.get(event.pk, 1),
                table=table.number,
                place=place,
                shared=shared,
                seats=len(at_table),
                total=standing.totals[position] if position < len(standing.totals) else 0,
                deals=deals,
                won=won,
                ravaytys=ravaytys,
                unconfirmed=any(not d.is_confirmed and not d.is_voided for d in deals_at),
                needs_director=problem is not None,
                private=not is_public(event),
            )
        )
        if event.spec.knockout:
            _count_championship(championships, event, stage, player, last_stage)
        if len(at_table) == 2 and variant.family == "gin":
            finished = standing.finished and problem is None
            _count_match(opponents, at_table, position, standing.settlement if finished else None)
    rows.reverse()
    lines = _event_lines(player, rows, private=private, confirmed_only=confirmed_only)
    return PlayerRecord(
        player=player,
        rows=rows,
        lines=lines,
        games=sorted(games.values(), key=lambda g: _game_order(g.variant_id)),
        championships=sorted(
            championships.values(), key=lambda c: (c.event.date, c.event.pk), reverse=True
        ),
        head_to_head=sorted(opponents.values(), key=lambda o: (-o.played, -o.won, o.name)),
        events=len(lines),
        deals=sum(g.deals for g in games.values()),
        won=sum(g.won for g in games.values()),
        ravaytys=sum(g.ravaytys or 0 for g in games.values()),
        records_ravaytys=any(g.ravaytys is not None for g in games.values()),
        titles=sum(c.champion for c in championships.values()),
        penalty_average=Fraction(penalty_points, penalty_deals) if penalty_deals else None,
        penalty_deals=penalty_deals,
        shows_private=private,
    )


def _imported_events(player: Player, *, private: bool) -> list[Event]:
    """The imported events the player has a result in, that the reader may see (one
    query): they have no seats, so the seats' read never finds them."""
    visible = public_events_q("event")
    if private:
        visible |= Q(event__club=player.club_id)
    results = (
        ImportedResult.objects.filter(visible, player=player)
        .select_related("event")
        .only("event_id", *(f"event__{name}" for name in _EVENT_FIELDS))
    )
    events = []
    for result in results:
        event = result.event
        if event.club_id == player.club_id:
            event.club = player.club
        events.append(event)
    return events


def _event_lines(
    player: Player, rows: list[EventRow], *, private: bool, confirmed_only: bool
) -> list[EventLine]:
    """Every event of the record, newest first, with the player's place and total from the
    event's standings (`events_standings`: a fixed number of queries for them all) and the
    record's tables of it beneath, oldest stage first."""
    rounds: dict[int, list[EventRow]] = defaultdict(list)
    events: dict[int, Event] = {}
    for row in reversed(rows):
        rounds[row.event.pk].append(row)
        events.setdefault(row.event.pk, row.event)
    for event in _imported_events(player, private=private):
        events.setdefault(event.pk, event)
    standings = events_standings(events=list(events.values()), confirmed_only=confirmed_only)
    lines = []
    for event in events.values():
        rows_of = standings[event.pk].rows
        mine = next((r for r in rows_of if r.player_id == player.pk), None)
        lines.append(
            EventLine(
                event=event,
                event_name=event.name,
                date=event.date,
                game=event.variant.name,
                place=mine.place if mine else None,
                shared=bool(mine and mine.shared),
                ranked=len(rows_of),
                total=mine.total if mine else None,
                wins=mine.wins if mine else None,
                stage=mine.stage if mine else None,
                champion=bool(mine and mine.champion),
                unconfirmed=bool(mine and mine.unconfirmed),
                private=not is_public(event),
                rounds=rounds.get(event.pk, []),
            )
        )
    lines.sort(key=lambda line: (line.date, line.event.created_at, line.event.pk), reverse=True)
    return lines


def _table_place(
    table: Table,
    at_table: list[_Sitter],
    deals: list[_StoredDeal],
    standing: TableStanding,
    problem: TableProblem | None,
    position: int,
    tie_breaks: TableTieBreaks,
) -> tuple[int, bool]:
    """The player's place at the table as its page orders it (`TableSheet.order`: the
    stage's tie-break precedence and the director's record for the table), so a tie the
    director settled credits the win as recorded; and whether it is shared."""
    sheet = TableSheet(
        table,
        cast("list[Seat]", at_table),
        cast("list[Deal]", deals),
        standing,
        table.variant,
        problem,
        precedence=stage_precedence(table.stage),
        tie_orders=functools.partial(tie_breaks.of, table.pk),
    )
    return next(
        ((p.place, p.shared) for p in sheet.order if p.position == position),
        (len(at_table), False),
    )


def _game_order(variant_id: str) -> tuple[int, str]:
    # The site's order of games (the registry's).
    known = VARIANT_IDS.index(variant_id) if variant_id in VARIANT_IDS else len(VARIANT_IDS)
    return (known, variant_id)


def _count_championship(
    championships: dict[int, ChampionshipRow],
    event: Event,
    stage: Stage,
    player: Player,
    last_stage: dict[int, int],
) -> None:
    row = championships.get(event.pk)
    if row is None:
        row = championships[event.pk] = ChampionshipRow(
            event=event,
            reached=0,
            stages=last_stage.get(event.pk, stage.number),
            champion=False,
            private=not is_public(event),
        )
    row.reached = max(row.reached, stage.number)
    # The champion is in the closing stage's outcome, which the champion sat in.
    outcome = stage.outcome if isinstance(stage.outcome, dict) else {}
    champion = outcome.get("champion")
    if isinstance(champion, int) and not isinstance(champion, bool) and champion == player.pk:
        row.champion = True


def _count_match(
    opponents: dict[int, OpponentRow],
    at_table: list[_Sitter],
    position: int,
    settlement: Settlement | None,
) -> None:
    """One Gin Römi game against the other seat: counted once it is over (`settlement`)."""
    other = next(s for s in at_table if s.position != position)
    row = opponents.get(other.player_id)
    if row is None:
        row = opponents[other.player_id] = OpponentRow(other.player_id, other.name)
    if settlement is None:
        row.open += 1
        return
    row.played += 1
    # The settlement counts seats as the points do: by position (0 and 1 at a Gin table).
    if settlement.winner == position:
        row.won += 1
    else:
        row.lost += 1
