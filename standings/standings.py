"""The standings of an event, or of one of its stages: one object every output reads.

The public page's ranking, the standings PDF, the CSV and XLSX downloads, the JSON feed,
the big screen and a season's league all read `event_standings`, so they can never tell two
stories. What is ranked, and by what, is the event's format's (`FormatSpec.standings`):

* ``"tables"``: everyone of the stage in play by their result (a club night), by the event's
  ranking mode and tie-break precedence (`standings.selectors.event_ranking`);
* ``"series"``: the reseated series' cumulative standing over every round
  (`formats.series.series_standings`);
* ``"matches"``: head-to-head match wins, then points (`formats.headtohead`);
* ``"championship"``: the last stage each player reached, then their place there: the
  final ranking, champion first, once the championship is over (`championship_ranking`);
* ``"imported"``: the place and total the club's spreadsheet gave each player
  (`tournaments.models.ImportedResult`, written by `tournaments.history`).

A stage's standings (`stage`) are always its tables' ranking.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext, ngettext

from formats.championship import championship_no_shows, stored_advancement
from formats.headtohead import H2HBoard, H2HRead, h2h_event_standings
from formats.series import SeriesStandings, series_standings
from rules.games import game_spec
from scoring.models import Deal
from scoring.selectors import TableSheet, TableTieBreaks, sheet_of, stage_sheets, stages_sheets
from standings.selectors import RankingRow, event_ranking
from tournaments.engine.advancement import RankedPlayer, StagePlacing, championship_ranking
from tournaments.engine.tiebreaks import STAGE, TABLE_PLACE, TOTAL, TieBreakName, names_a_tie_break
from tournaments.models import (
    Club,
    Event,
    EventStatus,
    ImportedResult,
    Registration,
    Seat,
    Stage,
    StageStatus,
    Table,
    TieBreak,
)
from tournaments.privacy import public_record_ids
from tournaments.selectors import stage_in_play
from tournaments.visibility import confirmed_only as only_confirmed

# What a standings ranks by (`Standings.ranked_by`), and the caption that says so.
BY_TOTAL, BY_AVERAGE, BY_SAME_DEALS = "total", "average", "same_deals"
BY_SERIES_POINTS, BY_SERIES_PLACEMENT = "series_points", "series_placement"
BY_MATCH_WINS, BY_STAGE_REACHED = "match_wins", "stage_reached"
BY_IMPORTED = "imported"


@dataclass
class Standings:
    """Every player's place and figures, best first (`rows`), and what they were read from.

    `sheets`: the tables of the stage shown (the stage in play for an event), which say
    what is still being played. `champion`: the champion's row once a championship is over.
    `columns`: the optional columns any of the rows fills (the outputs show those alone).
    """

    event: Event
    stage: Stage | None
    rows: list[RankingRow]
    ranked_by: str
    sheets: list[TableSheet] = field(default_factory=list)
    after_deals: int | None = None
    # How a championship's stage in play compares its tables while they are at different
    # deals (BY_AVERAGE or BY_SAME_DEALS; None while they are not): the caption says it.
    mid_evening: str | None = None
    champion: RankingRow | None = None
    # The format's own detail, for the partials that show more than a row per player.
    series: SeriesStandings | None = None
    board: H2HBoard | None = None
    # The players whose names link to their record (tournaments.privacy.record_public).
    record_links: frozenset[int] = frozenset()
    # A championship's every seated stage's sheets by stage id, counting every deal (None
    # where they were not read so: a club showing confirmed deals alone): the bracket
    # beside the standings is drawn from them instead of reading them again.
    every_sheet: dict[int, list[TableSheet]] | None = None

    @property
    def pending(self) -> bool:
        return any(row.unconfirmed for row in self.rows)

    @property
    def withheld(self) -> bool:
        return any(sheet.withheld for sheet in self.sheets)

    @property
    def finished(self) -> bool:
        if self.stage is None and self.event.spec.knockout:
            return self.champion is not None
        return bool(self.rows) and all(row.finished for row in self.rows)

    @property
    def decided(self) -> bool:
        """Whether any row's place was set by a tie-break (the column is shown then)."""
        return any(names_a_tie_break(row.decided_by) for row in self.rows)

    @property
    def columns(self) -> frozenset[str]:
        """The optional columns some row fills: "table", "deals", "average", "after_total",
        "ravaytys", "units", "rounds", "points", "wins", "matches", "byes", "stage"."""
        shown = set()
        for name in OPTIONAL_COLUMNS:
            if any(_filled(name, getattr(row, name)) for row in self.rows):
                shown.add(name)
        if self.ranked_by != BY_AVERAGE:
            shown.discard("average")
        return frozenset(shown)

    @property
    def caption(self) -> str:
        caption = standings_caption(self.ranked_by, self.after_deals)
        if self.mid_evening is None:
            return caption
        return f"{caption} {mid_evening_caption(self.mid_evening, self.after_deals)}"

    @property
    def records_ravaytys(self) -> bool:
        """Whether the event's game records a räväytys (its downloads count them, none too)."""
        return game_spec(self.event.variant).records_ravaytys


