"""Reads for score sheets: a table's deals, seats and standing. A fixed number of queries,
however big the event."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch

from rules import RuleViolation, TableStanding
from scoring.judge import Rows, TableProblem, deal_scores, ravaytys_counts, standing_and_problem
from scoring.models import Deal, DealAction, DealVersion, SeatClaim
from tournaments.engine.tiebreaks import (
    TOTAL,
    Contender,
    Orders,
    TieBreakName,
    rank_by_precedence,
    tie_break_precedence,
)
from tournaments.models import Event, Seat, Stage, StageStatus, Table, TieBreak
from tournaments.selectors import stage_in_play


@dataclass
class TableSheet:
    table: Table
    seats: list[Seat]
    deals: list[Deal]
    standing: TableStanding
    variant: Any
    # The first deal the table cannot be scored with: the table then needs the director,
    # and `standing` is that of the deals before it.
    problem: TableProblem | None = None
    # Deals left off because only confirmed results are shown (`confirmed_only`): the
    # first unconfirmed deal and every deal after it.
    withheld: int = 0
    # The tie-break precedence the table's places follow (`table_order`; None: the game's
    # own order), and the director's recorded tie-breaks of this table (orders of player
    # ids, oldest first), read only when a tie reaches them.
    precedence: tuple[str, ...] | None = None
    tie_orders: Callable[[], Orders] | None = None

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def settled(self) -> bool:
        """Whether the table is done with: its game over, every deal confirmed, nothing
        waiting for the director (what an event's finish asks of every table)."""
        return self.problem is None and self.standing.finished and not self.unconfirmed

    @functools.cached_property
    def order(self) -> list[SeatPlace]:
        """The table's places, best first: the one order every page, sheet and record of
        the table reads (`table_order`)."""
        return table_order(self, precedence=self.precedence, director_orders=self.tie_orders)

    @property
    def winner(self) -> Seat | None:
        """The finished table's winner by its places (`order`, the event's tie-break
        precedence), or None while it plays or while its top place is shared. Not the
        engine's `standing.winner`, which knows only the game's built-in tie order."""
        if not self.standing.finished or self.problem is not None or not self.order:
            return None
        first = self.order[0]
        if first.shared:
            return None
        return next((seat for seat in self.seats if seat.position == first.position), None)

    @property
    def next_number(self) -> int | None:
        """The deal to enter next (a voided one first), or None when nothing can be entered:
        the game is over, or the table needs the director."""
        if self.problem is not None:
            return None
        voided = [deal.number for deal in self.deals if deal.is_voided]
        if voided:
            return voided[0]
        if self.standing.finished:
            return None
        return (self.deals[-1].number if self.deals else 0) + 1

    def deal(self, number: int) -> Deal | None:
        return next((deal for deal in self.deals if deal.number == number), None)

    def dealer(self, number: int) -> Seat | None:
        if not self.seats:
            return None
        first = next((s.position for s in self.seats if s.is_first_dealer), 0)
        return self.seats[(first + number - 1) % len(self.seats)]

    @property
    def unconfirmed(self) -> list[Deal]:
        return [deal for deal in self.deals if not deal.is_confirmed and not deal.is_voided]

    @property
    def played(self) -> int:
        """Deals that count (voided ones do not)."""
        return sum(1 for deal in self.deals if not deal.is_voided)

    @property
    def rows(self) -> list[dict[str, Any]]:
        """One row per seat, best first: the player, the total and the place ("=1" when
        the tie-breaks leave it shared)."""
        seat_of = {seat.position: seat for seat in self.seats}
        ledger, settlement = self.standing.ledger, self.standing.settlement  # Tízlapos, Gin
        units = ledger.units if ledger else None
        eliminated = set(ledger.eliminated) if ledger else set()
        final = settlement.final if settlement and self.standing.finished else None
        return [
            {
                "seat": seat_of[place.position],
                "total": self.standing.totals[place.position],
                "place": place.place,
                "shared": place.shared,
                "units": units[place.position] if units else None,
                "out": place.position in eliminated,
                "final": final[place.position] if final else None,
            }
            for place in self.order
            if place.position in seat_of
        ]

    @property
    def has_units(self) -> bool:
        return self.standing.ledger is not None

    @property
    def has_final(self) -> bool:
        return self.standing.finished and self.standing.settlement is not None

    @property
    def payment(self) -> Payment | None:
        """Who pays whom at the end of a finished Gin Römi match: the loser pays the
        difference of the settlement's totals (`Settlement.result`); None otherwise."""
        settlement = self.standing.settlement
        if settlement is None or not self.standing.finished:
            return None
        seat_of = {seat.position: seat for seat in self.seats}
        payer, payee = seat_of.get(settlement.loser), seat_of.get(settlement.winner)
        if payer is None or payee is None:
            return None
        return Payment(payer=payer, payee=payee, amount=settlement.result)

    @property
    def restarts(self) -> list[Restart]:
        """Each Tízlapos Römi re-entry so far, by the deal it came before: its player's
        total restarted at the worst total still in (the engine's `BuliLedger.restarts`)."""
        ledger = self.standing.ledger
        if ledger is None or not ledger.restarts:
            return []
        seat_of = {seat.position: seat for seat in self.seats}
        # The engine counts the deals it scored; the sheet's own numbers skip voided ones.
        numbers = [number for number, _score in counted_rows(self)]
        return [
            Restart(seat=seat_of[restart.seat], deal=numbers[restart.deal - 1], total=restart.total)
            for restart in ledger.restarts
            if restart.seat in seat_of and restart.deal <= len(numbers)
        ]


@dataclass(frozen=True)
class Payment:
    payer: Seat
    payee: Seat
    amount: int


@dataclass(frozen=True)
class Restart:
    seat: Seat
    deal: int
    total: int


def confirmed_deals(deals: list[Deal]) -> list[Deal]:
    """The deals up to the first one still waiting for its confirmation (a voided deal
    counts for nobody, confirmed or not). The engine counts deals by their order, so a
    confirmed deal after an unconfirmed one is left off too: it cannot be scored alone."""
    for index, deal in enumerate(deals):
        if not deal.is_confirmed and not deal.is_voided:
            return deals[:index]
    return deals


class TableTieBreaks:
    """The director's recorded tie-breaks of some tables (those of one stage, or the tables
    listed), by table, read in one query when the first table's tie reaches them, and never
    otherwise."""

    def __init__(self, *, stage_id: int | None = None, table_ids: Sequence[int] = ()) -> None:
        self.where = {"stage_id": stage_id} if stage_id is not None else {"table_id__in": table_ids}
        self._by_table: dict[int, list[list[int]]] | None = None

    def of(self, table_id: int) -> list[list[int]]:
        if self._by_table is None:
            self._by_table = defaultdict(list)
            recorded = TieBreak.objects.filter(table__isnull=False, **self.where)
            for table, order in recorded.order_by("recorded_at", "pk").values_list(
                "table_id", "order"
            ):
                self._by_table[int(table)].append(list(order))
        return self._by_table.get(table_id, [])


def sheet_of(
    table: Table,
    seats: list[Seat],
    deals: list[Deal],
    variant: Any,
    confirmed_only: bool = False,
    tie_breaks: TableTieBreaks | None = None,
) -> TableSheet:
    """The sheet of `table` (its stage and event loaded) from its seats and deals, already
    read: the one way a sheet is made, so every sheet orders its places alike. Sheets of
    one stage share its `tie_breaks` (one query for them all, if any tie needs them)."""
    shown = confirmed_deals(deals) if confirmed_only else deals
    standing, problem = standing_and_problem(variant, len(seats), deal_scores(shown))
    return TableSheet(
        table,
        seats,
        shown,
        standing,
        variant,
        problem,
        len(deals) - len(shown),
        precedence=stage_precedence(table.stage),
        tie_orders=functools.partial(
            (tie_breaks or TableTieBreaks(stage_id=table.stage_id)).of, table.pk
        ),
    )


def table_sheet(*, table: Table, confirmed_only: bool = False, reload: bool = True) -> TableSheet:
    """`table`'s sheet; `confirmed_only`: its confirmed deals alone (a public page of a
    club that shows confirmed results only). `reload=False`: `table` was read with its
    stage, event and club in this request (a table's link: `table_by_key`) and is used as
    it is, one query fewer on every poll and save of a phone."""
    if reload:
        table = Table.everything.select_related("stage__event__club").get(pk=table.pk)
    seats = list(table.seats.select_related("player").order_by("position"))
    deals = list(table.deals.order_by("number"))
    return sheet_of(table, seats, deals, table.variant, confirmed_only)


def event_sheets(*, event: Event, confirmed_only: bool = False) -> list[TableSheet]:
    """Every table of the event's stage in play (seated or finished) with its standing."""
    stage = stage_in_play(event=event)
    return [] if stage is None else stage_sheets(stage=stage, confirmed_only=confirmed_only)


def stage_sheets(*, stage: Stage, confirmed_only: bool = False) -> list[TableSheet]:
    """Every table of `stage` with its standing, in three queries whatever its size;
    `confirmed_only`: from confirmed deals alone (see `confirmed_deals`)."""
    return stages_sheets([stage], confirmed_only=confirmed_only).get(stage.pk, [])


def stages_sheets(
    stages: Sequence[Stage],
    *,
    confirmed_only: bool = False,
    tables: Sequence[int] | None = None,
) -> dict[int, list[TableSheet]]:
    """Every table of `stages` (of one event, its stages loaded with it) with its standing,
    by stage id, in table order: three queries for all of them together, so a page costs
    the same after stage 8 as after stage 1. `tables`: only these (ids) of them."""
    rows = Table.objects.filter(stage__in=stages)
    if tables is not None:
        rows = rows.filter(pk__in=tables)
    tables_read = rows.order_by("stage__number", "number").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch("deals", queryset=Deal.objects.order_by("number")),
    )
    by_id = {stage.pk: stage for stage in stages}
    tie_breaks = {stage.pk: TableTieBreaks(stage_id=stage.pk) for stage in stages}
    sheets: dict[int, list[TableSheet]] = {stage.pk: [] for stage in stages}
    for table in tables_read if stages else ():
        stage = table.stage = by_id[table.stage_id]
        seats, deals = list(table.seats.all()), list(table.deals.all())
        sheets[stage.pk].append(
            sheet_of(table, seats, deals, stage.event.variant, confirmed_only, tie_breaks[stage.pk])
        )
    return sheets


