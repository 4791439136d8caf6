"""The table-winner championship: who goes on from a closed stage, and the final ranking.

Pure functions over frozen values, no models and no Django (like :mod:`tournaments.engine.draw`),
so the rules of a championship are proved by tests that need no database. A service loads
a stage's tables and the director's recorded tie-breaks, turns them into
:class:`StageTable` values, shows :func:`advance`'s answer as the preview, and on commit
stores it and seats :func:`next_stage`.

The rules, as a director would say them:

* The top ``top_k`` of each table go on (default 1: the table's winner). A stage of one
  table is the final: its winner alone goes on, and is the champion. A stage from which one
  player goes on ends the championship too: that player is the champion.
* A table's order is the game's own (for Rutupeli: the total, then fewer points in the last
  game, then more games won). Players still level after it share their place. A shared
  place that the cut runs through needs the director's recorded tie-break (a play-off deal,
  a card draw, a coin toss, or another way, with a note): the site never guesses, and
  :func:`advance` refuses with a message naming the table and the tied players.
* A no-show (someone who would go on but will not play the next stage) is replaced by the
  next player in that table's order, and the replacement is shown as such.
* Lucky losers (off by default) fill the next stage up to whole tables of the preferred
  size, taking the best of those not going on by the stage ranking; see
  :func:`lucky_loser_target` for the exact count.
* The stage ranking compares players across tables: the place at the table first, then the
  stage result key (:attr:`TablePlayer.key`, lower is better), then a stage tie-break the
  director recorded (only ever needed at the lucky losers' cut).
* Each stage is seated by :func:`stage_sizes`: whoever fits one table (at most
  ``bounds.max_size``, two or more) plays one final table; more are drawn into balanced
  tables by :func:`tournaments.engine.draw.table_sizes`.
* The final ranking: the champion first, then by the stage each player reached (later is
  better), then by the stage ranking of that stage. Players equal on all of that share
  their place ("=5"), never put in an arbitrary order.

A championship of one entrant is refused (:func:`draw_stage`): a champion needs a game.

    >>> first = [TablePlayer(1, "Aino", (40,)), TablePlayer(2, "Bertta", (55,))]
    >>> second = [TablePlayer(3, "Cecilia", (30,)), TablePlayer(4, "Dan", (30,))]
    >>> tables = [StageTable.from_order(1, first), StageTable.from_order(2, second)]
    >>> [(tie.table, tie.names) for tie in pending_ties(tables)]
    [(2, 'Cecilia, Dan')]
    >>> coin = TieBreak(TieBreakMethod.COIN_TOSS, (4, 3))
    >>> tables[1] = StageTable.from_order(2, second, tie_breaks=[coin])
    >>> result = advance(tables)
    >>> [(o.name, o.text.text()) for o in result.advancers]
    [('Dan', 'Won table 2. Decided by a tie-break: coin toss.'), ('Aino', 'Won table 1.')]
    >>> result.next_sizes, result.over
    ((2,), False)
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Generic, TypeVar

from core.places import place_text
from rules.errors import RulesError, RuleViolation
from rules.i18n import Phrase, _, ngettext
from rules.results import TableStanding
from tournaments.engine.draw import TableBounds, draw_tables, table_sizes

__all__ = [
    "DEFAULT_BOUNDS",
    "Advancement",
    "Outcome",
    "PendingTie",
    "RankedPlayer",
    "Reason",
    "SimulatedChampionship",
    "SimulatedStage",
    "StagePlacing",
    "StageTable",
    "TablePlayer",
    "TieBreak",
    "TieBreakMethod",
    "advance",
    "championship_ranking",
    "draw_stage",
    "final_ranking",
    "lucky_loser_target",
    "next_stage",
    "pending_ties",
    "simulate_championship",
    "stage_sizes",
    "table_from_standing",
]

P = TypeVar("P", bound=Hashable)
Translate = Callable[[str], str]
Key = tuple[float, ...]

# Rutupeli's tables (RULES.md): 3 to 6, preferably 4.
DEFAULT_BOUNDS = TableBounds(min_size=3, max_size=6, preferred=4)

# How many unsettled tables one message names before it says "and N more".
LISTED_TIES = 10


# -- what the director records ------------------------------------------------------------


class TieBreakMethod(enum.StrEnum):
    """How the director settled a tie (a fixed list; anything else is "other", with a note)."""

    PLAYOFF_DEAL = "playoff_deal"
    CARD_DRAW = "card_draw"
    COIN_TOSS = "coin_toss"
    OTHER = "other"

    @property
    def label(self) -> str:
        """The method in English words (a translation marker: show ``gettext(label)``)."""
        return _METHOD_LABELS[self]

    @classmethod
    def choices(cls) -> list[tuple[str, str]]:
        """(value, English label) pairs for a form's choice field, in the list's order."""
        return [(method.value, method.label) for method in cls]


_METHOD_LABELS = {
    TieBreakMethod.PLAYOFF_DEAL: _("play-off deal"),
    TieBreakMethod.CARD_DRAW: _("card draw"),
    TieBreakMethod.COIN_TOSS: _("coin toss"),
    TieBreakMethod.OTHER: _("other"),
}


@dataclass(frozen=True)
class TieBreak(Generic[P]):
    """A tie the director settled: ``order`` lists tied players, best first.

    ``order`` may list all the tied players or only the first of them (a card draw among
    three that only says who wins): the unlisted ones stay tied after the listed ones.
    Recorded on a table (:attr:`StageTable.tie_breaks`) it settles a shared place there; passed
    to :func:`advance` as ``stage_tie_breaks`` it settles a tie at the lucky losers' cut
    (players of equal place and key, usually of different tables).
    """

    method: TieBreakMethod
    order: tuple[P, ...]
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "method", TieBreakMethod(self.method))
        object.__setattr__(self, "order", tuple(self.order))
        if not self.order:
            raise RulesError("a tie-break must name at least one player")
        if len(set(self.order)) != len(self.order):
            raise RulesError(f"a tie-break names a player twice: {self.order!r}")

    @property
    def description(self) -> Phrase:
        """The method in words, with the director's note for "other" (or any note given)."""
        method, note = self.method, self.note.strip()

        def render(translate: Translate) -> str:
            words = translate(method.label)
            return f"{words}: {note}" if note else words

        return Phrase(render)