# The row fields only some standings fill (None, or a blank 0, where they do not).
OPTIONAL_COLUMNS = (
    "table",
    "deals",
    "average",
    "after_total",
    "ravaytys",
    "units",
    "rounds",
    "points",
    "wins",
    "matches",
    "byes",
    "stage",
)


def _filled(name: str, value: object) -> bool:
    # A game that keeps units (Tízlapos Römi) has them from the start, none too.
    if name == "units":
        return value is not None
    return value is not None and value != 0


def standings_caption(ranked_by: str, after_deals: int | None = None) -> str:
    """Which ordering the standings are in, in words (the page's caption, the PDF's)."""
    if ranked_by == BY_AVERAGE:
        return gettext("Ranked by points per deal while the tables are at different deals.")
    if ranked_by == BY_SAME_DEALS and after_deals is not None:
        return ngettext(
            "Ranked by points after %(count)d deal, the fewest any table has played.",
            "Ranked by points after %(count)d deals, the fewest any table has played.",
            after_deals,
        ) % {"count": after_deals}
    if ranked_by == BY_SERIES_POINTS:
        return gettext("Ranked by the rounds' points added up; more rounds played come first.")
    if ranked_by == BY_SERIES_PLACEMENT:
        return gettext("Ranked by placement points over the rounds.")
    if ranked_by == BY_MATCH_WINS:
        return gettext("Ranked by matches won, then points.")
    if ranked_by == BY_STAGE_REACHED:
        return gettext("Ranked by the last stage each player reached, then their place there.")
    if ranked_by == BY_IMPORTED:
        return gettext("Imported results: the places and totals as the club recorded them.")
    return gettext("Ranked by total points.")


def mid_evening_caption(mode: str, after_deals: int | None) -> str:
    """How a stage in play compares places across tables at different deals, in words."""
    if mode == BY_SAME_DEALS and after_deals is not None:
        return ngettext(
            "While the tables are at different deals, places compare by points after %(count)d "
            "deal, and players yet to play a deal come last.",
            "While the tables are at different deals, places compare by points after %(count)d "
            "deals, and players yet to play a deal come last.",
            after_deals,
        ) % {"count": after_deals}
    return gettext(
        "While the tables are at different deals, places compare by points per deal, and "
        "players yet to play a deal come last."
    )


def event_standings(
    *, event: Event, stage: Stage | None = None, confirmed_only: bool | None = None
) -> Standings:
    """The standings of `event` (or of its `stage`) as every output shows them; from
    confirmed deals alone where the club shows only those (`confirmed_only` None: the
    club's setting). A fixed number of queries however big the event."""
    standings = _event_standings(event, stage, confirmed_only)
    # Whose names link to a record: one rule (tournaments.privacy), one query.
    links = public_record_ids(club=event.club, player_ids=(r.player_id for r in standings.rows))
    standings.record_links = frozenset(links)
    for row in standings.rows:
        row.linked = row.player_id in links
    return standings


