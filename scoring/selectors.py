"""Reads for score sheets: a table's deals, seats and standing. A fixed number of queries,
however big the event."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch

from rules import TableStanding
from scoring.judge import Rows, TableProblem, deal_scores, ravaytys_counts, standing_and_problem
from scoring.models import Deal, DealAction, DealVersion, SeatClaim
from tournaments.models import (
    Event,
    Seat,
    Stage,
    Table,
)
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
        """One row per seat, best first: the player, the total and the place."""
        place = {seat: index + 1 for index, seat in enumerate(self.standing.ranking)}
        ledger, settlement = self.standing.ledger, self.standing.settlement  # Tízlapos, Gin
        units = ledger.units if ledger else None
        eliminated = set(ledger.eliminated) if ledger else set()
        final = settlement.final if settlement and self.standing.finished else None
        return [
            {
                "seat": seat,
                "total": self.standing.totals[seat.position],
                "place": place[seat.position],
                "units": units[seat.position] if units else None,
                "out": seat.position in eliminated,
                "final": final[seat.position] if final else None,
            }
            for seat in sorted(self.seats, key=lambda s: place[s.position])
        ]

    @property
    def has_units(self) -> bool:
        return self.standing.ledger is not None

    @property
    def has_final(self) -> bool:
        return self.standing.finished and self.standing.settlement is not None


def confirmed_deals(deals: list[Deal]) -> list[Deal]:
    """The deals up to the first one still waiting for its confirmation (a voided deal
    counts for nobody, confirmed or not). The engine counts deals by their order, so a
    confirmed deal after an unconfirmed one is left off too: it cannot be scored alone."""
    for index, deal in enumerate(deals):
        if not deal.is_confirmed and not deal.is_voided:
            return deals[:index]
    return deals


def _sheet(
    table: Table, seats: list[Seat], deals: list[Deal], variant: Any, confirmed_only: bool = False
) -> TableSheet:
    shown = confirmed_deals(deals) if confirmed_only else deals
    standing, problem = standing_and_problem(variant, len(seats), deal_scores(shown))
    return TableSheet(table, seats, shown, standing, variant, problem, len(deals) - len(shown))


def table_sheet(*, table: Table, confirmed_only: bool = False) -> TableSheet:
    """`table`'s sheet; `confirmed_only`: its confirmed deals alone (a public page of a
    club that shows confirmed results only)."""
    table = Table.objects.select_related("stage__event__club").get(pk=table.pk)
    seats = list(table.seats.select_related("player").order_by("position"))
    deals = list(table.deals.order_by("number"))
    return _sheet(table, seats, deals, table.stage.event.variant, confirmed_only)


def event_sheets(*, event: Event, confirmed_only: bool = False) -> list[TableSheet]:
    """Every table of the event's stage in play (seated or finished) with its standing."""
    stage = stage_in_play(event=event)
    return [] if stage is None else stage_sheets(stage=stage, confirmed_only=confirmed_only)


def stage_sheets(*, stage: Stage, confirmed_only: bool = False) -> list[TableSheet]:
    """Every table of `stage` with its standing, in three queries whatever its size;
    `confirmed_only`: from confirmed deals alone (see `confirmed_deals`)."""
    tables = list(
        Table.objects.filter(stage=stage)
        .order_by("number")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch("deals", queryset=Deal.objects.order_by("number")),
        )
    )
    variant = stage.event.variant
    sheets = []
    for table in tables:
        table.stage = stage
        seats, deals = list(table.seats.all()), list(table.deals.all())
        sheets.append(_sheet(table, seats, deals, variant, confirmed_only))
    return sheets


def counted_rows(sheet: TableSheet, deals: int | None = None) -> Rows:
    """The (number, score) rows the sheet's standing counts: not voided, before a deal the
    table cannot be scored with, and only the first `deals` when given (mid-evening)."""
    rows = deal_scores(sheet.deals)
    if sheet.problem is not None:
        rows = [(number, score) for number, score in rows if number < sheet.problem.number]
    return rows if deals is None else rows[:deals]


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
