"""An event's standings: the order of players equal on the total, by the event's precedence.

Pure functions over frozen values, no models and no Django (like
:mod:`tournaments.engine.league`): a selector turns each player's result into a
:class:`Contender` and shows :func:`rank_by_precedence`'s placings; the precedence is stored
with the event (``Event.tie_breaks``, a list of names; empty for the game's default, its
``GameSpec.default_tie_breaks``).

The tie-breaks, as a director would say them:

* ``total``: the total (or what the ranking goes by while the tables are at different
  deals: the points per deal, or the total after the same number of deals). Always first.
* ``last_deal``: fewer points in the last deal (more in a game where more is better).
* ``deals_won``: more deals won (gone out, or the deal's winner in Gin Römi).
* ``ravaytys``: more räväytys (Räväytys only).
* ``head_to_head``: of tied players who sat at one table, the one placed better there;
  players who never met stay level (each with the one of the same rank at another table).
* ``director``: the director's recorded tie-break (the latest that names every tied player).

Players equal on every tie-break share their place ("=3"); each row names the tie-break
that set it apart from the row above (``decided_by``): ``"total"`` or a tie-break's name,
``None`` for the first row and a shared place.

    >>> rows = [Contender("Aino", (10,), last_deal=5), Contender("Bertta", (10,), last_deal=0),
    ...         Contender("Cecilia", (12,)), Contender("Daniel", (12,))]
    >>> [(p.contender.player, p.place_label, p.decided_by)
    ...  for p in rank_by_precedence(rows, ("total", "last_deal"))]
    [('Bertta', '1', None), ('Aino', '2', 'last_deal'), ('Cecilia', '=3', 'total'), ('Daniel', '=3', None)]
"""

from __future__ import annotations

import enum
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeGuard, TypeVar

from core.places import place_text
from rules.errors import RulesError, RuleViolation, token_text
from rules.games import game_spec
from rules.i18n import _

__all__ = [
    "RANKING_KEYS",
    "STAGE",
    "TABLE_PLACE",
    "Contender",
    "Placing",
    "TieBreakName",
    "default_tie_breaks",
    "names_a_tie_break",
    "rank_by_precedence",
    "tie_break_label",
    "tie_break_precedence",
    "tie_break_short_label",
]

P = TypeVar("P", bound=Hashable)


class TieBreakName(enum.StrEnum):
    """The tie-breaks an event may list (``TOTAL`` always first)."""

    TOTAL = "total"
    LAST_DEAL = "last_deal"
    DEALS_WON = "deals_won"
    RAVAYTYS = "ravaytys"
    HEAD_TO_HEAD = "head_to_head"
    DIRECTOR = "director"

    @property
    def label(self) -> str:
        """In English words (a translation marker: show ``gettext(label)``)."""
        return _LABELS[self.value]

    @property
    def short_label(self) -> str:
        """A ranking cell's words (a translation marker)."""
        return _SHORT_LABELS[self.value]


TOTAL = TieBreakName.TOTAL.value
_NAMES = frozenset(TieBreakName)
# What else a championship's final ranking is set apart by, before any tie-break: the last
# stage reached, then the place at one's table there (`decided_by`'s other names).
STAGE, TABLE_PLACE = "stage", "table_place"
# The ranking's own keys: a row they set apart names no tie-break on a page or a download.
RANKING_KEYS = frozenset({TOTAL, STAGE, TABLE_PLACE})


def names_a_tie_break(decided_by: str | None) -> TypeGuard[str]:
    """Whether a row's ``decided_by`` is a tie-break (shown), not the ranking's own key."""
    return decided_by is not None and decided_by not in RANKING_KEYS