def counted_rows(sheet: TableSheet, deals: int | None = None) -> Rows:
    """The (number, score) rows the sheet's standing counts: not voided, before a deal the
    table cannot be scored with, and only the first `deals` when given (mid-evening)."""
    rows = deal_scores(sheet.deals)
    if sheet.problem is not None:
        rows = [(number, score) for number, score in rows if number < sheet.problem.number]
    return rows if deals is None else rows[:deals]


def event_precedence(event: Event) -> tuple[str, ...]:
    """The event's tie-break precedence (`tournaments.engine.tiebreaks`): the director's, else the
    game's. A stored list the site no longer accepts is read as the game's default: one
    event's old setting must not break its pages."""
    try:
        return tie_break_precedence(event.tie_breaks, game=event.variant_id)
    except RuleViolation:
        return tie_break_precedence(None, game=event.variant_id)


@dataclass
class _TieFacts:
    """Per seat, what the tie-breaks read, in the deals a standing counts."""

    last: list[int]
    won: list[int]
    ravaytys: list[int]


def tie_facts(sheet: TableSheet, standing: TableStanding, deals: int | None) -> _TieFacts:
    rows = counted_rows(sheet, deals)
    seats = len(sheet.seats)
    last = [0] * seats
    if rows:
        points = rows[-1][1].points
        last = [points[seat] if seat < len(points) else 0 for seat in range(seats)]
    won_extra = standing.extra.get("deals_won")
    won = [0] * seats
    for _number, score in rows:
        out = score.flags.get("went_out")
        if isinstance(out, int) and not isinstance(out, bool) and 0 <= out < seats:
            won[out] += 1
    ravaytys = ravaytys_counts(rows, seats)
    if isinstance(won_extra, list) and len(won_extra) == seats:
        # The engine's own count (Gin Römi's deal winners, Tízlapos Römi's): what the
        # table's tie order reads.
        won = [value if isinstance(value, int) else 0 for value in won_extra]
    return _TieFacts(last=last, won=won, ravaytys=ravaytys)


