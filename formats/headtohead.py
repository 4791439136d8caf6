"""Head-to-head Gin Römi events (round robin and Swiss): pairing each round, and the standings.

A round is a stage of tables of two; a match is one Gin Römi game to 150 with its final
settlement, scored like any other table. The pairing itself is `tournaments.engine.pairing` (pure);
here it meets the database:

- ``Stage.format`` of each round keeps what was paired: ``round``, ``pairs`` (player ids,
  first dealer first), ``bye`` (a player id or None) and ``rematches``; a round robin's
  first round also keeps the whole ``schedule``, drawn once, from which every later round
  is read.
- Pairing the next round closes the one before (FINISHED, its links stop taking scores):
  the pairing was made from those results, so they must not change under it.
- The standings count every finished match by its settlement and every bye by the event's
  ``ByeValue`` (``format_options``: ``bye_wins``, ``bye_points``); they never store a result.
"""

from __future__ import annotations

import math
import random
import secrets
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from core.db import locked_write
from rules import RuleViolation
from rules.i18n import _, ngettext
from scoring.models import Deal
from scoring.selectors import TableSheet, sheet_of
from tournaments.engine.pairing import (
    Bye,
    ByeValue,
    H2HStanding,
    MatchResult,
    Pairing,
    h2h_standings,
    round_robin,
    swiss_next,
)
from tournaments.models import (
    PLACE_HOLDING,
    Event,
    EventStatus,
    Registration,
    RegistrationStatus,
    Seat,
    Stage,
    StageStatus,
    Table,
)
from tournaments.services import stage_format, stage_tables_create

SEATED = (StageStatus.CONFIRMED, StageStatus.FINISHED)


def _option(event: Event, name: str, default: int) -> int:
    """A whole, non-negative format option; the default when it is missing or malformed
    (the event form has checked it; an old or hand-edited event must still show)."""
    options = event.format_options if isinstance(event.format_options, dict) else {}
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return default
    return value


def h2h_bye_value(*, event: Event) -> ByeValue:
    """What a bye counts in this event (one win and no points unless the event says)."""
    return ByeValue(wins=_option(event, "bye_wins", 1), points=_option(event, "bye_points", 0))


# -- what has been played -----------------------------------------------------------------


@dataclass
class Match:
    """One table of a round: seat 0 (``a``, dealt first) against seat 1 (``b``)."""

    round: int
    sheet: TableSheet
    a: int
    b: int

    @property
    def table(self) -> Table:
        return self.sheet.table

    @property
    def result(self) -> MatchResult[int] | None:
        """The finished match's result (None while it is played or needs the director)."""
        settlement = self.sheet.standing.settlement
        if self.sheet.problem is not None or not self.sheet.standing.finished or not settlement:
            return None
        return MatchResult.from_settlement(
            round=self.round, a=self.a, b=self.b, settlement=settlement
        )

    @property
    def done(self) -> bool:
        """Over, every deal confirmed: what the next round may be paired from."""
        return self.result is not None and not self.sheet.unconfirmed


def _matches(stages: Sequence[Stage]) -> list[Match]:
    """Every table of `stages` as a match, in three queries however many rounds."""
    by_pk = {stage.pk: stage for stage in stages}
    tables = (
        Table.objects.filter(stage__in=list(by_pk))
        .order_by("stage__number", "number")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch("deals", queryset=Deal.objects.order_by("number")),
        )
    )
    matches = []
    for table in tables:
        stage = table.stage = by_pk[table.stage_id]
        seats, deals = list(table.seats.all()), list(table.deals.all())
        if len(seats) != 2:
            continue  # not a match (a hand-made table): nothing the standings can count
        sheet = sheet_of(table, seats, deals, stage.event.variant)
        matches.append(Match(stage.number, sheet, seats[0].player_id, seats[1].player_id))
    return matches


def _bye_of(stage: Stage) -> int | None:
    bye = stage.format.get("bye") if isinstance(stage.format, dict) else None
    return bye if isinstance(bye, int) and not isinstance(bye, bool) else None


def _results(
    stages: Sequence[Stage], matches: Sequence[Match]
) -> list[MatchResult[int] | Bye[int]]:
    results: list[MatchResult[int] | Bye[int]] = [
        result for match in matches if (result := match.result) is not None
    ]
    for stage in stages:
        bye = _bye_of(stage)
        if bye is not None:
            results.append(Bye(round=stage.number, player=bye))
    return results


