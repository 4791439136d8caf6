"""Reads for score sheets and rankings. A fixed number of queries, however big the event."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch

from rules import TableStanding
from scoring.judge import TableProblem, deal_scores, standing_and_problem
from scoring.models import Deal, DealAction, DealVersion, SeatClaim
from tournaments.models import Event, Seat, Stage, StageStatus, Table
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


def _sheet(table: Table, seats: list[Seat], deals: list[Deal], variant: Any) -> TableSheet:
    standing, problem = standing_and_problem(variant, len(seats), deal_scores(deals))
    return TableSheet(table, seats, deals, standing, variant, problem)


def table_sheet(*, table: Table) -> TableSheet:
    table = Table.objects.select_related("stage__event__club").get(pk=table.pk)
    seats = list(table.seats.select_related("player").order_by("position"))
    deals = list(table.deals.order_by("number"))
    return _sheet(table, seats, deals, table.stage.event.variant)


def event_sheets(*, event: Event) -> list[TableSheet]:
    """Every table of the event's stage in play (seated or finished) with its standing."""
    stage = stage_in_play(event=event)
    return [] if stage is None else stage_sheets(stage=stage)


def stage_sheets(*, stage: Stage) -> list[TableSheet]:
    """Every table of `stage` with its standing, in three queries whatever its size."""
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
        sheets.append(_sheet(table, list(table.seats.all()), list(table.deals.all()), variant))
    return sheets


@dataclass
class RankingRow:
    place: int
    player: str
    table: int
    total: int
    deals: int
    unconfirmed: bool
    table_place: int
    finished: bool = field(default=False)
    needs_director: bool = field(default=False)
    # Total per deal played (None before the first deal); the ranking's key while the
    # tables are at different deals (`by_average`), shown beside the plain total.
    average: Fraction | None = field(default=None)
    by_average: bool = field(default=False)
    # Another row has the same place (shown as "=3").
    shared: bool = field(default=False)
    # Deals the player went out with a räväytys (Räväytys only).
    ravaytys: int = field(default=0)


def ravaytys_counts(sheet: TableSheet) -> list[int]:
    """Per seat position, the deals it went out with a räväytys (the deal's `ravaytys`
    flag with `went_out`, as the engine counts them); zeros in other games."""
    counts = [0] * max((seat.position + 1 for seat in sheet.seats), default=0)
    for deal in sheet.deals:
        flags = deal.flags if isinstance(deal.flags, dict) else {}
        out = flags.get("went_out")
        if deal.is_voided or flags.get("ravaytys") is not True or not isinstance(out, int):
            continue
        if 0 <= out < len(counts):
            counts[out] += 1
    return counts


def ranking_by_average(sheets: list[TableSheet]) -> bool:
    """Whether the ranking goes by average per deal: while some table is still playing and
    the tables are at different deals, a plain total favours whoever has played fewer."""
    if all(sheet.standing.finished for sheet in sheets):
        return False
    return len({sheet.played for sheet in sheets}) > 1


def event_ranking(*, event: Event, sheets: list[TableSheet] | None = None) -> list[RankingRow]:
    """All players by total with the variant's order: lower first in penalty games.

    While the tables are at different deals (`ranking_by_average`), by total per deal
    played instead, and a player yet to play a deal comes after those who have.
    Within an equal key, the better place at one's own table comes first (the table's
    tie order has already been applied there); players still equal share a place.
    """
    sheets = event_sheets(event=event) if sheets is None else sheets
    by_average = ranking_by_average(sheets)
    rows: list[RankingRow] = []
    for sheet in sheets:
        place = {seat: index + 1 for index, seat in enumerate(sheet.standing.ranking)}
        pending = bool(sheet.unconfirmed)
        played = sheet.played
        ravaytys = ravaytys_counts(sheet)
        for seat in sheet.seats:
            total = sheet.standing.totals[seat.position]
            rows.append(
                RankingRow(
                    place=0,
                    player=seat.player.name,
                    table=sheet.table.number,
                    total=total,
                    deals=played,
                    unconfirmed=pending,
                    table_place=place[seat.position],
                    finished=sheet.standing.finished,
                    needs_director=sheet.problem is not None,
                    average=Fraction(total, played) if played else None,
                    by_average=by_average,
                    ravaytys=ravaytys[seat.position],
                )
            )
    lower_is_better = sheets[0].standing.lower_is_better if sheets else True
    sign = 1 if lower_is_better else -1

    def key(row: RankingRow) -> tuple[bool, Fraction, int]:
        if by_average:
            unplayed = row.average is None
            return (unplayed, sign * (row.average or Fraction(0)), row.table_place)
        return (False, Fraction(sign * row.total), row.table_place)

    rows.sort(key=lambda r: (key(r), r.table, r.player))
    previous: RankingRow | None = None
    for index, row in enumerate(rows, start=1):
        if previous is not None and key(previous) == key(row):
            row.place = previous.place
            row.shared = previous.shared = True
        else:
            row.place = index
        previous = row
    return rows


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
    """Confirmations from a phone that took its seat only after the deal was entered."""
    return list(
        DealVersion.objects.filter(
            deal__table__stage__event=event,
            action=DealAction.CONFIRM,
            claimed_after_submit=True,
        )
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
    ravaytys = ravaytys_counts(sheet)
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


def public_table(*, event: Event, table_id: int) -> Table | None:
    """The event's table whose sheet is public: one of a seated or finished stage (a draw
    still in preview is the director's alone)."""
    return (
        Table.objects.select_related("stage__event__club")
        .filter(
            pk=table_id,
            stage__event=event,
            stage__status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED],
        )
        .first()
    )