def stage_precedence(stage: Stage) -> tuple[str, ...]:
    """The precedence a stage's tables and ranking follow: the one its close was decided
    by (kept with its outcome, so a later change of the event's order does not redecide a
    closed stage), else the event's."""
    outcome = stage.outcome if isinstance(stage.outcome, dict) else {}
    stored = outcome.get("precedence")
    if stored:
        try:
            return tie_break_precedence(stored, game=stage.event.variant_id)
        except RuleViolation:
            pass  # an order the site no longer accepts: the event's
    return event_precedence(stage.event)


@dataclass(frozen=True)
class SeatPlace:
    """A seat's place at its table: shared when the tie-breaks leave it level, and the
    tie-break that set it apart from the seat above (None: its result did)."""

    position: int
    place: int
    shared: bool
    decided_by: str | None


def table_order(
    sheet: TableSheet,
    *,
    precedence: Sequence[str] | None = None,
    director_orders: Orders | Callable[[], Orders] | None = None,
    standing: TableStanding | None = None,
    deals: int | None = None,
) -> list[SeatPlace]:
    """The table's places, best first (after its first `deals` deals, with that `standing`,
    when given).

    The game's own result first (the engine's order, seats of equal totals level), then
    `precedence`'s tie-breaks among the level: points in the last deal, deals won,
    räväytys, the director's record for this table (the last word, listed or not), and
    head to head, which at one table is the game's own tie order (its last resort the
    seat). None: the game's order alone. Seats still level share their place.
    """
    standing = standing or sheet.standing
    seat_of = {seat.position: seat for seat in sheet.seats}
    facts = tie_facts(sheet, standing, deals)
    sign = 1 if standing.lower_is_better else -1
    # Seats the game's own tie order could not tell apart are level head to head too: the
    # seat is no tie-break for a place that matters (who goes on, who won the table).
    unresolved: dict[int, int] = {}
    groups = standing.extra.get("tie_unresolved")
    if not counted_rows(sheet, deals):
        # Before a deal counts, the seat order is all the engine has: everyone is level.
        groups = [list(seat_of)]
    for index, tied in enumerate(groups if isinstance(groups, list) else []):
        for position in tied if isinstance(tied, list) else ():
            unresolved[position] = index
    contenders: list[Contender[int]] = []
    group, previous, engine_place, last_tie = -1, None, 0, None
    for index, position in enumerate(p for p in standing.ranking if p in seat_of):
        total = standing.totals[position]
        if total != previous:
            group, previous = group + 1, total
        tie = unresolved.get(position)
        if tie is None or tie != last_tie:
            engine_place = index + 1
        last_tie = tie
        contenders.append(
            Contender(
                player=seat_of[position].player_id,
                score=(group,),
                last_deal=sign * facts.last[position],
                deals_won=facts.won[position],
                ravaytys=facts.ravaytys[position],
                table=sheet.table.pk,
                table_place=engine_place,
            )
        )
    names = tuple(precedence) if precedence else (TOTAL, TieBreakName.HEAD_TO_HEAD)
    if TieBreakName.DIRECTOR not in names:
        # A record the director made for this table is the last word at it, whatever the
        # event's precedence lists (it is made for a tie nothing else settles).
        names = (*names, TieBreakName.DIRECTOR)
    placings = rank_by_precedence(contenders, names, director_orders or ())
    position_of = {seat.player_id: seat.position for seat in sheet.seats}
    return [
        SeatPlace(position_of[p.contender.player], p.place, p.shared, p.decided_by)
        for p in placings
    ]