def _event_standings(event: Event, stage: Stage | None, confirmed_only: bool | None) -> Standings:
    if confirmed_only is None:
        confirmed_only = only_confirmed(club=event.club)
    if stage is not None:
        stage.event = event
        return _tables(event, stage, stage_sheets(stage=stage, confirmed_only=confirmed_only))
    kind = event.spec.standings
    if kind == "series":
        return _series(event)
    if kind == "matches":
        return _matches(event)
    if kind == "championship":
        return _championship(event, confirmed_only)
    if kind == "imported":
        return _imported(event)
    shown = stage_in_play(event=event)
    if shown is not None:
        shown.event = event
    sheets = [] if shown is None else stage_sheets(stage=shown, confirmed_only=confirmed_only)
    return _tables(event, shown, sheets)


@dataclass
class _Read:
    """What the standings of many events are computed from, read for all of them at once
    (`events_standings`)."""

    # Every stage by event id, oldest first (each with its event).
    stages: dict[int, list[Stage]]
    # The seated stages' sheets by stage id: as the public pages show them (`shown`:
    # confirmed deals alone where the club says so), and of every deal (a series' and a
    # head-to-head's standings count every deal, as their own pages do).
    shown: dict[int, list[TableSheet]]
    every_deal: dict[int, list[TableSheet]]
    # The director's recorded tie-breaks by stage id, oldest first.
    orders: dict[int, list[list[int]]]
    # Head to head's registrations by event id: (player, name, status).
    registrations: dict[int, list[tuple[int, str, str]]]
    imported: dict[int, list[ImportedResult]]

    def seated(self, event: Event) -> list[Stage]:
        return [s for s in self.stages.get(event.pk, []) if s.status in SEATED_STATUSES]

    def no_shows(self, event: Event, stages: list[Stage]) -> frozenset[int]:
        # Only a mark on a row (who went on and withdrew since): never a place or a total,
        # which is all a read of many events is for; a finished championship has none.
        return frozenset()


SEATED_STATUSES = (StageStatus.CONFIRMED, StageStatus.FINISHED)


def events_standings(*, events: Sequence[Event], confirmed_only: bool) -> dict[int, Standings]:
    """The standings of many events at once (a player's record shows each event's place
    and total as its standings give them), by event id: each what `event_standings` gives
    its outputs, in a fixed number of queries however many events (stages, tables, seats,
    deals, tie-breaks, registrations, imported results)."""
    events = list(events)
    if not events:
        return {}
    by_id = {event.pk: event for event in events}
    # Every row links to its club's address: the clubs not at hand, in one query.
    unread = {e.club_id for e in events if not Event.club.is_cached(e)}  # type: ignore[attr-defined]
    if unread:
        clubs = Club.objects.in_bulk(unread)
        for event in events:
            if event.club_id in clubs:
                event.club = clubs[event.club_id]
    stages: dict[int, list[Stage]] = {event.pk: [] for event in events}
    for stage in Stage.objects.filter(event__in=events).order_by("event_id", "number"):
        stage.event = by_id[stage.event_id]
        stages[stage.event_id].append(stage)
    seated = [
        s for event_stages in stages.values() for s in event_stages if s.status in SEATED_STATUSES
    ]
    shown, every_deal = _sheets_both_ways(seated, confirmed_only)
    orders: dict[int, list[list[int]]] = defaultdict(list)
    for stage_id, order in (
        TieBreak.objects.filter(stage__in=seated)
        .order_by("recorded_at", "pk")
        .values_list("stage_id", "order")
    ):
        if isinstance(order, list):
            orders[stage_id].append(list(order))
    paired = [event for event in events if event.spec.standings == "matches"]
    registrations: dict[int, list[tuple[int, str, str]]] = defaultdict(list)
    if paired:
        for event_id, player, name, status in Registration.objects.filter(
            event__in=paired
        ).values_list("event_id", "player_id", "player__name", "status"):
            registrations[event_id].append((player, name, status))
    imported = [event for event in events if event.spec.imported]
    read = _Read(
        stages=stages,
        shown=shown,
        every_deal=every_deal,
        orders=orders,
        registrations=registrations,
        imported=_imported_results(imported) if imported else {},
    )
    return {event.pk: _standings_of(event, read, confirmed_only) for event in events}


