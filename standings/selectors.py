"""Rankings of an event or a stage, and the public reads of its stages and tables. A fixed
number of queries, however big the event."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import gettext

from core.figures import per_deal_value
from core.places import place_text
from rules import TableStanding
from scoring.judge import deal_scores, standing_and_problem
from scoring.selectors import (
    TableSheet,
    event_precedence,
    event_sheets,
    sheet_ravaytys,
    stage_precedence,
    stage_sheets,
    table_order,
    tie_facts,
)
from tournaments.engine.advancement import TieBreakMethod
from tournaments.engine.tiebreaks import Contender, rank_by_precedence
from tournaments.models import (
    Event,
    RankingMode,
    Stage,
    StageStatus,
    Table,
    TieBreak,
)


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
    # Whether the name links to the record (set by standings.standings.event_standings).
    linked: bool = field(default=False)
    # The place at one's own table in the ordering in use (after `after_deals` deals when
    # ranked so): it breaks a tie between players of one table as the table's tie order does.
    tie_place: int = field(default=0, repr=False)
    # The tie-break that set the row apart from the row above (`tournaments.engine.tiebreaks`'
    # names: "total", "last_deal", ...); None for the first row and a shared place.
    decided_by: str | None = field(default=None)
    # Tízlapos Römi's units left (None in other games).
    units: int | None = field(default=None)
    # What the other formats' standings fill (`standings.standings`): a series' rounds
    # played and placement points; head to head's match wins, matches and byes (its
    # `total` the points); a championship's last stage reached, the champion, and how a
    # tie at the player's table was settled (`TieBreakMethod`, "card_draw" ...).
    rounds: int | None = field(default=None)
    points: int | None = field(default=None)
    wins: int | None = field(default=None)
    matches: int | None = field(default=None)
    byes: int | None = field(default=None)
    stage: int | None = field(default=None)
    champion: bool = field(default=False)
    tie_break: str | None = field(default=None)
    # A championship's: went on from a closed stage, then withdrew before the next was
    # played (`formats.championship.no_shows_since_close`, as the bracket marks it).
    no_show: bool = field(default=False)

    @property
    def place_label(self) -> str:
        return place_text(self.place, self.shared)

    @property
    def per_deal(self) -> float | None:
        """The points per deal as the feed and the downloads give them: 2 decimals."""
        rounded = per_deal_value(self.average)
        return None if rounded is None else float(rounded)

    @property
    def tie_break_label(self) -> str:
        """How the director settled the tie at the player's table, in words ("card draw")."""
        if self.tie_break is None:
            return ""
        return gettext(TieBreakMethod(self.tie_break).label)


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
        # The table's own places, by the same precedence (sheet.order): the page, the
        # sheets, the records and the championship's advancement all read them.
        place = {seat.position: seat.place for seat in sheet.order}
        after = _standing_after(sheet, after_deals) if after_deals is not None else None
        tie_place = place
        if after is not None:
            at_the_cut = table_order(
                sheet,
                precedence=sheet.precedence,
                director_orders=sheet.tie_orders,
                standing=after,
                deals=after_deals,
            )
            tie_place = {seat.position: seat.place for seat in at_the_cut}
        facts = tie_facts(sheet, after or sheet.standing, after_deals)
        pending = bool(sheet.unconfirmed)
        played = sheet.played
        ravaytys = sheet_ravaytys(sheet)
        ledger = sheet.standing.ledger  # Tízlapos Römi's units
        units = ledger.units if ledger else None
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
                units=units[seat.position] if units else None,
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
    precedence = stage_precedence(sheets[0].table.stage) if sheets else event_precedence(event)
    recorded = director_orders() if sheets and "director" in precedence else []
    placings = rank_by_precedence([contenders[i] for i in order], precedence, recorded)
    ranked = []
    for placing in placings:
        row = rows[placing.contender.player]
        row.place, row.shared = placing.place, placing.shared
        # A shared place was decided by nothing (docs/feeds.md: null on a shared place), though the
        # engine names what set its group apart from the row above.
        row.decided_by = None if placing.shared else placing.decided_by
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
    stages = list(
        Stage.objects.filter(
            event=event, status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED]
        ).order_by("number")
    )
    for stage in stages:
        stage.event = event  # each says its name in the event's word (`Stage.label`)
    return stages


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
