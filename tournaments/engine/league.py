"""A season's league table: every event's results, one ranking, by the club's scheme.

Pure functions over frozen values, no models and no Django (like
:mod:`tournaments.engine.advancement`): a service loads a season's results as
:class:`EventResult` values and shows :func:`league_table`'s rows; the scheme is stored
with the season as :meth:`LeagueScheme.to_dict`.

The rules, as a club would say them:

* ``placement``: each event awards points by the place there, from an editable table
  (``points``, for places 1, 2, ...; places past its end score 0). Higher is better.
  With ``scale_by_table`` a table of ``n`` seats scales its first ``n`` entries so that
  their average equals the average of the whole table: a 3-seat table's winner gets more
  than ``points[0]`` when the table is longer than 3, and every table size hands out the
  same points per seat on average. The scaled points are rounded to two decimals.
* ``penalty_total``: the sum of the penalty totals of the counted events. Lower is better.
* ``average``: penalty points per game over the counted events (their totals over their
  games). Lower is better.
* ``best_n`` counts only a player's best ``best_n`` events (by the event's own score: most
  points, or fewest penalties / fewest per game; equal ones go by date, earlier first).
  The others are dropped and shown struck through.
* A player with fewer than ``min_events`` events is listed after the ranked players,
  unranked and without a place.
* Players equal on the score go by ``tie_order``, in its order: ``events_won`` (more
  counted events won, i.e. place 1), ``best_result`` (the better best place at a counted
  event), ``more_events`` (more events played). Players equal on all of it share their
  place ("=3"); each row names what set it apart from the row above.

    >>> from datetime import date
    >>> day = date(2026, 1, 1)
    >>> results = [
    ...     EventResult(1, day, "Aino", place=1, table_size=4, total=40, games=4),
    ...     EventResult(1, day, "Bertta", place=2, table_size=4, total=60, games=4),
    ...     EventResult(2, day, "Bertta", place=1, table_size=4, total=20, games=4),
    ...     EventResult(2, day, "Aino", place=2, table_size=4, total=30, games=4),
    ... ]
    >>> scheme = LeagueScheme(points=(10, 7, 5, 3), tie_order=(TieOrder.BEST_RESULT,))
    >>> [(row.player, row.place_label, row.points, row.decided_by) for row in
    ...  league_table(results, scheme)]
    [('Aino', '=1', 17.0, None), ('Bertta', '=1', 17.0, None)]
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Generic, TypeVar

from core.places import place_text
from rules.errors import RulesError, RuleViolation, token_text
from rules.i18n import _

__all__ = [
    "EventResult",
    "LeagueCell",
    "LeagueKind",
    "LeagueRow",
    "LeagueScheme",
    "TieOrder",
    "decider_label",
    "event_points",
    "league_table",
]

P = TypeVar("P", bound=Hashable)

# What decided a place when the score itself did: the row's ``decided_by``.
SCORE = "score"


class LeagueKind(enum.StrEnum):
    """How a season's events add up to one score."""

    PLACEMENT = "placement"
    PENALTY_TOTAL = "penalty_total"
    AVERAGE = "average"


class TieOrder(enum.StrEnum):
    """The tie-breaks a club may list, applied in the order it lists them."""

    EVENTS_WON = "events_won"
    BEST_RESULT = "best_result"
    MORE_EVENTS = "more_events"

    @property
    def label(self) -> str:
        """The tie-break in English words (a translation marker: show ``gettext(label)``)."""
        return _DECIDER_LABELS[self.value]

    @classmethod
    def choices(cls) -> list[tuple[str, str]]:
        """(value, English label) pairs for a form's choice field, in the list's order."""
        return [(tie.value, tie.label) for tie in cls]


_DECIDER_LABELS = {
    SCORE: _("score"),
    TieOrder.EVENTS_WON.value: _("events won"),
    TieOrder.BEST_RESULT.value: _("best result"),
    TieOrder.MORE_EVENTS.value: _("more events"),
}


def decider_label(decided_by: str) -> str:
    """What a row's ``decided_by`` names, in English words (a translation marker)."""
    return _DECIDER_LABELS[decided_by]


def _bad(template: str, field: str, **params: object) -> RuleViolation:
    return RuleViolation(template, code="bad_league_scheme", field=field, **params)