_LABELS = {
    "total": _("Total points"),
    "last_deal": _("Fewer points in the last deal"),
    "deals_won": _("More deals won"),
    "ravaytys": _("More räväytys"),
    "head_to_head": _("Head-to-head: the better place at their table"),
    "director": _("The director's recorded tie-break"),
    # Head to head's own (tournaments.engine.pairing): settlement points between equal match wins.
    "points": _("More settlement points"),
    STAGE: _("The last stage reached"),
    TABLE_PLACE: _("The place at one's table"),
}
_SHORT_LABELS = {
    "total": _("total"),
    "last_deal": _("last deal"),
    "deals_won": _("deals won"),
    "ravaytys": _("räväytys"),
    "head_to_head": _("head-to-head"),
    "director": _("director"),
    "points": _("points"),
    STAGE: _("stage reached"),
    TABLE_PLACE: _("place at table"),
}


def tie_break_label(name: str) -> str:
    """What ``name`` means, in English words (a translation marker)."""
    return _LABELS[name]


def tie_break_short_label(name: str) -> str:
    """A ranking cell's words for ``name`` (a translation marker)."""
    return _SHORT_LABELS[name]


def default_tie_breaks(game: str) -> tuple[str, ...]:
    """The precedence of an event of ``game`` whose director chose none: the total, then the
    game's own (``GameSpec.default_tie_breaks``).

    >>> default_tie_breaks("rutupeli")
    ('total', 'last_deal', 'deals_won', 'director', 'head_to_head')
    """
    spec = game_spec(game)
    own = [name for name in spec.default_tie_breaks if name in _LABELS and name != TOTAL]
    if not spec.records_ravaytys and TieBreakName.RAVAYTYS in own:
        own.remove(TieBreakName.RAVAYTYS)
    return (TOTAL, *own)


def allowed_tie_breaks(game: str) -> tuple[str, ...]:
    """Every tie-break an event of ``game`` may list, in the order a form offers them."""
    records = game_spec(game).records_ravaytys
    return tuple(
        name.value for name in TieBreakName if records or name is not TieBreakName.RAVAYTYS
    )


def _bad(template: str, **params: object) -> RuleViolation:
    return RuleViolation(template, code="tie_breaks", field="tie_breaks", **params)


def tie_break_precedence(order: object, *, game: str) -> tuple[str, ...]:
    """The precedence ``order`` stands for (empty or None: the game's default), checked.

    The total comes first whether it is listed or not; listed elsewhere, a name twice, a
    name of no tie-break, or the räväytys in a game without them is the person's to fix
    (:class:`RuleViolation`, ``"tie_breaks"``).

    >>> tie_break_precedence(["deals_won"], game="rutupeli")
    ('total', 'deals_won')
    """
    if order is None or order == [] or order == ():
        return default_tie_breaks(game)
    if not isinstance(order, list | tuple):
        raise _bad(_("The tie-breaks must be a list of their names, in order."))
    allowed = allowed_tie_breaks(game)
    names: list[str] = []
    for index, value in enumerate(order):
        if not isinstance(value, str) or value not in _NAMES:
            raise _bad(_("Unknown tie-break: %(value)s."), value=token_text(value))
        if value not in allowed:
            raise _bad(
                _("%(value)s is not a tie-break of this game (it records no räväytys)."),
                value=value,
            )
        if value in names:
            raise _bad(_("A tie-break is listed twice: %(value)s."), value=value)
        if value == TOTAL and index != 0:
            raise _bad(_("The total comes first; the tie-breaks follow it."))
        names.append(value)
    return tuple(names) if names[0] == TOTAL else (TOTAL, *names)


@dataclass(frozen=True)
class Contender(Generic[P]):
    """One player's result as the tie-breaks read it.

    ``score`` is the ranking's key, lower better (a penalty total, minus a Gin total, a
    flag for "no deal played yet" first): players of equal ``score`` are tied.
    ``last_deal`` is the last deal's points, signed so that lower is better; ``table`` the
    table the player sat at, ``table_place`` their place there (head-to-head).
    """

    player: P
    score: tuple[Any, ...]
    last_deal: int = 0
    deals_won: int = 0
    ravaytys: int = 0
    table: Hashable | None = None
    table_place: int = 0


