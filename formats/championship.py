"""The table-winner championship on the site: closing a stage, its tie-breaks, the bracket.

The rules of who goes on are :mod:`tournaments.engine.advancement`'s pure functions; this module
loads a stage's score sheets and the director's recorded tie-breaks, turns them into
:class:`~tournaments.engine.advancement.StageTable` values, and stores what closing the stage
decided (``Stage.outcome``), so that a later correction of a score never silently changes
who went on. It lives in ``scoring`` because closing a stage needs the scores.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language, gettext

from core.conditional import cache_get, cache_set
from core.db import locked_write
from core.i18n import violation_text
from core.places import place_text
from formats.finish import event_finish
from rules import RuleViolation
from rules.i18n import _
from scoring.selectors import (
    TableSheet,
    stage_precedence,
    stage_sheets,
    stages_sheets,
    tie_facts,
)
from tournaments.changes import results_change
from tournaments.engine.advancement import (
    Advancement,
    Outcome,
    PendingTie,
    RankedPlayer,
    Reason,
    StagePlacing,
    StageTable,
    TablePlayer,
    TieBreak,
    TieBreakMethod,
    advance,
    final_ranking,
    next_stage,
    pending_ties,
)
from tournaments.engine.draw import TableBounds
from tournaments.engine.tiebreaks import TieBreakName, names_a_tie_break, tie_break_short_label
from tournaments.models import (
    PLACE_HOLDING,
    Event,
    EventStatus,
    Registration,
    Role,
    Seat,
    Stage,
    StageStatus,
    Table,
)
from tournaments.models import TieBreak as TieBreakRow
from tournaments.permissions import club_allows
from tournaments.selectors import stage_bounds, stage_is_frozen
from tournaments.services import stage_tables_create

Key = tuple[float, ...]


# -- reading a stage ----------------------------------------------------------------------------


def _options(stage: Stage) -> dict[str, Any]:
    """`advance()`'s options as the stage was drawn with them."""
    stored = stage.format or {}
    return {
        "top_k": int(stored.get("top_k", 1)),
        "lucky_losers": bool(stored.get("lucky_losers", False)),
        "bounds": stage_bounds(stage=stage),
    }


def _keys(sheet: TableSheet) -> list[Key]:
    """Each seat's result for comparing players of different tables, lower better: the
    total, then the numeric tie-breaks of the stage's precedence in its order (points in
    the last deal, deals won, räväytys), so that players the precedence leaves level have
    equal keys. The director's records and head to head tell apart only players of one
    table: they are in the table's order (`sheet.order`), not here."""
    standing = sheet.standing
    sign = 1 if standing.lower_is_better else -1
    facts = tie_facts(sheet, standing, None)
    keys: list[Key] = []
    for seat, total in enumerate(standing.totals):
        key: list[float] = [sign * total]
        for name in sheet.precedence or ():
            if name == "last_deal":
                key.append(sign * facts.last[seat])
            elif name == "deals_won":
                key.append(-facts.won[seat])
            elif name == "ravaytys":
                key.append(-facts.ravaytys[seat])
        keys.append(tuple(key))
    return keys


def stage_table(sheet: TableSheet) -> StageTable[int]:
    """A finished table as the advancement reads it: its players in the table's one order
    (`sheet.order`: the stage's precedence, the director's records), players the order
    leaves level sharing a place, each with their key for the stage's ranking."""
    keys = _keys(sheet)
    seat_of = {seat.position: seat for seat in sheet.seats}
    places: list[list[TablePlayer[int]]] = []
    previous: int | None = None
    for place in sheet.order:
        seat = seat_of[place.position]
        entry = TablePlayer(seat.player_id, seat.player.name, keys[place.position])
        if places and place.place == previous and places[-1][0].key == entry.key:
            places[-1].append(entry)
        else:
            places.append([entry])
        previous = place.place
    return StageTable(sheet.table.number, tuple(tuple(group) for group in places))


def _with_records(
    advancement: Advancement[int],
    sheets: Sequence[TableSheet],
    records: Mapping[int, Sequence[TieBreak[int]]],
) -> Advancement[int]:
    """`advancement` with each outcome that a director's record at its table decided
    carrying that record (its method and note: "card draw"), for the bracket and the
    manage page to say how the tie was settled."""
    decided: dict[int, TieBreak[int]] = {}
    for sheet in sheets:
        position_player = {seat.position: seat.player_id for seat in sheet.seats}
        for place in sheet.order:
            if place.decided_by != TieBreakName.DIRECTOR:
                continue
            player = position_player[place.position]
            for record in reversed(records.get(sheet.table.pk, ())):
                if player in record.order:
                    # The place above was set apart by the same record: both say so.
                    for other in record.order:
                        decided.setdefault(other, record)
                    break

    def marked(outcomes: Sequence[Outcome[int]]) -> tuple[Outcome[int], ...]:
        return tuple(
            replace(outcome, tie_break=outcome.tie_break or decided.get(outcome.placing.player))
            for outcome in outcomes
        )

    return replace(
        advancement,
        advancers=marked(advancement.advancers),
        eliminated=marked(advancement.eliminated),
    )