@dataclass(frozen=True)
class LeagueScheme:
    """The club's rule for a season's table (see the module's text for what each part means)."""

    kind: LeagueKind = LeagueKind.PLACEMENT
    points: tuple[int, ...] = (10, 7, 5, 3, 1)
    scale_by_table: bool = False
    best_n: int | None = None
    min_events: int = 0
    tie_order: tuple[TieOrder, ...] = (
        TieOrder.EVENTS_WON,
        TieOrder.BEST_RESULT,
        TieOrder.MORE_EVENTS,
    )

    def __post_init__(self) -> None:
        try:
            kind = LeagueKind(self.kind)
        except ValueError:
            raise _bad(
                _("Unknown kind of league table: %(value)s."), "kind", value=token_text(self.kind)
            ) from None
        object.__setattr__(self, "kind", kind)
        points = tuple(self.points) if isinstance(self.points, list | tuple) else None
        if points is None or not all(_is_int(p) and p >= 0 for p in points):
            raise _bad(_("Points per place must be whole numbers, 0 or more."), "points")
        if kind is LeagueKind.PLACEMENT and not points:
            raise _bad(_("Give the points for at least the first place."), "points")
        if any(later > earlier for earlier, later in itertools.pairwise(points)):
            raise _bad(_("A place may not score more than the place above it."), "points")
        object.__setattr__(self, "points", points)
        if not isinstance(self.scale_by_table, bool):
            raise _bad(_("Scaling by table size is either on or off."), "scale_by_table")
        if self.best_n is not None and not (_is_int(self.best_n) and self.best_n >= 1):
            raise _bad(_("Best events counted must be 1 or more, or empty for all."), "best_n")
        if not (_is_int(self.min_events) and self.min_events >= 0):
            raise _bad(_("The minimum number of events must be 0 or more."), "min_events")
        if not isinstance(self.tie_order, list | tuple):
            raise _bad(
                _("Unknown tie-break: %(value)s."), "tie_order", value=token_text(self.tie_order)
            )
        order: list[TieOrder] = []
        for value in self.tie_order:
            try:
                tie = TieOrder(value)
            except ValueError:
                raise _bad(
                    _("Unknown tie-break: %(value)s."), "tie_order", value=token_text(value)
                ) from None
            if tie in order:
                raise _bad(
                    _("A tie-break is listed twice: %(value)s."),
                    "tie_order",
                    value=token_text(value),
                )
            order.append(tie)
        object.__setattr__(self, "tie_order", tuple(order))

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form, as stored with the season."""
        return {
            "kind": self.kind.value,
            "points": list(self.points),
            "scale_by_table": self.scale_by_table,
            "best_n": self.best_n,
            "min_events": self.min_events,
            "tie_order": [tie.value for tie in self.tie_order],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> LeagueScheme:
        """The scheme :meth:`to_dict` wrote; missing keys take the defaults, unknown refused."""
        if not isinstance(data, Mapping):
            raise _bad(_("A league scheme must be a set of named settings."), "scheme")
        known = {"kind", "points", "scale_by_table", "best_n", "min_events", "tie_order"}
        for key in data:
            if key not in known:
                raise _bad(_("Unknown league setting: %(value)s."), "scheme", value=token_text(key))
        return cls(**data)  # type: ignore[arg-type]  # __post_init__ checks every value


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class EventResult(Generic[P]):
    """One player's result at one event of the season.

    ``table_size`` is the size of the table (or field) the place was won in, ``total`` the
    player's penalty total there and ``games`` the games they played.
    """

    event: Hashable
    date: date
    player: P
    place: int
    table_size: int
    total: int
    games: int

    def __post_init__(self) -> None:
        if not 1 <= self.place <= self.table_size:
            raise RulesError(f"event {self.event!r}: place {self.place} of {self.table_size}")
        if self.games < 1:
            raise RulesError(f"event {self.event!r}: {self.player!r} played no games")


@dataclass(frozen=True)
class LeagueCell(Generic[P]):
    """One event in a player's row: its score, and whether it counted (else struck through).

    ``score`` is the placement points, or the penalty total, or the average per game, as
    the scheme adds them up.
    """

    result: EventResult[P]
    score: float
    counted: bool


@dataclass(frozen=True)
class LeagueRow(Generic[P]):
    """A player's line in the league table.

    ``place`` is ``None`` for an unranked player (too few events). ``decided_by`` names what
    set this row apart from the ranked row above: ``"score"``, a :class:`TieOrder` value,
    or ``None`` for the first row, a shared place or an unranked row.
    """

    player: P
    place: int | None
    shared: bool
    points: float
    cells: tuple[LeagueCell[P], ...]
    events: int
    ranked: bool
    decided_by: str | None

    @property
    def place_label(self) -> str:
        """``"3"``, ``"=3"`` when shared, ``""`` when unranked."""
        return "" if self.place is None else place_text(self.place, self.shared)

    @property
    def counted_events(self) -> int:
        """How many of the player's events count."""
        return sum(cell.counted for cell in self.cells)