# -- a closed stage, as the service hands it over ----------------------------------------------


@dataclass(frozen=True)
class TablePlayer(Generic[P]):
    """One player of a table: ``player`` (an id), the ``name`` messages show, and ``key``.

    ``key`` is the player's result at the stage for comparing players of different tables,
    lower is better: for Rutupeli, the total, then the points of the last game, then minus
    the games won. Players the table's order leaves tied must have equal keys.
    """

    player: P
    name: str
    key: Key = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", tuple(self.key))


@dataclass(frozen=True)
class StageTable(Generic[P]):
    """A finished table: its players in the table's final order, grouped into places.

    ``places[0]`` holds the winner, or the players tied for the win by the game's own tie
    order; each later group is the next place. ``tie_breaks`` are the director's records for
    this table's ties. Use :meth:`from_order` or :func:`table_from_standing` to build one.
    """

    number: int
    places: tuple[tuple[TablePlayer[P], ...], ...]
    tie_breaks: tuple[TieBreak[P], ...] = ()

    def __post_init__(self) -> None:
        places = tuple(tuple(group) for group in self.places)
        object.__setattr__(self, "places", places)
        object.__setattr__(self, "tie_breaks", tuple(self.tie_breaks))
        if not places or any(not group for group in places):
            raise RulesError(f"table {self.number}: a table needs players, and a place a player")
        seen = [entry.player for group in places for entry in group]
        if len(set(seen)) != len(seen):
            raise RulesError(f"table {self.number}: a player sits twice")
        for group in places:
            if len({entry.key for entry in group}) > 1:
                raise RulesError(
                    f"table {self.number}: players tied for a place have different keys"
                )

    @classmethod
    def from_order(
        cls,
        number: int,
        order: Sequence[TablePlayer[P]],
        *,
        tie_breaks: Sequence[TieBreak[P]] = (),
    ) -> StageTable[P]:
        """A table from its players in final order, tied where consecutive keys are equal
        (right when the key holds the game's whole tie order)."""
        places: list[list[TablePlayer[P]]] = []
        for entry in order:
            if places and places[-1][0].key == entry.key:
                places[-1].append(entry)
            else:
                places.append([entry])
        return cls(number, tuple(tuple(g) for g in places), tuple(tie_breaks))

    @property
    def players(self) -> tuple[TablePlayer[P], ...]:
        """The table's players in its order (tied ones in the order given)."""
        return tuple(entry for group in self.places for entry in group)

    def __len__(self) -> int:
        return sum(len(group) for group in self.places)


def table_from_standing(
    *,
    number: int,
    players: Sequence[P],
    names: Sequence[str],
    standing: TableStanding,
    tie_breaks: Sequence[TieBreak[P]] = (),
    keys: Sequence[Key] | None = None,
) -> StageTable[P]:
    """A :class:`StageTable` from the engine's standing of a finished table.

    ``players`` and ``names`` are in seat order. The order is ``standing.ranking``; seats the
    game could not separate (``standing.extra["tie_unresolved"]``) share a place. ``keys``
    (per seat) default to the total (negated when higher is better): pass the game's whole
    tie order instead when players of different tables should be told apart by it too.
    """
    seats = len(standing.totals)
    if len(players) != seats or len(names) != seats:
        raise RulesError(f"table {number}: {seats} seats, {len(players)} players")
    if not standing.finished:
        raise RuleViolation(
            _("Table %(table)d has not finished its game yet."),
            code="table_not_finished",
            table=number,
        )
    if keys is None:
        sign = 1 if standing.lower_is_better else -1
        keys = [(sign * total,) for total in standing.totals]
    tied: dict[int, int] = {}
    unresolved = standing.extra.get("tie_unresolved", [])
    if isinstance(unresolved, list):
        for index, group in enumerate(unresolved):
            for seat in group if isinstance(group, list) else ():
                tied[seat] = index
    places: list[list[TablePlayer[P]]] = []
    previous: int | None = None
    for seat in standing.ranking:
        entry = TablePlayer(players[seat], names[seat], tuple(keys[seat]))
        group = tied.get(seat)
        if places and group is not None and group == previous:
            places[-1].append(entry)
        else:
            places.append([entry])
        previous = group
    return StageTable(number, tuple(tuple(g) for g in places), tuple(tie_breaks))


# -- what advance() answers ----------------------------------------------------------------


@dataclass(frozen=True)
class StagePlacing(Generic[P]):
    """A player's result at a stage: the table, the ``place`` there after the recorded
    tie-breaks (players still tied share the number, and ``shared`` says so), the stage
    result key, and the table tie-break that set the place, if one did."""

    player: P
    name: str
    key: Key
    table: int
    place: int
    shared: bool
    tie_break: TieBreak[P] | None = None

    @property
    def place_label(self) -> str:
        """The place as shown: ``"2"``, or ``"=2"`` when shared."""
        return place_text(self.place, self.shared)


class _Placed(Generic[P]):
    """A row about one player's placing: its player and name are the placing's."""

    placing: StagePlacing[P]

    @property
    def player(self) -> P:
        return self.placing.player

    @property
    def name(self) -> str:
        return self.placing.name