def _tie_break(row: TieBreakRow) -> TieBreak[int]:
    return TieBreak(TieBreakMethod(row.method), tuple(row.order), row.note)


def _sheet_refusal(sheets: Sequence[TableSheet]) -> RuleViolation | None:
    """Why the stage cannot be judged yet: a table still playing, needing the director,
    or with deals to confirm. The one rule for the preview and the close."""
    if not sheets:
        return RuleViolation(_("This stage has no tables."), code="stage_empty")
    for sheet in sheets:
        if sheet.problem is not None:
            return RuleViolation(
                _("Table %(table)d needs the director: correct or void its deal first."),
                code="table_needs_director",
                table=sheet.table.number,
            )
        if not sheet.standing.finished:
            return RuleViolation(
                _("Table %(table)d has not finished its game yet."),
                code="table_not_finished",
                table=sheet.table.number,
            )
        if sheet.unconfirmed:
            return RuleViolation(
                _("Table %(table)d has deals to confirm."),
                code="table_unconfirmed",
                table=sheet.table.number,
            )
    return None


@dataclass
class CloseState:
    """What closing `stage` would decide now: the advancement, or why not (and the ties
    the director must settle first, each with the table to record it on)."""

    stage: Stage
    sheets: list[TableSheet]
    advancement: Advancement[int] | None = None
    refusal: RuleViolation | None = None
    ties: list[tuple[PendingTie[int], Table | None]] = field(default_factory=list)
    tie_breaks: list[TieBreakRow] = field(default_factory=list)
    # Who it was judged without (withdrawn since the stage was played).
    no_shows: frozenset[int] = frozenset()


def _close_state(stage: Stage, no_shows: frozenset[int] | None = None) -> CloseState:
    """Six queries whatever the stage's size: its tables, seats and deals, its tie-breaks
    and who has withdrawn (one fewer when `no_shows` says who, as for a closed stage)."""
    sheets = stage_sheets(stage=stage)
    state = CloseState(stage=stage, sheets=sheets)
    state.refusal = _sheet_refusal(sheets)
    if state.refusal is not None:
        return state
    rows = list(TieBreakRow.objects.filter(stage=stage).order_by("recorded_at", "pk"))
    state.tie_breaks = rows
    by_table: dict[int, list[TieBreak[int]]] = {}
    for row in rows:
        if row.table_id is not None:
            by_table.setdefault(row.table_id, []).append(_tie_break(row))
    for sheet in sheets:
        if not sheet.standing.finished:
            raise RuleViolation(
                _("Table %(table)d has not finished its game yet."),
                code="table_not_finished",
                table=sheet.table.number,
            )
    # Each table in its one order: the director's records for a table are applied there
    # (sheet.order), and said on the outcomes they decided (`_with_records`).
    tables = [stage_table(sheet) for sheet in sheets]
    options = _options(stage)
    # A player withdrawn since the stage was played will not play on: if they would have
    # gone on, the next in their table's order takes the place (shown as such).
    options["no_shows"] = (
        no_shows
        if no_shows is not None
        else frozenset(
            Registration.objects.filter(
                event_id=stage.event_id,
                player__seats__table__stage=stage,
            )
            .exclude(status__in=PLACE_HOLDING)
            .values_list("player_id", flat=True)
        )
    )
    state.no_shows = options["no_shows"]
    stage_ties = [_tie_break(row) for row in rows if row.table_id is None]
    numbered = {sheet.table.number: sheet.table for sheet in sheets}
    try:
        ties = pending_ties(tables, stage_tie_breaks=stage_ties, **options)
        state.ties = [(tie, numbered.get(tie.table) if tie.table else None) for tie in ties]
        advancement = advance(tables, stage_tie_breaks=stage_ties, **options)
        state.advancement = _with_records(advancement, sheets, by_table)
    except RuleViolation as error:
        state.refusal = error
    return state


def championship_close_state(*, stage: Stage) -> CloseState:
    """The manage page's "Close stage N": the preview, or the refusal and the ties."""
    return _close_state(stage)


def championship_close_preview(*, stage: Stage) -> Advancement[int] | RuleViolation:
    """Who would go on from `stage` and why, or why the stage cannot close yet (a table
    unfinished, unconfirmed or needing the director; a tie the cut runs through)."""
    state = _close_state(stage)
    if state.advancement is not None:
        return state.advancement
    assert state.refusal is not None
    return state.refusal


def championship_stage_to_close(*, event: Event) -> Stage | None:
    """The stage the director closes next: the newest one, once it is seated."""
    if not event.spec.knockout:
        return None
    stage = event.stages.order_by("-number").first()
    if stage is None or stage.status != StageStatus.CONFIRMED:
        return None
    stage.event = event
    return stage