def event_points(scheme: LeagueScheme, place: int, table_size: int) -> float:
    """The placement points for ``place`` at a table of ``table_size`` seats.

    >>> event_points(LeagueScheme(points=(10, 7, 5, 3), scale_by_table=True), 1, 2)
    7.35
    """
    points = scheme.points
    base = points[place - 1] if place <= len(points) else 0
    if not scheme.scale_by_table:
        return float(base)
    # Seats past the end of the points table score 0.
    table_mean = sum(points[:table_size]) / table_size
    if table_mean == 0:
        return float(base)
    return round(base * (sum(points) / len(points)) / table_mean, 2)


def league_table(results: Iterable[EventResult[P]], scheme: LeagueScheme) -> list[LeagueRow[P]]:
    """The season's table: ranked players best first, then the unranked ones.

    Players equal on the score and every tie-break share a place and keep the order in
    which their first result came.
    """
    by_player: dict[P, list[EventResult[P]]] = {}
    seen: set[tuple[Hashable, P]] = set()
    for result in results:
        if (result.event, result.player) in seen:
            raise RulesError(f"event {result.event!r}: {result.player!r} has two results")
        seen.add((result.event, result.player))
        by_player.setdefault(result.player, []).append(result)

    entries = [_entry(player, rows, scheme) for player, rows in by_player.items()]
    ranked = [e for e in entries if len(e.cells) >= scheme.min_events]
    unranked = [e for e in entries if len(e.cells) < scheme.min_events]
    ranked.sort(key=lambda e: e.key)
    unranked.sort(key=lambda e: e.key)

    table: list[LeagueRow[P]] = []
    place = 0
    previous: _Entry[P] | None = None
    for index, entry in enumerate(ranked):
        decided_by: str | None = None
        if previous is None or entry.key != previous.key:
            place = index + 1
            if previous is not None:
                decided_by = _decider(previous.key, entry.key, scheme)
        shared = any(other.key == entry.key for other in _neighbours(ranked, index))
        table.append(entry.row(place, shared, decided_by))
        previous = entry
    table.extend(entry.row(None, False, None) for entry in unranked)
    return table


@dataclass(frozen=True)
class _Entry(Generic[P]):
    player: P
    cells: tuple[LeagueCell[P], ...]
    points: float
    key: tuple[float, ...]

    def row(self, place: int | None, shared: bool, decided_by: str | None) -> LeagueRow[P]:
        return LeagueRow(
            player=self.player,
            place=place,
            shared=shared,
            points=self.points,
            cells=self.cells,
            events=len(self.cells),
            ranked=place is not None,
            decided_by=decided_by,
        )


def _neighbours(entries: Sequence[_Entry[P]], index: int) -> list[_Entry[P]]:
    return [entries[i] for i in (index - 1, index + 1) if 0 <= i < len(entries)]


def _score(result: EventResult[P], scheme: LeagueScheme) -> float:
    if scheme.kind is LeagueKind.PLACEMENT:
        return event_points(scheme, result.place, result.table_size)
    if scheme.kind is LeagueKind.PENALTY_TOTAL:
        return float(result.total)
    return round(result.total / result.games, 2)


def _entry(player: P, results: list[EventResult[P]], scheme: LeagueScheme) -> _Entry[P]:
    # Placement points are better high, penalties low: one sign makes "lower sorts first".
    sign = -1 if scheme.kind is LeagueKind.PLACEMENT else 1
    scores = [_score(result, scheme) for result in results]
    order = sorted(range(len(results)), key=lambda i: (sign * scores[i], results[i].date, i))
    kept = set(order if scheme.best_n is None else order[: scheme.best_n])
    cells = tuple(
        LeagueCell(result=result, score=scores[i], counted=i in kept)
        for i, result in sorted(enumerate(results), key=lambda pair: pair[1].date)
    )
    counted = [cell.result for cell in cells if cell.counted]
    if scheme.kind is LeagueKind.PLACEMENT:
        points = round(sum(cell.score for cell in cells if cell.counted), 2)
    elif scheme.kind is LeagueKind.PENALTY_TOTAL:
        points = float(sum(result.total for result in counted))
    else:
        points = round(sum(r.total for r in counted) / sum(r.games for r in counted), 2)
    key: list[float] = [sign * points]
    for tie in scheme.tie_order:
        if tie is TieOrder.EVENTS_WON:
            key.append(-sum(result.place == 1 for result in counted))
        elif tie is TieOrder.BEST_RESULT:
            key.append(min(result.place for result in counted))
        else:
            key.append(-len(cells))
    return _Entry(player=player, cells=cells, points=points, key=tuple(key))


def _decider(above: tuple[float, ...], below: tuple[float, ...], scheme: LeagueScheme) -> str:
    names = [SCORE, *(tie.value for tie in scheme.tie_order)]
    for name, upper, lower in zip(names, above, below, strict=True):
        if upper != lower:
            return name
    raise RulesError("rows of different keys differ nowhere")
