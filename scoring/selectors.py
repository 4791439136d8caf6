"""Reads for score sheets and rankings. A fixed number of queries, however big the event."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch

from core.places import place_text
from rules import RuleViolation, TableStanding
from scoring.judge import Rows, TableProblem, deal_scores, ravaytys_counts, standing_and_problem
from scoring.models import Deal, DealAction, DealVersion, SeatClaim
from tournaments.models import (
    Event,
    RankingMode,
    Seat,
    Stage,
    StageStatus,
    Table,
    TieBreak,
)
from tournaments.selectors import stage_in_play
from tournaments.tiebreaks import Contender, rank_by_precedence, tie_break_precedence


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
    # The tie-break that set the row apart from the row above (`tournaments.tiebreaks`'
    # names: "total", "last_deal", ...); None for the first row and a shared place.
    decided_by: str | None = field(default=None)

    @property
    def place_label(self) -> str:
        return place_text(self.place, self.shared)


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


def event_precedence(event: Event) -> tuple[str, ...]:
    """The event's tie-break precedence (`tournaments.tiebreaks`): the director's, else the
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


def _tie_facts(sheet: TableSheet, standing: TableStanding, deals: int | None) -> _TieFacts:
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


def event_ranking(
    *,
    event: Event,
    sheets: list[TableSheet] | None = None,
    confirmed_only: bool = False,
    tie_break_orders: Sequence[Sequence[int]] | None = None,
) -> list[RankingRow]:
    """All players by total with the variant's order: lower first in penalty games.

    While the tables are at different deals (`tables_at_different_deals`), the event's
    `ranking_mode` says how instead: by total per deal played (AVERAGE), or by the total
    after the same number of deals, the fewest any table has played (SAME_DEALS). Either
    way a player yet to play a deal comes after those who have, and the plain total stays
    on the row. Players equal on that go by the event's tie-break precedence
    (`event_precedence`: by default fewer points in the last deal, more deals won, the
    director's recorded tie-break, then the place at one's own table, where the table's
    tie order has already been applied); players still equal share a place, and each row
    says which tie-break set it apart (`decided_by`). `confirmed_only`: from the confirmed
    deals alone (when `sheets` is not given). `tie_break_orders`: the director's recorded
    tie-breaks of these sheets' stages (each an order of player ids, oldest first), when
    the caller has read them already (a season's league reads them all in one query).
    """
    if sheets is None:
        sheets = event_sheets(event=event, confirmed_only=confirmed_only)
    apart = tables_at_different_deals(sheets)
    by_average = apart and event.ranking_mode != RankingMode.SAME_DEALS
    after_deals = same_deals_count(sheets) if apart and not by_average else None
    club_slug = event.club.slug
    # A table that needs the director from its first deal has only an empty standing,
    # which cannot tell the game's order.
    lower_is_better = next(
        (s.standing.lower_is_better for s in sheets if s.problem is None),
        sheets[0].standing.lower_is_better if sheets else True,
    )
    sign = 1 if lower_is_better else -1
    rows: list[RankingRow] = []
    contenders: list[Contender[int]] = []
    for sheet in sheets:
        place = {seat: index + 1 for index, seat in enumerate(sheet.standing.ranking)}
        after = _standing_after(sheet, after_deals) if after_deals is not None else None
        tie_place = place if after is None else {s: i + 1 for i, s in enumerate(after.ranking)}
        facts = _tie_facts(sheet, after or sheet.standing, after_deals)
        pending = bool(sheet.unconfirmed)
        played = sheet.played
        ravaytys = sheet_ravaytys(sheet)
        for seat in sheet.seats:
            total = sheet.standing.totals[seat.position]
            row = RankingRow(
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
                after_total=(after.totals[seat.position] if after is not None and played else None),
                ravaytys=ravaytys[seat.position],
                player_id=seat.player_id,
                club_slug=club_slug,
                tie_place=tie_place[seat.position],
            )
            rows.append(row)
            contenders.append(
                Contender(
                    player=len(contenders),
                    score=_score(row, sign),
                    last_deal=sign * facts.last[seat.position],
                    deals_won=facts.won[seat.position],
                    ravaytys=facts.ravaytys[seat.position],
                    table=sheet.table.number,
                    table_place=row.tie_place,
                )
            )
    order = sorted(range(len(rows)), key=lambda i: (rows[i].table, rows[i].player))
    # The director's tie-breaks name players by id; a contender is its row's index.
    index_of = {rows[i].player_id: i for i in order}

    def director_orders() -> list[list[int]]:
        if tie_break_orders is None:
            stages = {sheet.table.stage_id for sheet in sheets}
            recorded = TieBreak.objects.filter(stage_id__in=stages).order_by("recorded_at", "pk")
            orders: Sequence[object] = list(recorded.values_list("order", flat=True))
        else:
            orders = tie_break_orders
        return [
            [index_of[player] for player in tied if player in index_of]
            for tied in orders
            if isinstance(tied, list | tuple)
        ]

    # Read whether a tie reaches them or not: a page takes the same queries however its
    # players stand.
    precedence = event_precedence(event)
    recorded = director_orders() if sheets and "director" in precedence else []
    placings = rank_by_precedence([contenders[i] for i in order], precedence, recorded)
    ranked = []
    for placing in placings:
        row = rows[placing.contender.player]
        row.place, row.shared, row.decided_by = placing.place, placing.shared, placing.decided_by
        ranked.append(row)
    return ranked


def _score(row: RankingRow, sign: int) -> tuple[bool, Fraction]:
    """The ranking's key before any tie-break, lower better: a player yet to play a deal
    after those who have (while the tables are at different deals)."""
    if row.by_average:
        return (row.average is None, sign * (row.average or Fraction(0)))
    if row.after_deals is not None:
        return (row.after_total is None, Fraction(sign * (row.after_total or 0)))
    return (False, Fraction(sign * row.total))


def stage_ranking(*, stage: Stage, confirmed_only: bool = False) -> list[RankingRow]:
    """One stage's standings (its tables alone), as `event_ranking` ranks an event."""
    sheets = stage_sheets(stage=stage, confirmed_only=confirmed_only)
    return event_ranking(event=stage.event, sheets=sheets)


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


# -- stage standings ------------------------------------------------------------------------------


def public_stages(*, event: Event) -> list[Stage]:
    """The event's stages whose standings are public: seated or finished (a draw still in
    preview is the director's alone), in order."""
    return list(
        Stage.objects.filter(
            event=event, status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED]
        ).order_by("number")
    )


def public_stage(*, event: Event, number: int) -> Stage | None:
    """The event's stage `number` if its standings are public (see `public_stages`)."""
    stage = (
        Stage.objects.filter(
            event=event,
            number=number,
            status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED],
        )
        .order_by("pk")
        .first()
    )
    if stage is not None:
        stage.event = event
    return stage