# -- writes -------------------------------------------------------------------------------------


def _refuse_unless_director(event: Event, by: User | AnonymousUser) -> None:
    if not club_allows(club=event.club, user=by, role=Role.DIRECTOR):
        raise PermissionDenied


def tie_break_record(
    *,
    table: Table | None,
    method: str,
    order: Sequence[int],
    note: str,
    by: User | AnonymousUser,
    stage: Stage | None = None,
) -> TieBreakRow:
    """Record how the director settled a tie the cut runs through: at `table`, or (with no
    table) at `stage`'s lucky losers' cut. `order` lists the tied players, best first, and
    must be exactly the players of one pending tie."""
    if table is not None:
        stage = Stage.objects.select_related("event__club").get(pk=table.stage_id)
    if stage is None:
        raise ValueError("a tie-break is recorded on a table or a stage")
    _refuse_unless_director(stage.event, by)
    return tie_break_save(stage=stage, table=table, method=method, order=order, note=note, by=by)


def tie_break_save(
    *,
    stage: Stage,
    table: Table | None,
    method: str,
    order: Sequence[int],
    note: str,
    by: User | AnonymousUser | None,
) -> TieBreakRow:
    """Store how a pending tie of `stage` was settled, once it is checked to be one: the
    director's record (`tie_break_record`), or a play-off table's confirmed deal
    (formats.playoffs), which needs no director's hand."""
    state = _close_state(stage)
    number = table.number if table is not None else None
    order = [int(player) for player in order]
    for tie, _table in state.ties:
        if tie.table != number:
            continue
        tied = [placing.player for placing in tie.players]
        if len(order) == len(set(order)) and sorted(order) == sorted(tied):
            row = TieBreakRow.objects.create(
                stage=stage,
                table=table,
                method=TieBreakMethod(method).value,
                order=order,
                note=note.strip(),
                recorded_by=by if isinstance(by, User) else None,
            )
            table_id = table.pk if table is not None else None
            results_change(event_id=stage.event_id, table_id=table_id, reason="settings")
            return row
        raise RuleViolation(
            _("List each of %(players)s once, best first."),
            code="tie_break_order",
            players=tie.names,
        )
    raise RuleViolation(
        _("There is no tie to settle there (any more): look at the stage again."),
        code="tie_break_no_tie",
    )


def _placing_json(placing: StagePlacing[int]) -> dict[str, Any]:
    return {
        "player": placing.player,
        "name": placing.name,
        "key": list(placing.key),
        "table": placing.table,
        "place": placing.place,
        "shared": placing.shared,
    }


def _tie_json(tie_break: TieBreak[int] | None) -> dict[str, Any] | None:
    if tie_break is None:
        return None
    return {
        "method": tie_break.method.value,
        "order": list(tie_break.order),
        "note": tie_break.note,
    }


def _outcome_json(outcome: Outcome[int], lucky: bool) -> dict[str, Any]:
    return {
        **_placing_json(outcome.placing),
        "advances": outcome.advances,
        "reason": outcome.reason.value,
        "tie_break": _tie_json(outcome.tie_break),
        "replaces": [[entry.player, entry.name] for entry in outcome.replaces],
        "lucky_loser": lucky,
    }


def outcome_json(advancement: Advancement[int]) -> dict[str, Any]:
    """What `Stage.outcome` keeps: every player's outcome, the stage ranking, the champion."""
    return {
        "advancers": [
            _outcome_json(o, o.reason is Reason.LUCKY_LOSER) for o in advancement.advancers
        ],
        "eliminated": [_outcome_json(o, False) for o in advancement.eliminated],
        "ranking": [[_placing_json(p) for p in group] for group in advancement.ranking],
        "champion": advancement.champion,
        "next_sizes": list(advancement.next_sizes),
        "table_count": advancement.table_count,
        "lucky_losers": advancement.lucky_losers,
    }


@locked_write
def championship_stage_close(
    *, stage: Stage, by: User | AnonymousUser, seed: int | None = None
) -> Stage:
    """Close a seated championship stage: store who went on and why, and either crown the
    champion (the event is finished) or draw the next stage as a preview (seeded, stored),
    which the director confirms, swaps or redraws like the first draw.

    Locks event → stage → its tables, and judges the stage only while holding them, so no
    score saved meanwhile slips past the judgement. Returns the next stage, or the closed
    one when the championship is over. A constant number of queries whatever the size.
    """
    event_id = Stage.objects.filter(pk=stage.pk).values_list("event_id", flat=True).get()
    event = Event.objects.select_for_update(of=("self",)).select_related("club").get(pk=event_id)
    _refuse_unless_director(event, by)
    stage = Stage.objects.select_for_update(of=("self",)).get(pk=stage.pk)
    stage.event = event
    list(Table.objects.filter(stage=stage).select_for_update(of=("self",)).order_by("pk"))
    if (
        stage.status != StageStatus.CONFIRMED
        or event.stages.filter(number__gt=stage.number).exists()
    ):
        raise RuleViolation(
            _("This stage is not in play: it is still a draw preview, or already closed."),
            code="stage_not_in_play",
        )
    state = _close_state(stage)
    if state.advancement is None:
        assert state.refusal is not None
        raise state.refusal
    following = _decide(event, stage, state.advancement, seed=seed)
    if not state.advancement.over:  # a finished championship is not judged again
        _keep_close_judgement(stage, state)
    return following