def sheet_ravaytys(sheet: TableSheet) -> list[int]:
    """Per seat position, the deals its standing counts that it went out with a räväytys."""
    seats = max((seat.position + 1 for seat in sheet.seats), default=0)
    return ravaytys_counts(counted_rows(sheet), seats)


def deal_history(*, table: Table) -> dict[int, list[DealVersion]]:
    """Every version of every deal at the table, oldest first, grouped by deal number."""
    history: dict[int, list[DealVersion]] = defaultdict(list)
    versions = (
        DealVersion.objects.filter(deal__table=table)
        .select_related("deal", "by_user")
        .order_by("deal__number", "version")
    )
    for version in versions:
        history[version.deal.number].append(version)
    return dict(history)


def seat_claim_of(*, table: Table, device: str) -> SeatClaim | None:
    """The seat this phone speaks for at the table, if any."""
    return SeatClaim.objects.filter(table=table, device=device).first()


def recorded_requests(*, table: Table, device: str, last: int = 40) -> list[str]:
    """The request ids of this phone's latest saves and confirmations at the table: the page
    says them, so the phone's offline queue (static/js/offline.js) drops what has landed."""
    if not device:
        return []
    rows = DealVersion.objects.filter(deal__table=table, device=device).order_by("-pk")
    return list(rows.values_list("request_id", flat=True)[:last])


