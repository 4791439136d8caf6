"""A reseated series: N rounds (each a stage of the event), reseated between rounds, with
cumulative standings. The seating itself is pure (`tournaments.engine.seating`); this module reads
the rounds' scores, which is why it lives in scoring (tournaments never reads scores).

The event's `format_options` say how: ``rounds`` (N), ``reseat`` (``avoid_repeats``: at
random, meeting as few earlier tablemates as the search can over all the rounds left, or
``standings``: similar totals together, the leaders at table 1), ``clubs_apart`` (keep
players of one club apart in an open event) and ``series_ranking`` (``points``: the raw
totals added up; ``placement``: placement points scaled to the table's size, see
:func:`placement_points`).

Round 1 is the event's ordinary draw (`stage_draw`, or :func:`series_round_draw`, which
plans it with no history); each later round is drawn by :func:`series_round_draw` once
every table of the round before has finished and confirmed its deals. The drawn tables are
stored (not only the seed: a search cut short by its deadline may not give the same tables
twice) and the new stage's `format` keeps the round number and the repeats it found.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.db import locked_write
from core.places import place_text
from rules import RuleViolation
from rules.i18n import _, ngettext
from scoring.selectors import TableSheet, sheet_ravaytys, stage_sheets, stages_sheets
from tournaments.engine.draw import TableBounds
from tournaments.engine.seating import (
    PairCost,
    describe_seating,
    meetings,
    plan_series,
    seat_by_standings,
)
from tournaments.models import (
    Event,
    EventStatus,
    Player,
    RegistrationStatus,
    Seat,
    Stage,
    StageStatus,
)
from tournaments.selectors import stage_bounds, stage_current
from tournaments.services import stage_format, stage_tables_create

AVOID_REPEATS = "avoid_repeats"
BY_STANDINGS = "standings"
BY_POINTS = "points"
BY_PLACEMENT = "placement"

# The placement points of a table's winner (the last gets 0, the others evenly between):
# 60 is the smallest scale that gives whole points at every table size from 2 to 6
# (60 / (n - 1) is whole for n - 1 = 1 … 5), so no rounding ever decides a place.
PLACEMENT_SCALE = 60

# How much the search minds two players of one club at a table (`clubs_apart`): less than a
# repeat tablemate (1), so keeping clubs apart never costs a repeat that could be avoided.
SAME_CLUB_COST = 0.5


def placement_points(place: int, seats: int) -> int:
    """The placement points of the player placed `place` (1 = won) at a table of `seats`:
    ``60 × (seats − place) / (seats − 1)``. Every table's winner gets 60 and its last 0,
    and a table's points average 30 whatever its size, so a win at a table of 3 (60) is
    worth a win at a table of 4 (60), and second of three (30) lies between second (40) and
    third (20) of four, as it does by share of the table beaten."""
    if seats <= 1:
        return PLACEMENT_SCALE
    return PLACEMENT_SCALE * (seats - place) // (seats - 1)


def series_options(event: Event) -> dict[str, Any]:
    """The series' options with their defaults (a series made before an option existed)."""
    options = event.format_options if isinstance(event.format_options, dict) else {}
    rounds = options.get("rounds")
    return {
        "rounds": rounds if isinstance(rounds, int) and rounds >= 1 else 1,
        "reseat": BY_STANDINGS if options.get("reseat") == BY_STANDINGS else AVOID_REPEATS,
        "clubs_apart": options.get("clubs_apart") is True,
        "series_ranking": (
            BY_PLACEMENT if options.get("series_ranking") == BY_PLACEMENT else BY_POINTS
        ),
    }


# -- standings ------------------------------------------------------------------------------------


@dataclass
class SeriesCell:
    """A player's round: their table, its result for them, and whether it is final."""

    table: int
    total: int
    place: int
    seats: int
    points: int  # placement points (`placement_points`); 0 before the table's first deal
    finished: bool
    unconfirmed: bool
    played: int  # deals that count: 0 at a table yet to start, which counts for nothing yet
    ravaytys: int = 0  # deals the player went out with a räväytys (Räväytys only)


@dataclass
class SeriesRow:
    place: int
    player: str
    player_id: int
    # The ranking's figure: the raw totals added up, or the placement points.
    score: int
    # The raw totals added up (shown beside placement points).
    total: int
    rounds_played: int
    # One per round of `SeriesStandings.rounds`, None for a round the player sat out.
    cells: list[SeriesCell | None] = field(default_factory=list)
    shared: bool = False

    @property
    def place_label(self) -> str:
        return place_text(self.place, self.shared)


@dataclass
class SeriesRound:
    number: int
    finished: bool  # every table's game is over and its deals confirmed