def _decide(
    event: Event,
    stage: Stage,
    advancement: Advancement[int],
    *,
    seed: int | None,
    decisions: Sequence[dict[str, Any]] = (),
) -> Stage:
    """Store the stage's close (who went on and why, `decisions` kept with it) and crown the
    champion, or draw the next stage as a preview; the caller holds the locks."""
    seed = secrets.randbelow(2**31) if seed is None else seed
    # The precedence the stage was decided by, kept with it: a later change of the event's
    # order does not redecide a closed stage (scoring.selectors.stage_precedence).
    stage.outcome = {
        **outcome_json(advancement),
        "precedence": list(stage_precedence(stage)),
        **({"decisions": list(decisions)} if decisions else {}),
    }
    stage.closed_at = timezone.now()
    stage.status = StageStatus.FINISHED
    stage.save(update_fields=["outcome", "closed_at", "status"])
    results_change(event_id=event.pk, reason="stage_closed")
    if advancement.over:
        # The director confirmed closing the final stage, which ends the event.
        event_finish(event=event, confirmed=True)
        return stage
    bounds: TableBounds = _options(stage)["bounds"]
    seating = next_stage(advancement, bounds=bounds, seed=seed)
    following = Stage.objects.create(
        event=event,
        number=stage.number + 1,
        seed=seed,
        status=StageStatus.PREVIEW,
        format=dict(stage.format),
    )
    stage_tables_create(stage=following, groups=seating)
    return following


# -- the bracket --------------------------------------------------------------------------------


def _placing(row: dict[str, Any]) -> StagePlacing[int]:
    return StagePlacing(
        player=row["player"],
        name=row["name"],
        key=tuple(row.get("key", ())),
        table=row["table"],
        place=row["place"],
        shared=row["shared"],
    )


def stored_outcome(row: dict[str, Any]) -> Outcome[int]:
    """An outcome as `Stage.outcome` keeps it, for its reason in the reader's words."""
    tie = row.get("tie_break")
    return Outcome(
        placing=_placing(row),
        advances=row["advances"],
        reason=Reason(row["reason"]),
        tie_break=TieBreak(TieBreakMethod(tie["method"]), tuple(tie["order"]), tie["note"])
        if tie
        else None,
        replaces=tuple(TablePlayer(player, name) for player, name in row.get("replaces", [])),
    )


def stored_advancement(outcome: dict[str, Any]) -> Advancement[int]:
    """The parts of a closed stage's advancement the final ranking reads."""
    return Advancement(
        advancers=tuple(stored_outcome(row) for row in outcome.get("advancers", [])),
        eliminated=tuple(stored_outcome(row) for row in outcome.get("eliminated", [])),
        ranking=tuple(
            tuple(_placing(row) for row in group) for group in outcome.get("ranking", [])
        ),
        next_sizes=tuple(outcome.get("next_sizes", [])),
        champion=outcome.get("champion"),
        table_count=outcome.get("table_count", 0),
        lucky_losers=outcome.get("lucky_losers", 0),
    )


@dataclass
class BracketSeat:
    name: str
    total: int
    advances: bool = False
    lucky_loser: bool = False
    champion: bool = False
    # How the director settled a tie that ordered this seat (`TieBreakMethod`), if one did.
    tie_break: str | None = None
    player_id: int = 0
    # The tie-break that set the seat apart from the one above at its table, in the table's
    # one order (`TableSheet.order`, the name the standings' `decided_by` uses): None where
    # the total did, or the seat is first or shares its place.
    decided_by: str | None = None
    # The total counts deals not yet confirmed at the table.
    unconfirmed: bool = False

    @property
    def tie_break_label(self) -> str:
        return gettext(TieBreakMethod(self.tie_break).label) if self.tie_break else ""

    @property
    def decided_by_label(self) -> str:
        """What set a level total apart, as the standings' "Decided by" cell says it ("last
        deal"); blank where the total did, or the director's recorded method already says
        how (`tie_break_label`: "card draw")."""
        if not names_a_tie_break(self.decided_by):
            return ""
        if self.tie_break and self.decided_by == TieBreakName.DIRECTOR:
            return ""
        return gettext(tie_break_short_label(self.decided_by))


@dataclass
class BracketTable:
    number: int
    seats: list[BracketSeat]
    finished: bool