def flagged_confirmations(*, event: Event) -> list[DealVersion]:
    """Confirmations the rule of scoring.confirmation flagged for the director: from (or of
    a deal corrected from) a seat taken after the deal was first entered, or one person's."""
    return list(
        DealVersion.objects.filter(deal__table__stage__event=event, action=DealAction.CONFIRM)
        .exclude(flag="")
        .select_related("deal__table")
        .order_by("-created_at")
    )


@dataclass
class DealHead:
    """A deal's column on a sheet."""

    number: int
    confirmed: bool
    voided: bool


@dataclass
class SheetRow:
    """A seat's line on a sheet: its place, totals and one cell per deal of the sheet."""

    place: int
    seat: Seat
    player: str
    total: int
    units: int | None
    final: int | None
    out: bool
    # One per deal of `PointsMatrix.deals`, in the same order; None where a deal has no
    # points for the seat.
    points: list[int | None]
    # Deals the seat went out with a räväytys (Räväytys only).
    ravaytys: int = 0


@dataclass
class PointsMatrix:
    table: Table
    deals: list[DealHead]
    rows: list[SheetRow]
    has_units: bool
    has_final: bool
    unconfirmed: bool


def sheet_points_matrix(*, sheet: TableSheet) -> PointsMatrix:
    """A table's sheet as rows, best first, each with its cell per deal, built once.

    Each deal's points are read once per seat, by position, so the work is one step per
    cell of the sheet (seats × deals), not a search through every deal's points per cell.
    No queries: the sheet holds what it needs.
    """
    points = [deal.points if isinstance(deal.points, list) else [] for deal in sheet.deals]
    ravaytys = sheet_ravaytys(sheet)
    rows = []
    for row in sheet.rows:
        seat = row["seat"]
        position = seat.position
        rows.append(
            SheetRow(
                place=row["place"],
                seat=seat,
                player=seat.player.name,
                total=row["total"],
                units=row["units"],
                final=row["final"],
                out=row["out"],
                points=[cells[position] if position < len(cells) else None for cells in points],
                ravaytys=ravaytys[position] if position < len(ravaytys) else 0,
            )
        )
    return PointsMatrix(
        table=sheet.table,
        deals=[
            DealHead(number=deal.number, confirmed=deal.is_confirmed, voided=deal.is_voided)
            for deal in sheet.deals
        ],
        rows=rows,
        has_units=sheet.has_units,
        has_final=sheet.has_final,
        unconfirmed=bool(sheet.unconfirmed),
    )


def table_names(table: Table) -> list[str]:
    """The table's players in seat order: the engine's messages name them, not their seats."""
    return [seat.player.name for seat in table.seats.select_related("player").order_by("position")]


def open_table(*, key: str) -> Table | None:
    """The table whose link `key` takes scores now (`Table.takes_scores`)."""
    table = table_by_key(key=key)
    return table if table is not None and table.takes_scores else None


def table_by_key(*, key: str) -> Table | None:
    """The table whose link is or was `key`, whatever its stage and event (a link that no
    longer takes scores says why)."""
    return Table.everything.select_related("stage__event__club").filter(entry_key=key).first()


def earlier_stage_tables(*, event: Event) -> list[tuple[Stage, list[Table]]]:
    """The tables of each seated or finished stage before the one in play, by stage: their
    result sheets stay reachable once the next round is drawn."""
    current = stage_in_play(event=event)
    tables = (
        Table.objects.filter(
            stage__event=event, stage__status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED]
        )
        .exclude(stage=current)
        .select_related("stage")
        .order_by("stage__number", "number")
    )
    stages: dict[int, tuple[Stage, list[Table]]] = {}
    for table in tables:
        table.stage.event = event  # its label says the event's word (round, stage)
        stages.setdefault(table.stage_id, (table.stage, []))[1].append(table)
    return list(stages.values())