def _sheets_both_ways(
    stages: list[Stage], confirmed_only: bool
) -> tuple[dict[int, list[TableSheet]], dict[int, list[TableSheet]]]:
    """The sheets of `stages` (of many events) by stage id, as shown and of every deal, in
    three queries; the tables' own tie-breaks in one more, if any tie needs them."""
    shown: dict[int, list[TableSheet]] = {stage.pk: [] for stage in stages}
    every_deal: dict[int, list[TableSheet]] = {stage.pk: [] for stage in stages}
    if not stages:
        return shown, every_deal
    by_id = {stage.pk: stage for stage in stages}
    tables = list(
        Table.objects.filter(stage__in=stages)
        .order_by("stage__number", "number")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch("deals", queryset=Deal.objects.order_by("number")),
        )
    )
    # One read of the tables' recorded tie-breaks for every stage's (only if a tie asks).
    tie_breaks = TableTieBreaks(table_ids=[table.pk for table in tables])
    for table in tables:
        stage = table.stage = by_id[table.stage_id]
        seats, deals = list(table.seats.all()), list(table.deals.all())
        variant = stage.event.variant
        every_deal[stage.pk].append(sheet_of(table, seats, deals, variant, False, tie_breaks))
        shown[stage.pk].append(
            sheet_of(table, seats, deals, variant, confirmed_only, tie_breaks)
            if confirmed_only
            else every_deal[stage.pk][-1]
        )
    return shown, every_deal


def _standings_of(event: Event, read: _Read, confirmed_only: bool) -> Standings:
    kind = event.spec.standings
    if kind == "imported":
        return _imported(event, read)
    if kind == "series":
        return _series(event, read)
    if kind == "matches":
        return _matches(event, read)
    if kind == "championship":
        return _championship(event, confirmed_only, read)
    seated = read.seated(event)
    shown = seated[-1] if seated else None
    sheets = [] if shown is None else read.shown.get(shown.pk, [])
    orders = None if shown is None else read.orders.get(shown.pk, [])
    return _tables(event, shown, sheets, orders)


def _tables(
    event: Event,
    stage: Stage | None,
    sheets: list[TableSheet],
    tie_break_orders: list[list[int]] | None = None,
) -> Standings:
    rows = event_ranking(event=event, sheets=sheets, tie_break_orders=tie_break_orders)
    first = rows[0] if rows else None
    ranked_by = BY_TOTAL
    if first is not None and first.by_average:
        ranked_by = BY_AVERAGE
    elif first is not None and first.after_deals is not None:
        ranked_by = BY_SAME_DEALS
    return Standings(
        event=event,
        stage=stage,
        rows=rows,
        ranked_by=ranked_by,
        sheets=sheets,
        after_deals=first.after_deals if first is not None else None,
    )


def _series(event: Event, read: _Read | None = None) -> Standings:
    series = (
        series_standings(event=event)
        if read is None
        else series_standings(event=event, stages=read.seated(event), sheets=read.every_deal)
    )
    club = event.club.slug
    rounds = series.rounds
    over = len(rounds) >= series.of_rounds and all(r.finished for r in rounds)
    rows = []
    for line in series.rows:
        played = [cell for cell in line.cells if cell is not None and cell.played]
        last = next((cell for cell in reversed(line.cells) if cell is not None), None)
        rows.append(
            RankingRow(
                place=line.place,
                shared=line.shared,
                player=line.player,
                player_id=line.player_id,
                club_slug=club,
                table=last.table if last is not None else 0,
                total=line.total,
                deals=sum(cell.played for cell in played),
                unconfirmed=any(cell.unconfirmed for cell in played),
                table_place=last.place if last is not None else 0,
                finished=over,
                rounds=line.rounds_played,
                ravaytys=sum(cell.ravaytys for cell in played),
                points=line.score if series.by_placement else None,
            )
        )
    ranked_by = BY_SERIES_PLACEMENT if series.by_placement else BY_SERIES_POINTS
    return Standings(event=event, stage=None, rows=rows, ranked_by=ranked_by, series=series)