@dataclass
class BracketStage:
    number: int
    status: str
    tables: list[BracketTable]
    closed: bool
    # Why a first stage is already the final (`single_stage_note`); blank otherwise.
    final_note: str = ""


def single_stage_note(*, stage: Stage, players: int, tables: int) -> str:
    """Why the championship has one stage, in words, when `stage` is its first and seats
    everyone at one table; blank otherwise. The bracket and the manage page say it."""
    if stage.number != 1 or tables != 1:
        return ""
    return gettext(
        "%(players)d players fit at one table of up to %(size)d: this stage is the final."
    ) % {"players": players, "size": stage_bounds(stage=stage).max_size}


@dataclass
class Bracket:
    stages: list[BracketStage]
    champion: str | None
    ranking: list[RankedPlayer[int]]
    event: Event | None = None

    @cached_property
    def no_shows(self) -> frozenset[int]:
        """Who went on and has withdrawn since (`championship_no_shows`), read when a page
        shows it (the seat's mark)."""
        return frozenset() if self.event is None else championship_no_shows(event=self.event)

    @property
    def has_unconfirmed(self) -> bool:
        """A total somewhere counts deals not yet confirmed: the page's and the PDF's "*"."""
        return any(
            seat.unconfirmed
            for stage in self.stages
            for table in stage.tables
            for seat in table.seats
        )


def championship_bracket(
    *, event: Event, sheets: dict[int, list[TableSheet]] | None = None
) -> Bracket:
    """Every seated stage of the championship, its tables with who sat there and their
    totals, who went on (marked), the champion and, once over, the final ranking. Four
    queries whatever the number of stages and tables; one where `sheets` (every seated
    stage's, by stage id, counting every deal: the standings' `every_sheet`) are given."""
    stages = list(
        event.stages.filter(status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED]).order_by(
            "number"
        )
    )
    if sheets is None or any(stage.pk not in sheets for stage in stages):
        sheets = stages_sheets(stages)
    out: list[BracketStage] = []
    champion: str | None = None
    closed: list[Advancement[int]] = []
    for stage in stages:
        outcome = stage.outcome or {}
        going = {row["player"]: row for row in outcome.get("advancers", [])}
        # A closed stage shows each table in its final order, the recorded tie-breaks applied.
        placed = {
            row["player"]: row["place"]
            for row in (*outcome.get("advancers", []), *outcome.get("eliminated", []))
        }
        winner = outcome.get("champion")
        settled = {
            player: row["tie_break"]["method"]
            for row in (*outcome.get("advancers", []), *outcome.get("eliminated", []))
            if isinstance(row.get("tie_break"), dict)
            for player in (row["player"], *row["tie_break"].get("order", []))
        }
        tables = []
        for sheet in sheets[stage.pk]:
            decided_by = {place.position: place.decided_by for place in sheet.order}
            unconfirmed = bool(sheet.unconfirmed)
            rows = []
            ordered = sorted(sheet.rows, key=lambda row: placed.get(row["seat"].player_id, 0))
            for row in ordered:
                player = row["seat"].player_id
                rows.append(
                    BracketSeat(
                        name=row["seat"].player.name,
                        total=row["total"],
                        advances=player in going,
                        lucky_loser=bool(going.get(player, {}).get("lucky_loser")),
                        champion=player == winner,
                        tie_break=settled.get(player),
                        player_id=player,
                        decided_by=decided_by.get(row["seat"].position),
                        unconfirmed=unconfirmed,
                    )
                )
                if player == winner:
                    champion = row["seat"].player.name
            tables.append(BracketTable(sheet.table.number, rows, sheet.standing.finished))
        players = sum(len(table.seats) for table in tables)
        note = single_stage_note(stage=stage, players=players, tables=len(tables))
        out.append(BracketStage(stage.number, stage.status, tables, bool(outcome), note))
        if outcome:
            closed.append(stored_advancement(outcome))
    ranking: list[RankedPlayer[int]] = []
    if closed and closed[-1].over:
        ranking = list(final_ranking(closed))
    return Bracket(stages=out, champion=champion, ranking=ranking, event=event)


# -- the manage page's "Close stage N" ------------------------------------------------------------


@dataclass
class AdvancerRow:
    """One player going on, as the preview shows them: total and the reason in words."""

    name: str
    total: int
    reason: str
    tie_break: bool
    lucky_loser: bool


@dataclass
class CloseSection:
    stage: Stage
    state: CloseState
    advancers: list[AdvancerRow]
    # The refusal in the reader's words (None when the stage can close).
    refusal: str | None
    # Why this first stage is already the final (`single_stage_note`); blank otherwise.
    final_note: str = ""

    @property
    def over(self) -> bool:
        return self.state.advancement is not None and self.state.advancement.over

    @property
    def next_number(self) -> int:
        return self.stage.number + 1