@dataclass
class SeriesStandings:
    ranking: str  # BY_POINTS or BY_PLACEMENT
    lower_is_better: bool
    of_rounds: int
    rounds: list[SeriesRound]
    rows: list[SeriesRow]

    @property
    def by_placement(self) -> bool:
        return self.ranking == BY_PLACEMENT

    @property
    def scales(self) -> list[tuple[int, list[int]]]:
        """The placement points of each place, for every table size the series has had."""
        sizes = sorted({c.seats for row in self.rows for c in row.cells if c is not None})
        return [(n, [placement_points(p, n) for p in range(1, n + 1)]) for n in sizes]


def _played_stages(event: Event) -> list[Stage]:
    # A draw still in preview is the director's alone: the public standings never show it.
    return list(
        event.stages.filter(status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED]).order_by(
            "number"
        )
    )


def _sheet_done(sheet: TableSheet) -> bool:
    return sheet.problem is None and sheet.standing.finished and not sheet.unconfirmed


def series_standings(
    *,
    event: Event,
    stages: list[Stage] | None = None,
    sheets: dict[int, list[TableSheet]] | None = None,
) -> SeriesStandings:
    """Every player's rounds and their cumulative standing, in four queries however many
    rounds and players.

    By ``points`` (the default) the raw totals are added up, in the game's order (lower
    first in a penalty game); a player who sat a round out comes after everyone who played
    more rounds, since a missing round's zero would otherwise flatter them. By
    ``placement``, each round gives :func:`placement_points` for the place at one's table
    (its game's own tie order decides that place), added up, higher first; a round sat out
    gives none. A round still in play counts as it stands, from its table's first deal on
    (a table yet to start counts as a round not yet played). Players with the same figure
    (and, by points, the same rounds played) share a place ("=3"). With `stages` and
    `sheets` read already (a player's record reads many events' at once), in none.
    """
    options = series_options(event)
    # Read already, with other events' (`stages`: the seated ones, oldest first; `sheets`
    # of every deal, by stage id), or read here.
    if stages is None:
        stages = _played_stages(event)
    if sheets is None:
        sheets = stages_sheets(stages)
    rows: dict[int, SeriesRow] = {}
    rounds: list[SeriesRound] = []
    lower_is_better = True
    seen_standing = False
    for index, stage in enumerate(stages):
        stage_sheets_ = sheets.get(stage.pk, [])
        rounds.append(
            SeriesRound(
                number=stage.number,
                finished=bool(stage_sheets_) and all(_sheet_done(s) for s in stage_sheets_),
            )
        )
        for sheet in stage_sheets_:
            if not seen_standing and sheet.problem is None:
                lower_is_better, seen_standing = sheet.standing.lower_is_better, True
            # The table's one order (its precedence, the director's records): level seats
            # share a place, and its placement points.
            place = {seat.position: seat.place for seat in sheet.order}
            ravaytys = sheet_ravaytys(sheet)
            for seat in sheet.seats:
                row = rows.get(seat.player_id)
                if row is None:
                    row = rows[seat.player_id] = SeriesRow(
                        place=0,
                        player=seat.player.name,
                        player_id=seat.player_id,
                        score=0,
                        total=0,
                        rounds_played=0,
                        cells=[None] * len(stages),
                    )
                total = sheet.standing.totals[seat.position]
                seat_place = place.get(seat.position, len(sheet.seats))
                row.cells[index] = SeriesCell(
                    table=sheet.table.number,
                    total=total,
                    place=seat_place,
                    seats=len(sheet.seats),
                    points=(placement_points(seat_place, len(sheet.seats)) if sheet.played else 0),
                    finished=sheet.standing.finished,
                    unconfirmed=bool(sheet.unconfirmed),
                    played=sheet.played,
                    ravaytys=ravaytys[seat.position],
                )
    by_placement = options["series_ranking"] == BY_PLACEMENT
    for row in rows.values():
        # A round counts once the player's table has played a deal: before that its seat
        # order, not its play, would place them.
        played = [cell for cell in row.cells if cell is not None and cell.played]
        row.rounds_played = len(played)
        row.total = sum(cell.total for cell in played)
        row.score = sum(cell.points for cell in played) if by_placement else row.total
    sign = 1 if lower_is_better else -1

    def key(row: SeriesRow) -> tuple[int, int]:
        if by_placement:
            return (0, -row.score)
        return (-row.rounds_played, sign * row.score)

    ordered = sorted(rows.values(), key=lambda row: (key(row), row.player, row.player_id))
    previous: SeriesRow | None = None
    for number, row in enumerate(ordered, start=1):
        if previous is not None and key(previous) == key(row):
            row.place = previous.place
            row.shared = previous.shared = True
        else:
            row.place = number
        previous = row
    return SeriesStandings(
        ranking=options["series_ranking"],
        lower_is_better=lower_is_better and not by_placement,
        of_rounds=options["rounds"],
        rounds=rounds,
        rows=ordered,
    )