def _matches(event: Event, read: _Read | None = None) -> Standings:
    board = h2h_event_standings(
        event=event,
        read=None
        if read is None
        else H2HRead(
            read.stages.get(event.pk, []), read.every_deal, read.registrations.get(event.pk, [])
        ),
    )
    club = event.club.slug
    rows = []
    for line in board.rows:
        standing = line.standing
        cells = [cell for column in line.cells for cell in column]
        rows.append(
            RankingRow(
                place=standing.place,
                shared=standing.shared,
                player=line.name,
                player_id=standing.player,
                club_slug=club,
                table=0,
                total=standing.points,
                deals=0,
                unconfirmed=any(cell.unconfirmed for cell in cells),
                table_place=0,
                finished=event.status == EventStatus.FINISHED,
                wins=standing.wins,
                matches=standing.played,
                byes=standing.byes,
                # Wins are the ranking's figure; points and the meeting are its tie-breaks.
                decided_by=(
                    None
                    if standing.shared or standing.tiebreak in (None, "wins")
                    else standing.tiebreak
                ),
            )
        )
    return Standings(event=event, stage=None, rows=rows, ranked_by=BY_MATCH_WINS, board=board)


def _imported_results(events: Sequence[Event]) -> dict[int, list[ImportedResult]]:
    found: dict[int, list[ImportedResult]] = {event.pk: [] for event in events}
    for result in (
        ImportedResult.objects.filter(event__in=list(events))
        .select_related("player")
        .only("event_id", "place", "total", "stage", "player_id", "player__name")
        .order_by("event_id", "place", "player__name", "pk")
    ):
        found[result.event_id].append(result)
    return found


def _imported(event: Event, read: _Read | None = None) -> Standings:
    """The imported ranking, place by place (one query): no tables, no deals."""
    results = (_imported_results([event]) if read is None else read.imported)[event.pk]
    places = [result.place for result in results]
    club = event.club.slug
    rows = [
        RankingRow(
            place=result.place,
            shared=places.count(result.place) > 1,
            player=result.player.name,
            player_id=result.player_id,
            club_slug=club,
            table=0,
            total=result.total_number,  # type: ignore[arg-type]  # decimals where the file had
            deals=0,
            unconfirmed=False,
            table_place=0,
            finished=True,
            stage=result.stage,
        )
        for result in results
    ]
    return Standings(event=event, stage=None, rows=rows, ranked_by=BY_IMPORTED)


def _championship(event: Event, confirmed_only: bool, read: _Read | None = None) -> Standings:
    """Every player of the championship: the champion first once there is one, then by the
    last stage each reached, then by their place there (a closed stage as it was closed,
    the stage in play as it stands). With `read`: from what was read for many events."""
    orders: dict[int, list[list[int]]] = defaultdict(list)
    if read is None:
        stages = list(
            event.stages.filter(status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED]).order_by(
                "number"
            )
        )
        sheets = stages_sheets(stages, confirmed_only=confirmed_only)
        recorded = TieBreak.objects.filter(stage__in=stages).order_by("recorded_at", "pk")
        for stage_id, order in recorded.values_list("stage_id", "order"):
            orders[stage_id].append(list(order))
    else:
        stages = read.seated(event)
        sheets = read.shown
        orders.update(read.orders)
    live: dict[tuple[int, int], RankingRow] = {}
    # How the director settled a tie that placed a player (every player it ordered), as the
    # closed stage keeps it.
    settled: dict[tuple[int, int], str] = {}
    rankings: list[list[list[StagePlacing[int]]]] = []
    champion = None
    mid_evening, after_deals = None, None
    # Who went on from a closed stage and has withdrawn since (the bracket says so too).
    absent = (
        championship_no_shows(
            event=event, closed=[stage for stage in stages if stage.status == StageStatus.FINISHED]
        )
        if read is None
        else read.no_shows(event, stages)
    )
    for stage in stages:
        stage_rows = event_ranking(
            event=event, sheets=sheets[stage.pk], tie_break_orders=orders[stage.pk]
        )
        live.update({(stage.number, row.player_id): row for row in stage_rows})
        outcome = stage.outcome if isinstance(stage.outcome, dict) else {}
        for decided in (*outcome.get("advancers", []), *outcome.get("eliminated", [])):
            tie = decided.get("tie_break")
            if isinstance(tie, dict):
                for player in (decided["player"], *tie.get("order", [])):
                    settled[(stage.number, player)] = tie["method"]
        if outcome.get("ranking"):
            closed = stored_advancement(outcome)
            rankings.append([list(group) for group in closed.ranking])
            champion = closed.champion if closed.over else None
        else:
            rankings.append(_placings(stage_rows))
            first = stage_rows[0] if stage_rows else None
            if first is not None and (first.by_average or first.after_deals is not None):
                mid_evening = BY_AVERAGE if first.by_average else BY_SAME_DEALS
                after_deals = first.after_deals
    # How each player's place at their table was set apart from the seat above there.
    at_table: dict[tuple[int, int], str | None] = {}
    for stage in stages:
        for sheet in sheets[stage.pk]:
            player_at = {seat.position: seat.player_id for seat in sheet.seats}
            for seat in sheet.order:
                at_table[(stage.number, player_at[seat.position])] = seat.decided_by
    club = event.club.slug
    rows = []
    champion_row = None
    above: RankedPlayer[int] | None = None
    for ranked in championship_ranking(rankings, champion):
        number = stages[ranked.stage - 1].number
        played = live.get((number, ranked.player))
        decided_by = _final_decided_by(ranked, above, at_table.get((number, ranked.player)))
        above = ranked
        row = RankingRow(
            place=ranked.place,
            shared=ranked.shared,
            # The name as it is now (a closed stage keeps the one it was closed with).
            player=played.player if played else ranked.placing.name,
            player_id=ranked.player,
            club_slug=club,
            table=ranked.placing.table,
            total=played.total if played else 0,
            deals=played.deals if played else 0,
            unconfirmed=bool(played and played.unconfirmed),
            table_place=ranked.placing.place,
            finished=champion is not None,
            ravaytys=played.ravaytys if played else 0,
            units=played.units if played else None,
            stage=number,
            champion=ranked.champion,
            decided_by=decided_by,
            tie_break=settled.get((number, ranked.player)),
            no_show=ranked.player in absent,
        )
        rows.append(row)
        if ranked.champion:
            champion_row = row
    in_play = sheets[stages[-1].pk] if stages else []
    return Standings(
        event=event,
        stage=None,
        rows=rows,
        ranked_by=BY_STAGE_REACHED,
        sheets=in_play,
        champion=champion_row,
        mid_evening=mid_evening,
        after_deals=after_deals,
        every_sheet=sheets if read is None and not confirmed_only else None,
    )