def championship_close_section(*, event: Event) -> CloseSection | None:
    """What "Close stage N" shows (None when no stage is seated and open): who goes on, each
    with the total and why, or why not yet, with the ties to settle."""
    stage = championship_stage_to_close(event=event)
    if stage is None:
        return None
    state = _close_state(stage)
    totals = {
        seat.player_id: sheet.standing.totals[seat.position]
        for sheet in state.sheets
        for seat in sheet.seats
    }
    rows = []
    if state.advancement is not None:
        for outcome in state.advancement.advancers:
            rows.append(
                AdvancerRow(
                    name=outcome.name,
                    total=totals.get(outcome.player, 0),
                    reason=outcome.text.text(gettext),
                    tie_break=outcome.tie_break is not None,
                    lucky_loser=outcome.reason is Reason.LUCKY_LOSER,
                )
            )
    refusal = violation_text(state.refusal) if state.refusal is not None else None
    seats = Seat.objects.filter(table__stage=stage)
    note = single_stage_note(
        stage=stage,
        players=seats.count(),
        tables=seats.values("table_id").distinct().count(),
    )
    return CloseSection(stage=stage, state=state, advancers=rows, refusal=refusal, final_note=note)


# -- a closed stage whose scores were corrected -------------------------------------------------


@dataclass
class StageDrift:
    """What judging a closed stage again would decide differently from what its closing
    stored: who would go on instead of whom, another champion, or no judgement at all (a
    new tie, a table no longer finished). The site never re-seats by itself: the director
    decides, and `decisions` keeps what they decided."""

    stage: Stage
    # (player, name): going on now but not then, and going on then but not now.
    instead: list[tuple[int, str]]
    of: list[tuple[int, str]]
    champion: tuple[str | None, str | None] | None
    refusal: str | None
    decisions: list[dict[str, Any]]
    # (name, place then, place now) of every player whose place in the stage's ranking, and
    # so in the final ranking, would change: "Aino 5 → =4".
    moved: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def seen(self) -> dict[str, Any]:
        """The drift as a decision records it (JSON), and as it is recognised again."""
        return {
            "instead": [list(entry) for entry in self.instead],
            "of": [list(entry) for entry in self.of],
            "champion": list(self.champion) if self.champion else None,
            "refusal": self.refusal,
            "moved": [list(entry) for entry in self.moved],
        }

    @property
    def token(self) -> str:
        """Names exactly this drift on the page, so a decision is never taken on another."""
        return hashlib.sha256(json.dumps(self.seen, sort_keys=True).encode()).hexdigest()[:16]

    @property
    def changed(self) -> bool:
        return bool(self.instead or self.of or self.champion or self.refusal or self.moved)

    @property
    def decided(self) -> dict[str, Any] | None:
        """The director's decision on exactly this drift, if there is one."""
        seen = self.seen
        return next((d for d in reversed(self.decisions) if d.get("seen") == seen), None)

    @property
    def instead_names(self) -> str:
        return ", ".join(name for _player, name in self.instead)

    @property
    def of_names(self) -> str:
        return ", ".join(name for _player, name in self.of)


def _replaced(outcome: dict[str, Any]) -> frozenset[int]:
    # Who the closing found withdrawn: judged again with the same no-shows, a withdrawal
    # since then is not mistaken for a change of score.
    return frozenset(
        int(player)
        for row in outcome.get("advancers", [])
        for player, _name in row.get("replaces", [])
    )


def no_shows_since_close(*, stage: Stage) -> frozenset[int]:
    """Who went on from the closed `stage` and has been marked absent since, while the next
    stage has no score yet (the common no-show: someone does not turn up for it): the one
    rule for the manage page's drift, the public bracket and the standings."""
    outcome = stage.outcome if isinstance(stage.outcome, dict) else {}
    return _absent_since(stage, outcome)


def championship_no_shows(*, event: Event, closed: Sequence[Stage] | None = None) -> frozenset[int]:
    """Who went on from the championship's newest closed stage and has withdrawn since
    (`no_shows_since_close`: only that stage can still be reopened, so only it can have
    any); nobody once the championship is over. `closed`: its closed stages, if read."""
    if event.status == EventStatus.FINISHED:
        return frozenset()
    if closed is None:
        closed = list(event.stages.filter(status=StageStatus.FINISHED).order_by("-number")[:1])
    newest = max(closed, key=lambda stage: stage.number, default=None)
    return frozenset() if newest is None else no_shows_since_close(stage=newest)


def _absent_since(stage: Stage, outcome: dict[str, Any]) -> frozenset[int]:
    going = {row["player"] for row in outcome.get("advancers", [])}
    if not going or reopen_refusal(stage=stage) is not None:
        return frozenset()
    return frozenset(
        Registration.objects.filter(event_id=stage.event_id, player_id__in=going)
        .exclude(status__in=PLACE_HOLDING)
        .values_list("player_id", flat=True)
    )