# -- the next round -------------------------------------------------------------------------------


def series_draw_refusal(*, event: Event) -> RuleViolation | None:
    """Why the series' next round cannot be drawn (or its preview drawn again), or None: the
    one rule for the service and the manage page's button."""
    if not event.spec.reseated:
        return RuleViolation(_("This event is not a series of rounds."), code="not_a_series")
    if event.status == EventStatus.FINISHED:
        return RuleViolation(_("This event is already finished."), code="event_finished")
    stage = stage_current(event=event)
    if stage is None or stage.status == StageStatus.PREVIEW:
        return None  # round 1, or a preview drawn again
    rounds = series_options(event)["rounds"]
    if stage.number >= rounds:
        return RuleViolation(
            ngettext(
                "The series has %(rounds)d round, and it has been drawn.",
                "All %(rounds)d rounds of the series have been drawn.",
                rounds,
            ),
            code="series_complete",
            rounds=rounds,
        )
    stage.event = event
    sheets = stage_sheets(stage=stage)
    for sheet in sheets:
        if not _sheet_done(sheet):
            return RuleViolation(
                _(
                    "Round %(round)d is still playing at table %(number)d: the next round is "
                    "drawn once every table has finished and confirmed its deals."
                ),
                code="round_playing",
                round=stage.number,
                number=sheet.table.number,
            )
    if not sheets:
        return RuleViolation(_("No table has played yet."), code="event_not_started")
    return None


def _history(event: Event, before: int) -> list[list[list[int]]]:
    """The tables (player ids) of every round before round `before`, round by round."""
    tables: dict[tuple[int, int], list[int]] = defaultdict(list)
    seats = (
        Seat.objects.filter(table__stage__event=event, table__stage__number__lt=before)
        .order_by("table__stage__number", "table__number", "position")
        .values_list("table__stage__number", "table_id", "player_id")
    )
    for number, table_id, player_id in seats:
        tables[(number, table_id)].append(player_id)
    rounds: dict[int, list[list[int]]] = defaultdict(list)
    for (number, _table_id), players in tables.items():
        rounds[number].append(players)
    return [rounds[number] for number in sorted(rounds)]


def same_club_cost(clubs: Mapping[int, str]) -> PairCost[int] | None:
    """The `pair_cost` that keeps players of one club apart, from each player's club (by
    player id; a player with no club known costs nothing), or None when nobody's club is
    known. A visitor's club is the home club typed at check-in; everyone else belongs to the
    event's own club."""
    if len({club for club in clubs.values() if club}) < 2:
        return None  # everyone of one club (or none known): nothing to keep apart

    def cost(a: int, b: int) -> float:
        club = clubs.get(a)
        return SAME_CLUB_COST if club and club == clubs.get(b) else 0.0

    return cost


def _players_clubs(event: Event, player_ids: Sequence[int]) -> dict[int, str]:
    """Each player's club: a visitor's recorded home club, else the event's own club."""
    rows = Player.objects.filter(pk__in=player_ids).values_list("pk", "home_club")
    return {pk: home or f"#{event.club_id}" for pk, home in rows}


def _standing_order(event: Event, player_ids: Sequence[int]) -> list[int]:
    """The players in series standing order; those with no round yet last, as they came."""
    ranked = [row.player_id for row in series_standings(event=event).rows]
    present = set(player_ids)
    order = [player for player in ranked if player in present]
    placed = set(order)
    return order + [player for player in player_ids if player not in placed]


def _seat_round(
    event: Event, player_ids: list[int], number: int, bounds: TableBounds, seed: int
) -> tuple[list[list[int]], dict[str, Any]]:
    """The round's tables and what the stage records about how they were found."""
    options = series_options(event)
    history = _history(event, number)
    met = meetings(history)
    if options["reseat"] == BY_STANDINGS and history:
        tables = seat_by_standings(_standing_order(event, player_ids), bounds=bounds, seed=seed)
        described = describe_seating(tables, met=met)
        return tables, {"repeats": described.repeats}
    pair_cost = (
        same_club_cost(_players_clubs(event, player_ids)) if options["clubs_apart"] else None
    )
    remaining = max(1, options["rounds"] - number + 1)
    plan = plan_series(
        player_ids, rounds=remaining, bounds=bounds, met=met, seed=seed, pair_cost=pair_cost
    )
    seating = plan.rounds[0]
    return seating.tables, {
        "repeats": seating.repeats,
        "planned_repeats": plan.repeats,
        "planned_rounds": remaining,
        "cut_short": plan.search.cut_short,
    }