def _round_refusal(number: int, matches: Sequence[Match]) -> RuleViolation | None:
    for match in matches:
        if not match.done:
            return RuleViolation(
                _(
                    "Table %(table)d of round %(round)d is still playing or has deals to "
                    "confirm: the next round is paired from its result."
                ),
                code="h2h_round_playing",
                table=match.table.number,
                round=number,
            )
    return None


# -- the rounds -------------------------------------------------------------------------------


def _schedule_from(stage: Stage) -> list[Pairing[int]] | None:
    raw = stage.format.get("schedule") if isinstance(stage.format, dict) else None
    if not isinstance(raw, list):
        return None
    return [
        Pairing(
            pairs=tuple((int(a), int(b)) for a, b in entry["pairs"]),
            bye=entry.get("bye"),
        )
        for entry in raw
    ]


def _schedule_of_played_round(stage: Stage, matches: Sequence[Match]) -> list[Pairing[int]]:
    """A round robin whose first round pairs as `stage` did: the circle method's first
    round pairs the list's first half with its second half reversed, an odd count's last
    player sitting out, so the first seats go first in table order, then the second
    seats reversed, then the bye."""
    firsts = [match.a for match in matches]
    seconds = [match.b for match in matches]
    bye = _bye_of(stage)
    return round_robin([*firsts, *reversed(seconds), *([bye] if bye is not None else [])])


def _round_size(stage: Stage, matches: Sequence[Match]) -> int:
    """How many played the round `stage` paired: its stored pairs, or (a round drawn by the
    plain draw, which stores none) its tables, and the bye."""
    pairs = stage.format.get("pairs") if isinstance(stage.format, dict) else None
    count = len(pairs) if isinstance(pairs, list) else 0
    count = count or sum(1 for match in matches if match.round == stage.number)
    return 2 * count + (_bye_of(stage) is not None)


def _rounds_total(event: Event, first: Stage | None, players: int) -> int:
    if event.spec.full_schedule:
        schedule = _schedule_from(first) if first is not None else None
        if schedule is not None:
            return len(schedule)
        return players if players % 2 else max(players - 1, 0)
    default = max(1, math.ceil(math.log2(players))) if players > 1 else 1
    return _option(event, "rounds", default) or default


def _checked_in(event: Event) -> list[int]:
    return list(
        event.registrations.filter(status=RegistrationStatus.CHECKED_IN)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )


def _pairing(
    event: Event,
    number: int,
    stages: Sequence[Stage],
    matches: Sequence[Match],
    seed: int,
) -> tuple[Pairing[int], dict[str, Any]]:
    """Round `number`'s pairing, and what its stage keeps besides (a schedule)."""
    if event.spec.full_schedule:
        if number == 1:
            players = _checked_in(event)
            random.Random(seed).shuffle(players)
            drawn = round_robin(players)
            stored = [
                {"pairs": [list(pair) for pair in rnd.pairs], "bye": rnd.bye} for rnd in drawn
            ]
            return drawn[0], {"schedule": stored}
        first = stages[0]
        played = [match for match in matches if match.round == first.number]
        schedule = _schedule_from(first)
        if schedule is None or {frozenset(pair) for pair in schedule[0].pairs} != {
            frozenset((match.a, match.b)) for match in played
        }:
            # Round 1 was seated otherwise (the plain draw, or a swap in its preview): the
            # rest follows from what was played, so every pair still meets exactly once.
            schedule = _schedule_of_played_round(first, played)
        if number > len(schedule):
            raise _all_played(len(schedule))
        # A player who has withdrawn plays no more: their scheduled match is dropped (the
        # opponent sits the round out, for no points), and nobody else's changes.
        present = set(_checked_in(event))
        planned = schedule[number - 1]
        pairs = tuple(pair for pair in planned.pairs if set(pair) <= present)
        bye = planned.bye if planned.bye in present else None
        return Pairing(pairs=pairs, bye=bye), {}
    players = _checked_in(event)
    results = _results(stages, matches)
    return swiss_next(players, results, bye_value=h2h_bye_value(event=event), seed=seed), {}


def _all_played(total: int) -> RuleViolation:
    return RuleViolation(
        ngettext(
            "The event's %(rounds)d round has been played.",
            "All %(rounds)d rounds of the event have been played.",
            total,
        ),
        code="h2h_all_rounds",
        rounds=total,
    )