def reopen_refusal(*, stage: Stage) -> RuleViolation | None:
    """Why the closed `stage` cannot be judged again and what follows it redrawn, or None:
    the one rule for the service and the manage page's button. Only the newest closed stage
    of a championship in play, while the stage after it has no score."""
    following = Stage.objects.filter(event_id=stage.event_id, number=stage.number + 1).first()
    if stage.status != StageStatus.FINISHED or stage.event.status == EventStatus.FINISHED:
        return RuleViolation(_("This stage is not closed."), code="stage_not_closed")
    if following is not None and (
        following.status == StageStatus.FINISHED or stage_is_frozen(stage=following)
    ):
        return RuleViolation(
            _("Stage %(number)d has scores already: this stage can no longer be reopened."),
            code="reopen_too_late",
            number=following.number,
        )
    return None


# How long a closed stage's judgement is kept; its key changes with everything it reads.
JUDGED_SECONDS = 12 * 3600


def _judged_key(stage: Stage, no_shows: frozenset[int]) -> str:
    """A key made of everything judging the closed `stage` reads (`_close_state`): its
    tables with their results versions (a deal saved, corrected, confirmed or voided there),
    the seats' players and names, the tie-breaks recorded, the game, the precedence and
    options it was closed by, who counts as absent, and the language of the refusal's text.
    Not the event's own results version: seating the next stage moves it, and the closed
    stage does not read the next one. Read as plain values: three queries, no sheet."""
    tables = Table.objects.filter(stage=stage).order_by("number")
    seats = Seat.objects.filter(table__stage=stage).order_by("table_id", "position")
    tie_breaks = TieBreakRow.objects.filter(stage=stage).order_by("pk")
    read = (
        stage.pk, StageStatus(stage.status).value, stage.event.variant_id, stage_precedence(stage),
        sorted(_options(stage).items()),
        # The tables' own secret links too: a stage made again with the same ids (SQLite
        # gives a deleted row's id again) never meets the judgement of the one before.
        list(tables.values_list("pk", "number", "results_changed_at", "entry_key")),
        list(seats.values_list("table_id", "position", "player_id", "player__name")),
        list(tie_breaks.values_list("pk", "table_id", "method", "order")),
        sorted(no_shows), get_language(),
    )  # fmt: skip
    return "closed-judged:1:" + hashlib.sha256(repr(read).encode()).hexdigest()


def _judged(state: CloseState) -> dict[str, Any]:
    """A judgement as plain values, as kept: the refusal's text, or who goes on, the
    champion and the ranking."""
    judged: dict[str, Any] = {"refusal": None, "advancers": [], "champion": None, "ranking": []}
    if state.advancement is None:
        assert state.refusal is not None
        judged["refusal"] = violation_text(state.refusal)
    else:
        advancement = state.advancement
        judged["advancers"] = [[o.player, o.name] for o in advancement.advancers]
        judged["champion"] = advancement.champion
        judged["ranking"] = [[[p.player, p.name] for p in group] for group in advancement.ranking]
    return judged


def _judge_closed(stage: Stage, no_shows: frozenset[int], *, kept: bool) -> dict[str, Any]:
    """What judging the closed `stage` again decides now (`_judged`). `kept`: as kept from
    an earlier judgement of exactly what it reads (`_judged_key`), when there is one. A
    250-table stage's judgement reads and scores its 1,750 deals: the manage page would
    otherwise do it on every load through the next stage's evening. Always kept once made,
    so the service's own judgement (never read from the cache) is what the page shows next."""
    key = _judged_key(stage, no_shows)
    if kept and (found := cache_get(key)) is not None:
        return found  # type: ignore[no-any-return]
    judged = _judged(_close_state(stage, no_shows=no_shows))
    cache_set(key, judged, JUDGED_SECONDS)
    return judged


def _drift_no_shows(stage: Stage) -> frozenset[int]:
    """Who a closed stage is judged again without: those its closing found withdrawn and
    replaced, and those who went on and are absent since."""
    outcome = stage.outcome or {}
    return _replaced(outcome) | _absent_since(stage, outcome)


def _keep_close_judgement(stage: Stage, state: CloseState) -> None:
    """Keep the judgement the close just made as the closed stage's, when judging it again
    would read the same: the manage page the director is sent to then finds it. Only when
    the absent are the same (nobody withdrew, as on most evenings); kept once committed."""
    if state.no_shows != _drift_no_shows(stage):
        return
    key, judged = _judged_key(stage, state.no_shows), _judged(state)
    transaction.on_commit(lambda: cache_set(key, judged, JUDGED_SECONDS))