@locked_write
def series_round_draw(*, event: Event, seed: int | None = None) -> Stage:
    """Draw the series' next round as a preview (or draw its preview again): the checked-in
    players, reseated by the event's ``reseat`` option, as a new stage numbered after the
    last. Refused (RuleViolation) while a table of the round before is still playing or has
    deals to confirm, once every round is drawn, and for an event that is not a series.

    Locks the event first (the house order), so two directors drawing at once draw once.
    The stage's `format` keeps, besides its table sizes, ``series``: the round, the rounds
    in all, the way it was reseated and the repeats the draw found.
    """
    event = Event.objects.select_for_update().select_related("club").get(pk=event.pk)
    refusal = series_draw_refusal(event=event)
    if refusal is not None:
        raise refusal
    newest = stage_current(event=event)
    player_ids = sorted(
        event.registrations.filter(status=RegistrationStatus.CHECKED_IN).values_list(
            "player_id", flat=True
        )
    )
    seed = secrets.randbelow(2**31) if seed is None else seed
    stage_fields: dict[str, Any] = {"seed": seed, "status": StageStatus.PREVIEW}
    if newest is not None and newest.status == StageStatus.PREVIEW:
        stage = Stage.objects.select_for_update().get(pk=newest.pk)
        list(stage.tables.select_for_update(of=("self",)).order_by("pk"))
        stage.tables.all().delete()  # a preview has no scores: its tables only go
        number = stage.number
    else:
        number = 1 if newest is None else newest.number + 1
        stage = Stage(event=event, number=number, **stage_fields)
    stage.event = event
    stage.format = stage_format(event=event)
    bounds = stage_bounds(stage=stage)
    tables, found = _seat_round(event, player_ids, number, bounds, seed)
    options = series_options(event)
    stage.format["series"] = {
        "round": number,
        "rounds": options["rounds"],
        "reseat": options["reseat"] if number > 1 else AVOID_REPEATS,
        **found,
    }
    for name, value in stage_fields.items():
        setattr(stage, name, value)
    stage.save()
    stage_tables_create(stage=stage, groups=tables)
    return stage


# -- the director's preview -----------------------------------------------------------------------


@dataclass
class SeriesPreview:
    """What the manage page shows of the series: the rounds, the next round's button (or
    why not), and the repeats of a round drawn but not yet confirmed."""

    rounds: int
    # The round in play (seated), 0 before the first.
    current: int
    # The round the button draws (again, when `drawing_again`).
    next_round: int
    drawing_again: bool
    refusal: RuleViolation | None
    reseat: str
    # A preview's repeats: the count and who meets again (names, pair by pair).
    preview_round: int | None = None
    repeats: int = 0
    meet_again: list[tuple[str, str]] = field(default_factory=list)


def series_preview(*, event: Event) -> SeriesPreview:
    """The manage page's series box; a few queries, however big the event."""
    options = series_options(event)
    stage = stage_current(event=event)
    in_preview = stage is not None and stage.status == StageStatus.PREVIEW
    current = 0 if stage is None else stage.number - (1 if in_preview else 0)
    preview = SeriesPreview(
        rounds=options["rounds"],
        current=current,
        next_round=current + 1,
        drawing_again=in_preview,
        refusal=series_draw_refusal(event=event),
        reseat=options["reseat"],
    )
    if stage is not None and in_preview and stage.number > 1:
        tables: dict[int, list[int]] = defaultdict(list)
        seats = Seat.objects.filter(table__stage=stage).order_by("table__number", "position")
        for table_id, player_id in seats.values_list("table_id", "player_id"):
            tables[table_id].append(player_id)
        seating = describe_seating(
            list(tables.values()), met=meetings(_history(event, stage.number))
        )
        involved = {player for pair in seating.repeated_pairs for player in pair}
        names = dict(Player.objects.filter(pk__in=involved).values_list("pk", "name"))
        preview.preview_round = stage.number
        preview.repeats = seating.repeats
        for pair in seating.repeated_pairs:
            first, second = sorted(names[player] for player in pair)
            preview.meet_again.append((first, second))
        preview.meet_again.sort()
    return preview


__all__ = [
    "PLACEMENT_SCALE",
    "SeriesPreview",
    "SeriesStandings",
    "placement_points",
    "same_club_cost",
    "series_draw_refusal",
    "series_options",
    "series_preview",
    "series_round_draw",
    "series_standings",
]