@dataclass(frozen=True)
class Placing(Generic[P]):
    contender: Contender[P]
    place: int
    shared: bool
    decided_by: str | None

    @property
    def place_label(self) -> str:
        """``"3"``, or ``"=3"`` when shared."""
        return place_text(self.place, self.shared)


Orders = Sequence[Sequence[Hashable]]


def rank_by_precedence(
    contenders: Sequence[Contender[P]],
    precedence: Sequence[str],
    director_orders: Orders | Callable[[], Orders] = (),
) -> list[Placing[P]]:
    """``contenders`` best first by ``precedence`` (checked: see :func:`tie_break_precedence`),
    each with its place, whether it is shared and what decided it.

    ``director_orders`` are the director's recorded tie-breaks, each the players best
    first, oldest first (or a function giving them, called only when a tie reaches the
    director). Players equal on everything keep the order they came in.
    """
    names = list(precedence)
    if not names or names[0] != TOTAL:
        raise RulesError(f"a precedence starts with the total: {names!r}")
    cache: dict[str, Orders] = {}

    def orders() -> Orders:
        if "orders" not in cache:
            cache["orders"] = director_orders() if callable(director_orders) else director_orders
        return cache["orders"]

    parts = _split(list(contenders), names, orders)
    placings: list[Placing[P]] = []
    index = 1
    for position, (group, decided_by) in enumerate(parts):
        shared = len(group) > 1
        for offset, contender in enumerate(group):
            placings.append(
                Placing(
                    contender=contender,
                    place=index,
                    shared=shared,
                    decided_by=decided_by if offset == 0 and position > 0 else None,
                )
            )
        index += len(group)
    return placings


def _split(
    group: list[Contender[P]], names: list[str], orders: Callable[[], Orders]
) -> list[tuple[list[Contender[P]], str | None]]:
    """``group`` as its tied subgroups, best first, each with the tie-break that set it
    apart from the subgroup above (None for the first: the caller's to name)."""
    if len(group) < 2 or not names:
        return [(group, None)]
    name, rest = names[0], names[1:]
    keys = _keys(name, group, orders)
    ordered = sorted(range(len(group)), key=lambda i: keys[i])  # stable: ties keep order
    subgroups: list[list[Contender[P]]] = []
    previous: object = object()
    for i in ordered:
        if not subgroups or keys[i] != previous:
            subgroups.append([])
        subgroups[-1].append(group[i])
        previous = keys[i]
    parts: list[tuple[list[Contender[P]], str | None]] = []
    for number, subgroup in enumerate(subgroups):
        inner = _split(subgroup, rest, orders)
        inner[0] = (inner[0][0], name if number else None)
        parts.extend(inner)
    return parts


def _keys(name: str, group: list[Contender[P]], orders: Callable[[], Orders]) -> list[Any]:
    """Each contender's key under ``name`` within ``group`` (lower better)."""
    if name == "total":
        return [c.score for c in group]
    if name == "last_deal":
        return [c.last_deal for c in group]
    if name == "deals_won":
        return [-c.deals_won for c in group]
    if name == "ravaytys":
        return [-c.ravaytys for c in group]
    if name == "head_to_head":
        # The rank among the tied who sat at the same table: who never met stay level.
        # Counted table by table, not pair by pair: a tie across a hall (the same total at
        # 250 tables, every player at 0 before the first deal) is 1,000 players, a million
        # pairs.
        places: dict[Hashable, list[int]] = defaultdict(list)
        for c in group:
            if c.table is not None:
                places[c.table].append(c.table_place)
        for at_table in places.values():
            at_table.sort()
        return [
            0 if c.table is None else bisect_left(places[c.table], c.table_place) for c in group
        ]
    if name == "director":
        players = {c.player for c in group}
        for order in reversed(orders()):
            if players <= set(order):
                position = {player: index for index, player in enumerate(order)}
                return [position[c.player] for c in group]
        return [0] * len(group)
    raise RulesError(f"no tie-break {name!r}")