@dataclass
class RoundState:
    """Where the event's rounds stand, for the service and the manage page alike."""

    # The round the next pairing makes (or makes again, while it is a preview).
    number: int
    preview: Stage | None
    # The round being played or just played (CONFIRMED, or FINISHED after the event).
    current: Stage | None
    total: int
    refusal: RuleViolation | None


def _state(
    event: Event,
    stages: list[Stage],
    matches: Sequence[Match],
    withdrawn: set[int] | None = None,
) -> RoundState:
    """`stages` are every stage of the event, oldest first; `matches` those of the seated;
    `withdrawn`: who has withdrawn, when read already."""
    latest = stages[-1] if stages else None
    preview = latest if latest is not None and latest.status == StageStatus.PREVIEW else None
    seated = [stage for stage in stages if stage.status in SEATED]
    current = seated[-1] if seated else None
    first = stages[0] if stages else None
    total = _rounds_total(event, first, _round_size(first, matches) if first else 0)
    number = preview.number if preview else (current.number + 1 if current else 1)
    refusal: RuleViolation | None = None
    if event.status == EventStatus.FINISHED:
        refusal = RuleViolation(_("This event is already finished."), code="event_finished")
    elif preview is None and current is not None:
        # A match left by a player who has withdrawn never ends: it holds up no round.
        gone = (
            set(
                event.registrations.exclude(status__in=PLACE_HOLDING).values_list(
                    "player_id", flat=True
                )
            )
            if withdrawn is None
            else withdrawn
        )
        playing = [m for m in matches if m.round == current.number and not {m.a, m.b} & gone]
        refusal = _round_refusal(current.number, playing)
        if refusal is None and number > total:
            refusal = _all_played(total)
    return RoundState(number, preview, current, total, refusal)