class Reason(enum.StrEnum):
    """Why a player goes on, or does not."""

    WON_TABLE = "won_table"
    PLACED = "placed"  # within the top K, not first
    TIE_BREAK = "tie_break"  # a recorded tie-break at the table put them within the top K
    LUCKY_LOSER = "lucky_loser"
    REPLACES_NO_SHOW = "replaces_no_show"
    KNOCKED_OUT = "knocked_out"
    LOST_TIE_BREAK = "lost_tie_break"
    NO_SHOW = "no_show"  # would have gone on, but will not play the next stage


@dataclass(frozen=True)
class Outcome(_Placed[P]):
    """Whether a player goes on from the stage, and why.

    ``tie_break`` is the recorded tie-break that decided it, when one did (at the table, or
    between tables for a lucky loser). ``replaces`` names the no-shows whose place a
    :attr:`Reason.REPLACES_NO_SHOW` player takes.
    """

    placing: StagePlacing[P]
    advances: bool
    reason: Reason
    tie_break: TieBreak[P] | None = None
    replaces: tuple[TablePlayer[P], ...] = ()

    @property
    def text(self) -> Phrase:
        """Why, in plain words for the preview and the public pages (``.text(gettext)``)."""
        placing, reason, tie_break = self.placing, self.reason, self.tie_break
        names = ", ".join(entry.name for entry in self.replaces)

        def render(translate: Translate) -> str:
            params: dict[str, object] = {
                "table": placing.table,
                "place": placing.place_label,
                "names": names,
            }
            # Won by a tie-break is still won: the sentence after it says how.
            won = reason is Reason.TIE_BREAK and placing.place == 1
            words = translate(_REASON_TEXTS[Reason.WON_TABLE if won else reason]) % params
            if tie_break is not None:
                decided = translate(_("Decided by a tie-break: %(method)s."))
                words += " " + decided % {"method": tie_break.description.text(translate)}
            return words

        return Phrase(render)


_REASON_TEXTS = {
    Reason.WON_TABLE: _("Won table %(table)d."),
    Reason.PLACED: _("Place %(place)s at table %(table)d."),
    Reason.TIE_BREAK: _("Place %(place)s at table %(table)d."),
    Reason.LUCKY_LOSER: _(
        "Lucky loser: place %(place)s at table %(table)d, among the best of those not going on."
    ),
    Reason.REPLACES_NO_SHOW: _(
        "Place %(place)s at table %(table)d; goes on in place of %(names)s, who will not play."
    ),
    Reason.KNOCKED_OUT: _("Place %(place)s at table %(table)d: out."),
    Reason.LOST_TIE_BREAK: _("Place %(place)s at table %(table)d: out."),
    Reason.NO_SHOW: _("Place %(place)s at table %(table)d; will not play the next stage."),
}


@dataclass(frozen=True)
class PendingTie(Generic[P]):
    """A tie the cut runs through: ``going_on`` of ``players`` go on, and the director must
    record who. ``table`` is the table to record it on; None for a tie at the lucky losers'
    cut (``lucky_losers``), recorded as a stage tie-break: its players may sit at different
    tables. ``final`` marks a tie for the championship itself."""

    table: int | None
    players: tuple[StagePlacing[P], ...]
    place: int
    going_on: int
    lucky_losers: bool = False
    final: bool = False

    @property
    def names(self) -> str:
        return ", ".join(placing.name for placing in self.players)


@dataclass(frozen=True)
class Advancement(Generic[P]):
    """Who goes on from a stage and why, who is out, and whether the championship is over.

    ``advancers`` are in stage-ranking order, the table qualifiers first, then the lucky
    losers. ``eliminated`` are in stage-ranking order. ``ranking`` is the stage ranking as
    groups of players still equal after every tie-break. ``next_sizes`` are the next stage's
    table sizes (empty once over). ``champion`` is set when one player goes on.
    """

    advancers: tuple[Outcome[P], ...]
    eliminated: tuple[Outcome[P], ...]
    ranking: tuple[tuple[StagePlacing[P], ...], ...]
    next_sizes: tuple[int, ...]
    champion: P | None
    table_count: int
    lucky_losers: int = 0

    @property
    def over(self) -> bool:
        """Whether the championship ends with this stage."""
        return self.champion is not None

    @property
    def players(self) -> tuple[P, ...]:
        """The players going on, in :attr:`advancers` order."""
        return tuple(outcome.player for outcome in self.advancers)

    @property
    def entrants(self) -> int:
        """How many played this stage."""
        return len(self.advancers) + len(self.eliminated)

    @cached_property
    def _by_player(self) -> dict[P, Outcome[P]]:
        return {outcome.player: outcome for outcome in (*self.advancers, *self.eliminated)}

    def outcome(self, player: P) -> Outcome[P]:
        """The outcome of ``player`` (KeyError for someone who did not play the stage)."""
        return self._by_player[player]


# -- seating a stage ---------------------------------------------------------------------------


def stage_sizes(players: int, bounds: TableBounds = DEFAULT_BOUNDS) -> list[int]:
    """The table sizes of a championship stage of ``players``.

    Players that fit one table (2 up to ``bounds.max_size``) play one table, the final, even
    fewer than ``bounds.min_size`` (a final of two); more are split by
    :func:`tournaments.engine.draw.table_sizes`. Fewer than two is no stage: :class:`RuleViolation`.
    """
    if players < 2:
        raise RuleViolation(
            ngettext(
                "%(players)d player checked in; a championship needs at least 2.",
                "%(players)d players checked in; a championship needs at least 2.",
                players,
            ),
            code="championship_too_few",
            players=players,
        )
    if players <= bounds.max_size:
        return [players]
    return table_sizes(players, bounds)