def _final_decided_by(
    ranked: RankedPlayer[int], above: RankedPlayer[int] | None, at_table: str | None
) -> str | None:
    """What set a row of a championship's ranking apart from the row `above`, by what the
    ranking compares (`championship_ranking`): the stage reached, then the stage's ranking
    (the place at one's table, the total, the director's stage tie-break). Of two players
    of one table, what set their places apart there (`at_table`). None for the first row
    and a shared place, as in every ranking."""
    if above is None or ranked.shared:
        return None
    if ranked.stage != above.stage:
        return STAGE
    here, there = ranked.placing, above.placing
    if here.place != there.place:
        return (at_table or TOTAL) if here.table == there.table else TABLE_PLACE
    if here.key != there.key:
        return TOTAL
    return TieBreakName.DIRECTOR.value


def _placings(rows: list[RankingRow]) -> list[list[StagePlacing[int]]]:
    """A stage in play's ranking as a closed one keeps it: by the place at one's table,
    then the stage's ranking (by the event's ranking mode while the tables are at different
    deals); equal on both, a group."""
    # A player yet to play a deal has no place at the table (all there are level): after
    # everyone who has, as the stage's own ranking puts them.
    groups: dict[tuple[bool, int, int], list[StagePlacing[int]]] = {}
    for row in sorted(rows, key=lambda r: (not r.deals, r.table_place, r.place)):
        placing = StagePlacing(
            player=row.player_id,
            name=row.player,
            key=(float(row.total),),
            table=row.table,
            place=row.table_place,
            shared=row.shared,
        )
        groups.setdefault((not row.deals, row.table_place, row.place), []).append(placing)
    return list(groups.values())


def row_figures(row: RankingRow) -> dict[str, Any]:
    """A row's place and figures as plain values: what every output compares equal (the
    test of every format × output reads them)."""
    return {
        "place": row.place,
        "shared": row.shared,
        "player_id": row.player_id,
        "total": row.total,
        "wins": row.wins,
        "points": row.points,
        "stage": row.stage,
        "champion": row.champion,
    }
