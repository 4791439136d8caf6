"""Reads for score sheets and rankings. A fixed number of queries, however big the event."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch

from rules import TableStanding, game_spec
from scoring.judge import TableProblem, deal_scores, standing_and_problem
from scoring.models import Deal, DealAction, DealVersion, SeatClaim
from tournaments.models import Event, Player, RankingMode, Seat, Stage, StageStatus, Table
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
    # tables are at different deals and the event ranks by average (`by_average`), shown
    # beside the plain total.
    average: Fraction | None = field(default=None)
    by_average: bool = field(default=False)
    # The other mid-evening ranking (RankingMode.SAME_DEALS): everyone by their total after
    # the same number of deals, `after_deals`, the fewest any table has played (None while
    # the ranking goes another way); `after_total` is the player's total then.
    after_deals: int | None = field(default=None)
    after_total: int | None = field(default=None)
    # Another row has the same place (shown as "=3").
    shared: bool = field(default=False)
    # Deals the player went out with a räväytys (Räväytys only).
    ravaytys: int = field(default=0)
    # Whose record the player's name links to.
    player_id: int = field(default=0)
    club_slug: str = field(default="")
    # The place at one's own table in the ordering in use (after `after_deals` deals when
    # ranked so): it breaks a tie between players of one table as the table's tie order does.
    tie_place: int = field(default=0, repr=False)


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


def tables_at_different_deals(sheets: list[TableSheet]) -> bool:
    """Whether a plain total would mislead: some table is still playing and the tables are
    at different deals, so a plain total favours whoever has played fewer."""
    if all(sheet.standing.finished for sheet in sheets):
        return False
    return len({sheet.played for sheet in sheets}) > 1


def same_deals_count(sheets: list[TableSheet]) -> int:
    """The number of deals the SAME_DEALS ranking compares after: the fewest any table has
    played. A table that needs the director does not hold everyone back, and one yet to
    play its first deal (late arrivals) neither: its players come after the others until it
    has. Zero when no table has played."""
    started = [sheet for sheet in sheets if sheet.played]
    counted = [sheet for sheet in started if sheet.problem is None] or started
    return min((sheet.played for sheet in counted), default=0)


def _standing_after(sheet: TableSheet, deals: int) -> TableStanding:
    """The table's standing after its first `deals` deals that count, by the engine (a
    Tízlapos re-entry, say, is more than a sum of points). No queries: the sheet has them."""
    if sheet.played <= deals and sheet.problem is None:
        return sheet.standing
    rows = deal_scores(sheet.deals)[:deals]
    standing, _problem = standing_and_problem(sheet.variant, len(sheet.seats), rows)
    return standing


def event_ranking(*, event: Event, sheets: list[TableSheet] | None = None) -> list[RankingRow]:
    """All players by total with the variant's order: lower first in penalty games.

    While the tables are at different deals (`tables_at_different_deals`), the event's
    `ranking_mode` says how instead: by total per deal played (AVERAGE), or by the total
    after the same number of deals, the fewest any table has played (SAME_DEALS). Either
    way a player yet to play a deal comes after those who have, and the plain total stays
    on the row. Within an equal key, the better place at one's own table comes first (the
    table's tie order has already been applied there); players still equal share a place.
    """
    sheets = event_sheets(event=event) if sheets is None else sheets
    apart = tables_at_different_deals(sheets)
    by_average = apart and event.ranking_mode != RankingMode.SAME_DEALS
    after_deals = same_deals_count(sheets) if apart and not by_average else None
    club_slug = event.club.slug
    rows: list[RankingRow] = []
    for sheet in sheets:
        place = {seat: index + 1 for index, seat in enumerate(sheet.standing.ranking)}
        after = _standing_after(sheet, after_deals) if after_deals is not None else None
        tie_place = place if after is None else {s: i + 1 for i, s in enumerate(after.ranking)}
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
                    after_deals=after_deals,
                    after_total=(
                        after.totals[seat.position] if after is not None and played else None
                    ),
                    ravaytys=ravaytys[seat.position],
                    player_id=seat.player_id,
                    club_slug=club_slug,
                    tie_place=tie_place[seat.position],
                )
            )
    # A table that needs the director from its first deal has only an empty standing,
    # which cannot tell the game's order.
    lower_is_better = next(
        (s.standing.lower_is_better for s in sheets if s.problem is None),
        sheets[0].standing.lower_is_better if sheets else True,
    )
    sign = 1 if lower_is_better else -1

    def key(row: RankingRow) -> tuple[bool, Fraction, int]:
        if by_average:
            unplayed = row.average is None
            return (unplayed, sign * (row.average or Fraction(0)), row.tie_place)
        if after_deals is not None:
            unplayed = row.after_total is None
            return (unplayed, Fraction(sign * (row.after_total or 0)), row.tie_place)
        return (False, Fraction(sign * row.total), row.tie_place)

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


# -- a player's record ----------------------------------------------------------------------------


@dataclass
class RecordRow:
    """One event a player played (one seat: a table of a seated or finished stage)."""

    event: Event
    table: int
    place: int
    seats: int
    total: int
    deals: int
    unconfirmed: bool
    needs_director: bool
    # Deals the player went out with a räväytys; None where the game records none.
    ravaytys: int | None


@dataclass
class PlayerRecord:
    rows: list[RecordRow]
    # Events played (an event counts once, whatever its stages).
    events: int
    # Räväytys in all, and whether any of the player's games records them at all.
    ravaytys: int
    records_ravaytys: bool

    @property
    def unconfirmed(self) -> bool:
        return any(row.unconfirmed for row in self.rows)


def player_record(*, player: Player) -> PlayerRecord:
    """The events `player` has played, newest first, with their place and total at the
    table; three queries whatever the number of events (seats with their table, stage and
    event; those tables' seats; their deals)."""
    seats = (
        Seat.objects.filter(
            player=player,
            table__stage__status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED],
        )
        .select_related("table__stage__event__club")
        .prefetch_related(
            Prefetch("table__seats", queryset=Seat.objects.order_by("position")),
            Prefetch("table__deals", queryset=Deal.objects.order_by("number")),
        )
        .order_by(
            "-table__stage__event__date",
            "-table__stage__event__created_at",
            "-table__stage__event_id",
            "-table__stage__number",
        )
    )
    rows = []
    for seat in seats:
        table = seat.table
        event = table.stage.event
        variant = event.variant
        sheet = _sheet(table, list(table.seats.all()), list(table.deals.all()), variant)
        records = game_spec(variant).records_ravaytys
        rows.append(
            RecordRow(
                event=event,
                table=table.number,
                place=sheet.standing.ranking.index(seat.position) + 1,
                seats=len(sheet.seats),
                total=sheet.standing.totals[seat.position],
                deals=sheet.played,
                unconfirmed=bool(sheet.unconfirmed),
                needs_director=sheet.problem is not None,
                ravaytys=ravaytys_counts(sheet)[seat.position] if records else None,
            )
        )
    return PlayerRecord(
        rows=rows,
        events=len({row.event.pk for row in rows}),
        ravaytys=sum(row.ravaytys or 0 for row in rows),
        records_ravaytys=any(row.ravaytys is not None for row in rows),
    )