@locked_write
def h2h_round_draw(*, event: Event, seed: int | None = None, number: int | None = None) -> Stage:
    """Pair the event's next round (or pair the round in preview again) as a preview.

    Refused while a match of the round being played is unfinished or has a deal to
    confirm, after the last round, and when `number` (the round the director saw offered)
    is not the one this would pair: a second tap never pairs a round twice. Closes the
    round it was paired from. Locks in the house order: event, its stages, their tables.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    if not event.spec.paired:
        raise ValueError(f"event {event.pk} is not head to head")  # the page offers no button
    stages = list(event.stages.select_for_update().order_by("number"))
    list(
        Table.objects.filter(stage__in=stages)
        .select_for_update(of=("self",))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    seated = [stage for stage in stages if stage.status in SEATED]
    matches = _matches(seated)
    state = _state(event, stages, matches)
    if number is not None and number != state.number:
        raise RuleViolation(
            _("Round %(round)d has been paired meanwhile: look at the pairing below."),
            code="h2h_stale",
            round=number,
        )
    if state.refusal is not None:
        raise state.refusal
    seed = secrets.randbelow(2**31) if seed is None else seed
    pairing, extra = _pairing(event, state.number, seated, matches, seed)
    stored = {
        **stage_format(event=event),
        "round": state.number,
        "pairs": [list(pair) for pair in pairing.pairs],
        "bye": pairing.bye,
        "rematches": [list(pair) for pair in pairing.rematches],
        **extra,
    }
    stage = state.preview
    if stage is None:
        stage = Stage.objects.create(event=event, number=state.number, seed=seed, format=stored)
    else:
        stage.tables.all().delete()  # a preview takes no scores: nothing is lost
        stage.seed, stage.format = seed, stored
        stage.save(update_fields=["seed", "format"])
    stage.event = event
    stage_tables_create(stage=stage, groups=[list(pair) for pair in pairing.pairs])
    current = state.current
    if current is not None and current.status == StageStatus.CONFIRMED:
        current.status, current.closed_at = StageStatus.FINISHED, timezone.now()
        current.outcome = {"paired": state.number}
        current.save(update_fields=["status", "closed_at", "outcome"])
    return stage


# -- reads ------------------------------------------------------------------------------------


@dataclass
class GridCell:
    """What the row's player did against the column's, in one match."""

    round: int
    # True won, False lost, None still playing (or needing the director).
    won: bool | None
    points: int | None
    against: int | None
    unconfirmed: bool


@dataclass
class BoardRow:
    standing: H2HStanding[int]
    name: str
    cells: list[list[GridCell]]
    bye_rounds: list[int]

    @property
    def place_label(self) -> str:
        return self.standing.place_label


@dataclass
class PreviewPair:
    table: int
    first: str
    second: str
    rematch: bool


@dataclass
class H2HBoard:
    """The head-to-head standings, the match grid (rows and columns in standings order),
    and the round in play."""

    rows: list[BoardRow]
    rounds_seated: int
    state: RoundState
    preview_pairs: list[PreviewPair] = field(default_factory=list)
    preview_bye: str | None = None

    @property
    def preview_rematch(self) -> bool:
        return any(pair.rematch for pair in self.preview_pairs)

    @property
    def columns(self) -> list[int]:
        return list(range(1, len(self.rows) + 1))


@dataclass
class H2HRead:
    """A head-to-head event's data read already, with other events' (a player's record
    reads every event's at once): every stage, oldest first (each with its event); the
    seated stages' sheets by stage id; the registrations as (player, name, status)."""

    stages: list[Stage]
    sheets: dict[int, list[TableSheet]]
    registrations: list[tuple[int, str, str]]


def h2h_event_standings(*, event: Event, read: H2HRead | None = None) -> H2HBoard:
    """The standings and match grid of a head-to-head event, in six queries whatever its
    size (stages, registrations, tables, seats, deals, and the preview's seats); with
    `read`, in none (and without the preview's pairs, which only the manage page shows)."""
    if read is None:
        stages = list(event.stages.order_by("number"))
        for stage in stages:
            stage.event = event
        seated = [stage for stage in stages if stage.status in SEATED]
        matches = _matches(seated)
        names = dict(
            Registration.objects.filter(event=event).values_list("player_id", "player__name")
        )
        withdrawn = None
    else:
        stages = read.stages
        seated = [stage for stage in stages if stage.status in SEATED]
        matches = [
            Match(stage.number, sheet, sheet.seats[0].player_id, sheet.seats[1].player_id)
            for stage in seated
            for sheet in read.sheets.get(stage.pk, [])
            if len(sheet.seats) == 2
        ]
        names = {player: name for player, name, _status in read.registrations}
        withdrawn = {
            player for player, _name, status in read.registrations if status not in PLACE_HOLDING
        }
    byes = {stage.number: bye for stage in seated if (bye := _bye_of(stage)) is not None}
    players = sorted(
        {p for m in matches for p in (m.a, m.b)} | set(byes.values()),
        key=lambda p: (names.get(p, ""), p),
    )
    names.update({p: "?" for p in players if p not in names})
    results = _results(seated, matches)
    table = h2h_standings(players, results, bye_value=h2h_bye_value(event=event))
    column = {row.player: index for index, row in enumerate(table)}
    cells: dict[int, list[list[GridCell]]] = {p: [[] for _ in table] for p in players}
    for match in matches:
        result = match.result
        pending = bool(match.sheet.unconfirmed)
        for me, other in ((match.a, match.b), (match.b, match.a)):
            cells[me][column[other]].append(
                GridCell(
                    round=match.round,
                    won=None if result is None else result.winner == me,
                    points=None if result is None else result.points_of(me),
                    against=None if result is None else result.points_of(other),
                    unconfirmed=pending,
                )
            )
    bye_rounds: dict[int, list[int]] = defaultdict(list)
    for number, player in sorted(byes.items()):
        bye_rounds[player].append(number)
    rows = [
        BoardRow(row, names[row.player], cells[row.player], bye_rounds.get(row.player, []))
        for row in table
    ]
    board = H2HBoard(
        rows=rows, rounds_seated=len(seated), state=_state(event, stages, matches, withdrawn)
    )
    preview = board.state.preview
    if preview is not None and read is None:
        # Marked from the matches played, not the stored pairing: a swap in the preview
        # may have made (or undone) a rematch.
        met = {frozenset((match.a, match.b)) for match in matches}
        preview_tables = Table.objects.filter(stage=preview).prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        for preview_table in preview_tables.order_by("number"):
            seats = list(preview_table.seats.all())
            if len(seats) == 2:
                board.preview_pairs.append(
                    PreviewPair(
                        preview_table.number,
                        seats[0].player.name,
                        seats[1].player.name,
                        frozenset(s.player_id for s in seats) in met,
                    )
                )
        bye = _bye_of(preview)
        if bye is not None:
            board.preview_bye = names.get(bye, "?")
    return board