def draw_stage(players: Sequence[P], *, bounds: TableBounds, seed: int) -> list[list[P]]:
    """Draw a championship stage (the first, or any later one) with ``seed``.

    The seating is :func:`tournaments.engine.draw.draw_tables`'s (same seed, same draw, whatever the
    input order), on the sizes of :func:`stage_sizes`.
    """
    sizes = stage_sizes(len(players), bounds)
    if len(sizes) == 1:
        # One table of whoever is left: the draw only orders the seats (who deals first).
        return draw_tables(players, TableBounds(sizes[0], sizes[0], sizes[0]), seed=seed)
    return draw_tables(players, bounds, seed=seed)


def next_stage(advancement: Advancement[P], *, bounds: TableBounds, seed: int) -> list[list[P]]:
    """The next stage's tables, drawn with ``seed`` from the players going on.

    Pass the bounds given to :func:`advance` (its ``next_sizes`` are what this draws).
    """
    if advancement.over:
        raise RulesError("the championship is over: there is no next stage")
    tables = draw_stage(advancement.players, bounds=bounds, seed=seed)
    if tuple(len(table) for table in tables) != advancement.next_sizes:
        raise RulesError("next_stage was given other bounds than advance")
    return tables


def lucky_loser_target(advancers: int, entrants: int, bounds: TableBounds) -> int:
    """How many play the next stage when lucky losers are on.

    The smallest count of at least ``advancers`` that seats everyone at tables of exactly
    the preferred size (held within the bounds): 7 winners → 8, 9 → 12, 2 → 4. Two
    exceptions keep every stage shorter than the last: advancers that already fit one
    table of at least the preferred size play it as the final as they are (5 → 5), and a
    count that would bring back every player of the stage (``entrants``) adds nobody.
    A single advancer is the champion: nobody is added.
    """
    size = min(max(bounds.preferred, bounds.min_size), bounds.max_size)
    if advancers <= 1 or size <= advancers <= bounds.max_size:
        return advancers
    target = -(-advancers // size) * size
    return target if target < entrants else advancers


# -- advancing -----------------------------------------------------------------------------


@dataclass
class _Seat(Generic[P]):
    """A player's working record while a stage is judged."""

    placing: StagePlacing[P]
    table_index: int
    group: int  # the index of the place group before the table's tie-breaks
    worst: int  # the lowest position the player's (resolved) shared place spans, from 1
    no_show: bool
    advances: bool = False
    reason: Reason = Reason.KNOCKED_OUT
    tie_break: TieBreak[P] | None = None
    replaces: tuple[TablePlayer[P], ...] = ()


@dataclass
class _Judged(Generic[P]):
    seats: list[_Seat[P]]
    table_ties: list[PendingTie[P]]
    lucky_tie: PendingTie[P] | None = None
    ranking: list[tuple[list[_Seat[P]], TieBreak[P] | None, int]] = field(default_factory=list)
    lucky: list[_Seat[P]] = field(default_factory=list)


def _stale(table: int | None, tie_break: TieBreak[P], names: Mapping[P, str]) -> RuleViolation:
    players = ", ".join(names.get(player, str(player)) for player in tie_break.order)
    if table is None:
        return RuleViolation(
            _(
                "The tie-break recorded between %(players)s does not match a tie between "
                "them (any more): record it again."
            ),
            code="tie_break_stale",
            players=players,
        )
    return RuleViolation(
        _(
            "Table %(table)d: the tie-break recorded for %(players)s does not match a tie at "
            "the table (any more): record it again."
        ),
        code="tie_break_stale",
        table=table,
        players=players,
    )


def _split(
    groups: Sequence[Sequence[P]],
    tie_breaks: Sequence[TieBreak[P]],
    table: int | None,
    names: Mapping[P, str],
) -> list[tuple[list[P], TieBreak[P] | None, int]]:
    """Apply ``tie_breaks`` to tied ``groups``: (players, the tie-break that set their place,
    the index of the group they came from) for each place, best first."""
    group_of = {player: index for index, group in enumerate(groups) for player in group}
    chosen: dict[int, TieBreak[P]] = {}
    for tie_break in tie_breaks:
        indexes = {group_of.get(player) for player in tie_break.order}
        index = indexes.pop() if len(indexes) == 1 else None
        if index is None or len(groups[index]) < 2:
            raise _stale(table, tie_break, names)
        if index in chosen:
            raise RuleViolation(
                _(
                    "Two tie-breaks are recorded for the same tie (%(players)s): keep one "
                    "and remove the other."
                ),
                code="tie_break_twice",
                table=table,
                players=", ".join(names[player] for player in groups[index]),
            )
        chosen[index] = tie_break
    out: list[tuple[list[P], TieBreak[P] | None, int]] = []
    for index, group in enumerate(groups):
        settled = chosen.get(index)
        if settled is None:
            out.append((list(group), None, index))
            continue
        out.extend(([player], settled, index) for player in settled.order)
        listed = set(settled.order)
        rest = [player for player in group if player not in listed]
        if rest:
            out.append((rest, settled, index))
    return out


def _judge_tables(
    stage_tables: Sequence[StageTable[P]], top_k: int, no_shows: Collection[P]
) -> _Judged[P]:
    final = len(stage_tables) == 1
    # The final's winner is the champion: nobody plays after it, so nobody is a no-show.
    absent: Collection[P] = frozenset() if final else no_shows
    cut = 1 if final else top_k
    seats: list[_Seat[P]] = []
    ties: list[PendingTie[P]] = []
    numbers: set[int] = set()
    everyone: set[P] = set()
    for table_index, table in enumerate(stage_tables):
        if table.number in numbers:
            raise RulesError(f"table number {table.number} appears twice")
        numbers.add(table.number)
        if not final and len(table) <= top_k:
            raise RuleViolation(
                ngettext(
                    "Table %(table)d seats %(size)d player, but the top %(top_k)d of each "
                    "table go on: nobody would be knocked out there.",
                    "Table %(table)d seats %(size)d players, but the top %(top_k)d of each "
                    "table go on: nobody would be knocked out there.",
                    len(table),
                ),
                code="top_k_too_large",
                table=table.number,
                size=len(table),
                top_k=top_k,
            )
        entries = {entry.player: entry for entry in table.players}
        if everyone & entries.keys():
            raise RulesError(f"table {table.number}: a player also sits at another table")
        everyone.update(entries)
        names = {player: entry.name for player, entry in entries.items()}
        places = _split(
            [[entry.player for entry in group] for group in table.places],
            table.tie_breaks,
            table.number,
            names,
        )
        own: list[_Seat[P]] = []
        position = 1
        for players, tie_break, group in places:
            for player in players:
                entry = entries[player]
                placing = StagePlacing(
                    player=player,
                    name=entry.name,
                    key=entry.key,
                    table=table.number,
                    place=position,
                    shared=len(players) > 1,
                    tie_break=tie_break,
                )
                own.append(
                    _Seat(
                        placing=placing,
                        table_index=table_index,
                        group=group,
                        worst=position + len(players) - 1,
                        no_show=player in absent,
                    )
                )
            position += len(players)
        tie = _cut_table(own, cut)
        if tie is not None:
            ties.append(dataclasses.replace(tie, final=final))
        seats.extend(own)
    return _Judged(seats=seats, table_ties=ties)


def _cut_table(own: list[_Seat[P]], cut: int) -> PendingTie[P] | None:
    """Mark the top ``cut`` of a table who will play on; a shared place the cut runs
    through is returned as pending (and nobody of it is marked)."""
    playing = [seat for seat in own if not seat.no_show]
    taken = 0
    index = 0
    while index < len(playing) and taken < cut:
        place = playing[index].placing.place
        group = [seat for seat in playing[index:] if seat.placing.place == place]
        if taken + len(group) > cut:
            return PendingTie(
                table=group[0].placing.table,
                players=tuple(seat.placing for seat in group),
                place=place,
                going_on=cut - taken,
            )
        for seat in group:
            seat.advances = True
        taken += len(group)
        index += len(group)
    no_shows = tuple(
        TablePlayer(seat.placing.player, seat.placing.name, seat.placing.key)
        for seat in own
        if seat.no_show and seat.placing.place <= cut
    )
    # A tie-break decided who goes on when it split a tied group the cut runs through.
    decided = {
        seat.group
        for seat in playing
        if seat.placing.tie_break is not None
        and {s.advances for s in playing if s.group == seat.group} == {True, False}
    }
    for seat in own:
        split = seat.group in decided and not seat.no_show
        if seat.advances:
            if seat.worst > cut:
                seat.reason, seat.replaces = Reason.REPLACES_NO_SHOW, no_shows
            elif split:
                seat.reason = Reason.TIE_BREAK
            else:
                seat.reason = Reason.WON_TABLE if seat.placing.place == 1 else Reason.PLACED
        elif seat.no_show and seat.placing.place <= cut:
            seat.reason = Reason.NO_SHOW
        else:
            seat.reason = Reason.LOST_TIE_BREAK if split else Reason.KNOCKED_OUT
        if split:
            seat.tie_break = seat.placing.tie_break
    return None


def _rank_stage(
    judged: _Judged[P], stage_tie_breaks: Sequence[TieBreak[P]]
) -> list[tuple[list[_Seat[P]], TieBreak[P] | None, int]]:
    """The stage ranking: place at the table, then the key, then the stage tie-breaks; each
    group with the stage tie-break that set it and the index of the group it came from."""
    # sorted() is stable: tied players of one table keep the table's order.
    order = sorted(judged.seats, key=lambda s: (s.placing.place, s.placing.key, s.table_index))
    groups: list[list[_Seat[P]]] = []
    for seat in order:
        last = groups[-1][0].placing if groups else None
        if last is not None and (last.place, last.key) == (seat.placing.place, seat.placing.key):
            groups[-1].append(seat)
        else:
            groups.append([seat])
    if not stage_tie_breaks:
        return [(group, None, index) for index, group in enumerate(groups)]
    by_player = {seat.placing.player: seat for seat in judged.seats}
    names = {player: seat.placing.name for player, seat in by_player.items()}
    split = _split(
        [[seat.placing.player for seat in group] for group in groups],
        stage_tie_breaks,
        None,
        names,
    )
    return [
        ([by_player[player] for player in players], tie_break, index)
        for players, tie_break, index in split
    ]


def _choose_lucky(
    ranking: list[tuple[list[_Seat[P]], TieBreak[P] | None, int]], wanted: int
) -> tuple[list[_Seat[P]], PendingTie[P] | None]:
    """Mark the ``wanted`` best of those not going on, by the stage ranking, as lucky
    losers; a group of equals the count runs through is returned as pending instead."""
    candidates = [
        ([seat for seat in group if not seat.advances and not seat.no_show], tie_break, index)
        for group, tie_break, index in ranking
    ]
    candidates = [candidate for candidate in candidates if candidate[0]]
    if sum(len(group) for group, _tb, _index in candidates) < wanted:
        return [], None
    chosen: list[_Seat[P]] = []
    for group, _tie_break, _index in candidates:
        if len(chosen) == wanted:
            break
        if len(chosen) + len(group) > wanted:
            # Players of different tables, or of one table, with equal results: a stage
            # tie-break settles it either way (it may not be settled on the table, whose
            # own tie-break may already be recorded for another cut).
            return [], PendingTie(
                table=None,
                players=tuple(seat.placing for seat in group),
                place=group[0].placing.place,
                going_on=wanted - len(chosen),
                lucky_losers=True,
            )
        chosen.extend(group)
    for seat in chosen:
        seat.advances, seat.reason, seat.replaces, seat.tie_break = (
            True,
            Reason.LUCKY_LOSER,
            (),
            None,
        )
    # A stage tie-break decided for those it split between chosen and passed over.
    origin: dict[int, list[_Seat[P]]] = {}
    for group, tie_break, index in candidates:
        if tie_break is not None:
            origin.setdefault(index, []).extend(group)
    for index, seats in origin.items():
        if {seat.advances for seat in seats} != {True, False}:
            continue
        decided = next(tb for group, tb, i in candidates if i == index and tb is not None)
        for seat in seats:
            seat.tie_break = decided
            if not seat.advances:
                seat.reason = Reason.LOST_TIE_BREAK
    return chosen, None


def _judge(
    stage_tables: Sequence[StageTable[P]],
    *,
    top_k: int,
    bounds: TableBounds,
    lucky_losers: bool,
    no_shows: Collection[P],
    stage_tie_breaks: Sequence[TieBreak[P]],
) -> _Judged[P]:
    if top_k < 1:
        raise RulesError(f"top_k must be at least 1, not {top_k}")
    if not stage_tables:
        raise RulesError("a stage needs at least one table")
    judged = _judge_tables(stage_tables, top_k, no_shows)
    if judged.table_ties:
        return judged
    judged.ranking = _rank_stage(judged, stage_tie_breaks)
    advancers = sum(seat.advances for seat in judged.seats)
    if lucky_losers and len(stage_tables) > 1:
        target = lucky_loser_target(advancers, len(judged.seats), bounds)
        if target > advancers:
            judged.lucky, judged.lucky_tie = _choose_lucky(judged.ranking, target - advancers)
    return judged


def pending_ties(
    stage_tables: Sequence[StageTable[P]],
    *,
    top_k: int = 1,
    bounds: TableBounds = DEFAULT_BOUNDS,
    lucky_losers: bool = False,
    no_shows: Collection[P] = frozenset(),
    stage_tie_breaks: Sequence[TieBreak[P]] = (),
) -> tuple[PendingTie[P], ...]:
    """The ties the director must still settle before :func:`advance` can answer.

    The tables' ties come first; the lucky losers' cut is only known once they are settled
    (which players are not going on depends on them), so a tie there is reported then. The
    arguments are :func:`advance`'s.
    """
    judged = _judge(
        stage_tables,
        top_k=top_k,
        bounds=bounds,
        lucky_losers=lucky_losers,
        no_shows=no_shows,
        stage_tie_breaks=stage_tie_breaks,
    )
    return _pending(judged)


def _pending(judged: _Judged[P]) -> tuple[PendingTie[P], ...]:
    # The tables' ties first: the lucky losers' cut is known only once they are settled.
    if judged.table_ties:
        return tuple(judged.table_ties)
    return (judged.lucky_tie,) if judged.lucky_tie is not None else ()


def _unresolved(ties: Sequence[PendingTie[P]]) -> RuleViolation:
    first = ties[0]
    if first.lucky_losers:
        return RuleViolation(
            ngettext(
                "Lucky losers: %(players)s have the same result, and only %(count)d of them "
                "can go on. Record the tie-break between them before closing the stage.",
                "Lucky losers: %(players)s have the same result, and only %(count)d of them "
                "can go on. Record the tie-break between them before closing the stage.",
                first.going_on,
            ),
            code="lucky_loser_tie_unresolved",
            table=first.table,
            players=first.names,
            count=first.going_on,
        )
    if first.final:
        return RuleViolation(
            _(
                "The final: %(players)s are tied for the win. Record the tie-break (play-off "
                "deal, card draw, coin toss or other) before closing the championship."
            ),
            code="tie_unresolved",
            table=first.table,
            players=first.names,
            place=first.place,
            tables=[first.table],
        )
    if len(ties) == 1:
        return RuleViolation(
            _(
                "Table %(table)d: %(players)s are tied for place %(place)d, and the cut to go "
                "on runs through it. Record the tie-break (play-off deal, card draw, coin toss "
                "or other) before closing the stage."
            ),
            code="tie_unresolved",
            table=first.table,
            players=first.names,
            place=first.place,
            tables=[first.table],
        )
    # A long list would bury the message: the first tables, and how many more.
    listed = [(tie.table, tie.names) for tie in ties[:LISTED_TIES]]
    more = len(ties) - len(listed)

    def render(translate: Translate) -> str:
        each = translate(_("table %(table)d: %(players)s"))
        text = "; ".join(each % {"table": table, "players": names} for table, names in listed)
        if more:
            text += "; " + translate(_("and %(more)d more")) % {"more": more}
        return text

    return RuleViolation(
        ngettext(
            "%(count)d table has a tie the cut to go on runs through (%(ties)s). Record the "
            "tie-break for each before closing the stage.",
            "%(count)d tables have ties the cut to go on runs through (%(ties)s). Record the "
            "tie-break for each before closing the stage.",
            len(ties),
        ),
        code="tie_unresolved",
        count=len(ties),
        ties=Phrase(render),
        table=first.table,
        players=first.names,
        tables=[tie.table for tie in ties],
    )


def advance(
    stage_tables: Sequence[StageTable[P]],
    *,
    top_k: int = 1,
    bounds: TableBounds = DEFAULT_BOUNDS,
    lucky_losers: bool = False,
    no_shows: Collection[P] = frozenset(),
    stage_tie_breaks: Sequence[TieBreak[P]] = (),
) -> Advancement[P]:
    """Judge a closed stage: who goes on and why, who is out, and whether it is the end.

    ``top_k`` players of each table go on (1 at a stage of one table, the final).
    ``no_shows`` are players who will not play the next stage: none of them goes on, and
    each is replaced by the next player of their table (at the final they are ignored).
    With ``lucky_losers`` the next stage is filled by :func:`lucky_loser_target`.
    ``stage_tie_breaks`` settle ties between players of different tables at the lucky
    losers' cut. ``bounds`` seat the next stage (:func:`stage_sizes`).

    Refuses (:class:`RuleViolation`): a tie the cut runs through without a recorded
    tie-break (``"tie_unresolved"``, naming every such table and its tied players, or
    ``"lucky_loser_tie_unresolved"``), a tie-break that matches no tie (``"tie_break_stale"``,
    ``"tie_break_twice"``), a table no bigger than ``top_k`` (``"top_k_too_large"``),
    nobody left to go on (``"nobody_advances"``), players going on who cannot be seated
    (``"stage_unseatable"``).
    """
    judged = _judge(
        stage_tables,
        top_k=top_k,
        bounds=bounds,
        lucky_losers=lucky_losers,
        no_shows=no_shows,
        stage_tie_breaks=stage_tie_breaks,
    )
    ties = _pending(judged)
    if ties:
        raise _unresolved(ties)
    lucky = {id(seat) for seat in judged.lucky}
    ordered = [seat for group, _tb, _index in judged.ranking for seat in group]
    outcomes = {
        id(seat): Outcome(
            placing=seat.placing,
            advances=seat.advances,
            reason=seat.reason,
            tie_break=seat.tie_break,
            replaces=seat.replaces,
        )
        for seat in ordered
    }
    advancers = [outcomes[id(s)] for s in ordered if s.advances and id(s) not in lucky]
    advancers += [outcomes[id(s)] for s in ordered if id(s) in lucky]
    eliminated = [outcomes[id(s)] for s in ordered if not s.advances]
    if not advancers:
        raise RuleViolation(
            _(
                "Nobody would play the next stage: every player who could go on is marked "
                "as not coming."
            ),
            code="nobody_advances",
        )
    champion = advancers[0].player if len(advancers) == 1 else None
    sizes: tuple[int, ...] = ()
    if champion is None:
        try:
            sizes = tuple(stage_sizes(len(advancers), bounds))
        except RuleViolation as error:
            raise RuleViolation(
                _(
                    "The %(players)d players going on cannot be seated at tables of %(min)d "
                    "to %(max)d: turn on lucky losers or change the table sizes."
                ),
                code="stage_unseatable",
                players=len(advancers),
                min=bounds.min_size,
                max=bounds.max_size,
            ) from error
    return Advancement(
        advancers=tuple(advancers),
        eliminated=tuple(eliminated),
        ranking=tuple(
            tuple(seat.placing for seat in group) for group, _tb, _index in judged.ranking
        ),
        next_sizes=sizes,
        champion=champion,
        table_count=len(stage_tables),
        lucky_losers=len(judged.lucky),
    )


# -- the final ranking -----------------------------------------------------------------------


@dataclass(frozen=True)
class RankedPlayer(_Placed[P]):
    """A row of a championship's final ranking.

    ``place`` counts the players ahead (two at "=5" are followed by 7); ``stage`` is the
    last stage the player played (from 1), ``placing`` their result there.
    """

    place: int
    shared: bool
    stage: int
    champion: bool
    placing: StagePlacing[P]

    @property
    def label(self) -> str:
        """The place as shown: ``"5"``, or ``"=5"`` when shared."""
        return place_text(self.place, self.shared)


def final_ranking(stages: Sequence[Advancement[P]]) -> tuple[RankedPlayer[P], ...]:
    """The championship's final ranking from every stage's :class:`Advancement`, in order.

    The champion first; then by the last stage each player played (later is better); then
    by that stage's ranking (place at the table, the key, a recorded tie-break). Players
    equal on all of it share their place. The last stage must have ended the championship.
    """
    if not stages or not stages[-1].over:
        raise RulesError("the final ranking needs the stages of a finished championship")
    return championship_ranking([stage.ranking for stage in stages], stages[-1].champion)


def championship_ranking(
    rankings: Sequence[Sequence[Sequence[StagePlacing[P]]]], champion: P | None = None
) -> tuple[RankedPlayer[P], ...]:
    """The championship's ranking from each stage's ranking (its groups of equal placings,
    best first), in stage order; the last may be the stage still in play: the final
    ranking once the champion is known, the ranking so far before (`final_ranking`)."""
    # player → (stage number, group in that stage's ranking, position in it, placing): the
    # last stage a player played overwrites the earlier ones.
    last: dict[P, tuple[int, int, int, StagePlacing[P]]] = {}
    for number, ranking in enumerate(rankings, start=1):
        position = 0
        for index, group in enumerate(ranking):
            for placing in group:
                last[placing.player] = (number, index, position, placing)
                position += 1

    def standing(player: P) -> tuple[int, int, int]:
        """What the ranking compares: equal means a shared place."""
        number, index, _position, _placing = last[player]
        return (0, 0, 0) if player == champion else (1, -number, index)

    # Within a shared place, the stage ranking's own order (table, then seat): stable, shown.
    order = sorted(last, key=lambda player: (standing(player), last[player][2]))
    counts: dict[tuple[int, int, int], int] = {}
    for player in order:
        counts[standing(player)] = counts.get(standing(player), 0) + 1
    rows: list[RankedPlayer[P]] = []
    previous: tuple[int, int, int] | None = None
    place = 0
    for position, player in enumerate(order, start=1):
        now = standing(player)
        if now != previous:
            place, previous = position, now
        number, _index, _position, placing = last[player]
        rows.append(
            RankedPlayer(
                place=place,
                shared=counts[now] > 1,
                stage=number,
                champion=player == champion,
                placing=placing,
            )
        )
    return tuple(rows)


# -- a simulator, for the tests, the bench and the demo ------------------------------------------


@dataclass(frozen=True)
class SimulatedStage:
    """One simulated stage: the seating drawn, the tables' results, the advancement."""

    seating: tuple[tuple[int, ...], ...]
    tables: tuple[StageTable[int], ...]
    no_shows: frozenset[int]
    stage_tie_breaks: tuple[TieBreak[int], ...]
    advancement: Advancement[int]


@dataclass(frozen=True)
class SimulatedChampionship:
    """A whole simulated championship: its entrants (0..N-1), stages and final ranking."""

    entrants: tuple[int, ...]
    stages: tuple[SimulatedStage, ...]
    ranking: tuple[RankedPlayer[int], ...]

    @property
    def champion(self) -> int:
        champion = self.stages[-1].advancement.champion
        assert champion is not None
        return champion


def _simulate_table(
    number: int,
    players: Sequence[int],
    names: Sequence[str],
    rng: random.Random,
    tie_at: int | None,
) -> StageTable[int]:
    # Totals from few values, so that ties happen by themselves too (lower is better).
    totals = {player: rng.randrange(13) * 5 for player in players}
    order = sorted(players, key=lambda p: (totals[p], rng.random()))
    if tie_at is not None and tie_at < len(order):
        # A tie the cut runs through, on purpose: the players either side of it level.
        totals[order[tie_at]] = totals[order[tie_at - 1]]
        order = sorted(players, key=lambda p: (totals[p], rng.random()))
    entries = [TablePlayer(p, names[p], (totals[p],)) for p in order]
    return StageTable.from_order(number, entries)


def _record(tie: PendingTie[int], rng: random.Random) -> TieBreak[int]:
    players = [placing.player for placing in tie.players]
    rng.shuffle(players)
    method = rng.choice(list(TieBreakMethod))
    # Sometimes only who goes on is recorded and the rest stay tied, as a card draw may.
    listed = players if rng.random() < 0.5 else players[: tie.going_on]
    return TieBreak(method, tuple(listed), "simulated" if method is TieBreakMethod.OTHER else "")


def simulate_championship(
    entrants: int,
    *,
    top_k: int = 1,
    bounds: TableBounds = DEFAULT_BOUNDS,
    seed: int = 0,
    lucky_losers: bool = False,
    no_show_rate: float = 0.0,
    names: Sequence[str] | None = None,
) -> SimulatedChampionship:
    """Play a whole championship of ``entrants`` (players 0..N-1) with seeded random results.

    Every stage has at least one tie the cut runs through (and others by chance), each
    settled by a random recorded tie-break, as is any tie at the lucky losers' cut. With
    ``no_show_rate``, each table of a stage but the final has that chance of one of its
    players not coming to the next. The same arguments give the same championship.
    """
    rng = random.Random(seed)
    shown = list(names) if names is not None else [f"Player {i + 1}" for i in range(entrants)]
    players = list(range(entrants))
    stages: list[SimulatedStage] = []
    seating = draw_stage(players, bounds=bounds, seed=rng.randrange(2**31))
    while True:
        final = len(seating) == 1
        cut = 1 if final else top_k
        absent: set[int] = set()
        if not final and no_show_rate:
            absent = {rng.choice(seat) for seat in seating if rng.random() < no_show_rate}
        # The table tied on purpose has no no-show, so the cut surely runs through the tie.
        forced = rng.randrange(len(seating))
        absent -= set(seating[forced])
        tables = [
            _simulate_table(
                number,
                seat,
                shown,
                rng,
                cut if number == forced + 1 or rng.random() < 0.3 else None,
            )
            for number, seat in enumerate(seating, start=1)
        ]
        stage_tie_breaks: list[TieBreak[int]] = []
        # Table ties, then (once they are settled) a lucky losers' tie: two rounds at most.
        for _round in range(3):
            ties = pending_ties(
                tables,
                top_k=top_k,
                bounds=bounds,
                lucky_losers=lucky_losers,
                no_shows=frozenset(absent),
                stage_tie_breaks=stage_tie_breaks,
            )
            for tie in ties:
                if tie.table is None:
                    stage_tie_breaks.append(_record(tie, rng))
                    continue
                table = tables[tie.table - 1]
                tables[tie.table - 1] = StageTable(
                    table.number, table.places, (*table.tie_breaks, _record(tie, rng))
                )
        advancement = advance(
            tables,
            top_k=top_k,
            bounds=bounds,
            lucky_losers=lucky_losers,
            no_shows=frozenset(absent),
            stage_tie_breaks=stage_tie_breaks,
        )
        stages.append(
            SimulatedStage(
                seating=tuple(tuple(seat) for seat in seating),
                tables=tuple(tables),
                no_shows=frozenset(absent),
                stage_tie_breaks=tuple(stage_tie_breaks),
                advancement=advancement,
            )
        )
        if advancement.over:
            break
        if len(advancement.players) >= sum(len(table) for table in seating):
            raise RulesError("a stage knocked nobody out: the championship would never end")
        seating = next_stage(advancement, bounds=bounds, seed=rng.randrange(2**31))
    return SimulatedChampionship(
        entrants=tuple(players),
        stages=tuple(stages),
        ranking=final_ranking([stage.advancement for stage in stages]),
    )