def _stage_drift(stage: Stage, *, kept: bool = False) -> StageDrift:
    outcome = stage.outcome or {}
    judged = _judge_closed(stage, _drift_no_shows(stage), kept=kept)
    decisions = list(outcome.get("decisions", []))
    if judged["refusal"] is not None:
        return StageDrift(stage, [], [], None, judged["refusal"], decisions)
    before = {row["player"]: row["name"] for row in outcome.get("advancers", [])}
    now = {player: name for player, name in judged["advancers"]}
    instead = sorted((p, n) for p, n in now.items() if p not in before)
    of = sorted((p, n) for p, n in before.items() if p not in now)
    champion = None
    if outcome.get("champion") != judged["champion"]:
        names = {**before, **now}
        champion = (
            names.get(outcome["champion"]) if outcome.get("champion") else None,
            names.get(judged["champion"]) if judged["champion"] else None,
        )
    then = _ranking_places(
        [[(r["player"], r["name"]) for r in g] for g in outcome.get("ranking", [])]
    )
    places = _ranking_places([[(p, n) for p, n in group] for group in judged["ranking"]])
    moved = sorted(
        (name, then[player][1], label)
        for player, (name, label) in places.items()
        if player in then and then[player][1] != label
    )
    return StageDrift(stage, instead, of, champion, None, decisions, moved)


def _ranking_places(groups: Sequence[Sequence[tuple[int, str]]]) -> dict[int, tuple[str, str]]:
    """Each player's (name, place label) in a stage ranking of shared-place groups."""
    places: dict[int, tuple[str, str]] = {}
    place = 1
    for group in groups:
        label = place_text(place, len(group) > 1)
        for player, name in group:
            places[player] = (name, label)
        place += len(group)
    return places


def closed_stage_drift(*, event: Event) -> list[StageDrift]:
    """Every closed stage of a championship still in play whose corrected scores would now
    decide otherwise (decided or not), in stage order. One query, and six per closed stage
    whose judgement is kept (`_judge_closed`); four more for one judged again."""
    if not event.spec.corrects_closed_stages or event.status == EventStatus.FINISHED:
        return []
    drifts = []
    for stage in event.stages.filter(status=StageStatus.FINISHED).order_by("number"):
        stage.event = event
        drift = _stage_drift(stage, kept=True)
        if drift.changed:
            drifts.append(drift)
    return drifts


# The director's choices on a drifted closed stage: keep what it decided (nothing is
# re-seated), or reopen it: judge it again as it stands now and draw what follows again.
DRIFT_KEPT = "kept"
DRIFT_REOPENED = "reopened"
DRIFT_CHOICES = (DRIFT_KEPT, DRIFT_REOPENED)


@locked_write
def closed_stage_decision_record(
    *, stage: Stage, by: User | AnonymousUser, choice: str, token: str | None = None
) -> Stage:
    """The director decides on a closed stage that corrected scores would now judge
    otherwise: "kept" keeps what the closing decided (nothing is re-seated), and the stage
    keeps who decided, when, and on what. `token` is the drift the page showed: when the
    scores changed again meanwhile, nothing is recorded."""
    event_id = Stage.objects.filter(pk=stage.pk).values_list("event_id", flat=True).get()
    event = Event.objects.select_for_update(of=("self",)).select_related("club").get(pk=event_id)
    _refuse_unless_director(event, by)
    stage = Stage.objects.select_for_update(of=("self",)).get(pk=stage.pk)
    stage.event = event
    if choice not in DRIFT_CHOICES:
        raise ValueError(f"unknown decision {choice!r}")
    if stage.status != StageStatus.FINISHED or event.status == EventStatus.FINISHED:
        raise RuleViolation(_("This stage is not closed."), code="stage_not_closed")
    drift = _stage_drift(stage)
    if not drift.changed or (token is not None and token != drift.token):
        raise RuleViolation(
            _("The scores of this stage changed again: look at it again."),
            code="drift_changed",
        )
    assert isinstance(by, User)
    outcome = dict(stage.outcome or {})
    decisions = [
        *outcome.get("decisions", []),
        {
            "by": {"id": by.pk, "name": by.get_full_name() or by.get_username()},
            "at": timezone.now().isoformat(),
            "seen": drift.seen,
            "choice": choice,
        },
    ]
    if choice == DRIFT_REOPENED:
        return _reopen(event, stage, decisions)
    outcome["decisions"] = decisions
    stage.outcome = outcome
    stage.save(update_fields=["outcome"])
    return stage


def _reopen(event: Event, stage: Stage, decisions: list[dict[str, Any]]) -> Stage:
    """Judge the closed stage again as it stands now (its corrected scores, who is absent)
    and draw what follows it again, as a preview: the decision kept with the new close."""
    if refusal := reopen_refusal(stage=stage):
        raise refusal
    list(Table.objects.filter(stage__event=event, stage__number__gt=stage.number)
         .select_for_update(of=("self",)))  # fmt: skip
    state = _close_state(stage)
    if state.advancement is None:
        assert state.refusal is not None
        raise state.refusal
    # What followed was drawn from the old close and has no score: it goes, and is drawn again.
    Stage.objects.filter(event=event, number__gt=stage.number).delete()
    return _decide(event, stage, state.advancement, seed=None, decisions=decisions)
