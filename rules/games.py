"""The registry: every game described once, by its own module.

Each game module (:mod:`rules.contract_games` for Räväytys and Rutupeli, :mod:`rules.gin`,
:mod:`rules.tizlapos`) builds a :class:`GameSpec` and hands it to :func:`register` when it
is imported. A spec says everything the rest of the engine and the site need to know about
the game:

* ``id``, ``name`` and ``family`` (how a deal is entered: ``"contract"``, ``"gin"`` or
  ``"tizlapos"``; the site picks its entry form by this, never by the id);
* ``variant_class``, the :class:`rules.Variant` (sub)class holding the game's settings, and
  ``options``, one :class:`Option` for each of them: its default and its plain words;
* the three functions that judge it: ``parse_entry``, ``score_deal`` and ``standing``;
* ``tables``, the table sizes a tournament draws (see :meth:`GameSpec.table_sizes`);
* ``records_ravaytys``, whether a deal records a räväytys (going out in one turn);
* ``tie_breaks``, how the event's ranking breaks a tie in the total, by default (see
  :attr:`GameSpec.default_tie_breaks`);
* ``describe`` (the game's own rows of the rules page), ``check`` (settings that together
  make a game nobody can score) and ``reconcile`` (settings that are one setting with two
  names).

:func:`rules.get_variant` takes its defaults from the spec, :func:`rules.score_deal` and
:func:`rules.table_standing` call the spec's functions, and ``Variant.family`` reads it:
the one place that chooses by game is :func:`game_spec`. A house rule of one game (a new
default, a new setting) therefore touches that game's module and nothing else.

    >>> import rules
    >>> rules.game_spec("gin_romi").table_sizes(rules.get_variant("gin_romi"))
    TableSizes(min_size=2, max_size=2, preferred=2)
    >>> rules.GAMES["tizlapos_romi"].defaults["tiz_elimination"]
    100
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rules.errors import RulesError, RuleViolation, token_text
from rules.i18n import _

if TYPE_CHECKING:
    from rules.results import DealScore, TableStanding
    from rules.variants import Variant

__all__ = [
    "FAMILIES",
    "GAMES",
    "MAX_POINTS",
    "MAX_TARGET",
    "VARIANT_IDS",
    "GameSpec",
    "Option",
    "TableSizes",
    "game_spec",
    "option_names",
    "register",
]

# Every game, in the order the site lists them. Each id is registered by its module;
# tests/rules/test_games.py holds the two to each other.
VARIANT_IDS = ("ravaytys", "rutupeli", "gin_romi", "tizlapos_romi")

# How a deal is entered; the site keeps one form per family.
FAMILIES = ("contract", "gin", "tizlapos")

# The most any number of points may be: a card's value, a bonus, a deduction, a payment.
MAX_POINTS = 1000
# A target or a limit of a whole game (first to 150, out at 100).
MAX_TARGET = 10_000

Entry = TypeVar("Entry")
Translate = Callable[[str], str]


@dataclass(frozen=True)
class Option:
    """One setting of a game: its name (a field of the game's variant class), its default,
    and ``text``, what it means in plain words (a translation marker: the site shows
    ``gettext(option.text)``). A whole-number setting is held to ``low``..``high``."""

    name: str
    default: object
    text: str
    low: int = 0
    high: int = MAX_POINTS


@dataclass(frozen=True)
class TableSizes:
    """How many players a tournament seats at one table of a game."""

    min_size: int
    max_size: int
    preferred: int


def _no_rows(variant: Variant, translate: Translate) -> list[tuple[str, str]]:
    return []


def _no_check(variant: Variant) -> None:
    return None


def _no_reconcile(values: dict[str, Any], given: Mapping[str, object]) -> None:
    return None


@dataclass(frozen=True, eq=False)
class GameSpec(Generic[Entry]):
    """Everything about one game that is not about cards in general (see the module)."""

    id: str
    family: str
    variant_class: type[Variant]
    options: tuple[Option, ...]
    parse_entry: Callable[[Variant, int, Mapping[str, object]], Entry]
    score_deal: Callable[[Variant, Entry], DealScore]
    standing: Callable[[Variant, int, Sequence[DealScore]], TableStanding]
    tables: TableSizes
    records_ravaytys: bool = False
    # The event ranking's tie-breaks after the total, in order (the names are
    # ``tournaments.engine.tiebreaks``'): empty for the one the game's own table order gives.
    tie_breaks: tuple[str, ...] = ()
    describe: Callable[[Variant, Translate], list[tuple[str, str]]] = _no_rows
    check: Callable[[Variant], None] = _no_check
    reconcile: Callable[[dict[str, Any], Mapping[str, object]], None] = _no_reconcile
    # The game of one play-off deal that settles a tie at a table (the tied players alone),
    # or None where the game has none (a head-to-head or a buli: it always ends with one
    # winner).
    playoff: Callable[[Variant], Variant] | None = None

    @property
    def name(self) -> str:
        """The game's name (English; the site shows ``gettext(spec.name)``)."""
        return str(self.defaults["name"])

    @cached_property
    def defaults(self) -> Mapping[str, object]:
        """Every setting of the game with its default, as :func:`rules.get_variant` uses
        them (``get_variant(id)`` is the variant of these values). Read-only."""
        return MappingProxyType({o.name: o.default for o in self.options})

    @property
    def default_tie_breaks(self) -> tuple[str, ...]:
        """How an event of this game breaks a tie in the total unless its director says
        otherwise: ``tie_breaks`` where the game sets it, else its table's own tie order
        (the ``tie_order`` default: fewer points in the last deal, more deals won), the
        räväytys where the game records them, then the director's recorded tie-break, for
        which the table's seat order stands in (head-to-head: the place at the table).

        >>> import rules
        >>> rules.game_spec("ravaytys").default_tie_breaks
        ('last_deal', 'deals_won', 'ravaytys', 'director', 'head_to_head')
        """
        if self.tie_breaks:
            return self.tie_breaks
        return self.tie_breaks_of(self.defaults.get("tie_order"))

    def tie_breaks_of(self, table_order: object) -> tuple[str, ...]:
        """The tie-breaks that order players as the table tie order ``table_order`` does
        (a ``tie_order`` setting): the seat, which the site never uses, stands for the
        director's recorded tie-break and the place at the table, after the räväytys where
        the game records them. An event keeps its order so (the setting is the engine's).

        >>> import rules
        >>> rules.game_spec("rutupeli").tie_breaks_of(["deals_won", "last_deal", "seat"])
        ('deals_won', 'last_deal', 'director', 'head_to_head')
        """
        order: list[str] = []
        for rule in table_order if isinstance(table_order, list | tuple) else ():
            names = {"seat": ("director", "head_to_head")}.get(str(rule), (str(rule),))
            if "director" in names and self.records_ravaytys:
                names = ("ravaytys", *names)
            order.extend(name for name in names if name not in order)
        return tuple(order)

    @cached_property
    def _by_name(self) -> dict[str, Option]:
        return {o.name: o for o in self.options}

    def option(self, name: str) -> Option | None:
        """The setting ``name`` of this game, or None when the game has no such setting."""
        return self._by_name.get(name)

    def table_sizes(self, variant: Variant, preferred: int | None = None) -> TableSizes:
        """The table sizes to draw ``variant`` with: the game's own (``tables``) held
        within the players the variant allows, and ``preferred`` (the event's choice, else
        the game's) held within those."""
        low_players, high_players = variant.min_players, variant.max_players

        def within(size: int, low: int, high: int) -> int:
            return min(max(size, low), high)

        low = within(self.tables.min_size, low_players, high_players)
        high = within(self.tables.max_size, low_players, high_players)
        wanted = self.tables.preferred if preferred is None else preferred
        return TableSizes(min_size=low, max_size=high, preferred=within(wanted, low, high))


_REGISTERED: dict[str, GameSpec[Any]] = {}


def register(spec: GameSpec[Entry]) -> GameSpec[Entry]:
    """Add ``spec`` to the registry (each game module does, once, when imported).

    The spec must give an :class:`Option` for every field of its variant class but ``id``,
    and nothing else, so that every setting of the game has its default and its words.
    """
    if spec.id in _REGISTERED:
        raise RulesError(f"game {spec.id!r} is registered twice")
    if spec.family not in FAMILIES:
        raise RulesError(f"game {spec.id!r} has no family {spec.family!r}")
    fields = {f.name for f in dataclasses.fields(spec.variant_class)} - {"id"}
    named = [o.name for o in spec.options]
    if len(named) != len(set(named)) or set(named) != fields:
        raise RulesError(
            f"game {spec.id!r}: options {sorted(set(named) ^ fields)} do not match its settings"
        )
    _REGISTERED[spec.id] = spec
    return spec


def _load() -> None:
    """Import every game module, so that each has registered its spec.

    The catalogue of game modules: a new game is a new module, named here once.
    """
    import rules.contract_games
    import rules.gin
    import rules.tizlapos  # noqa: F401


class _Registry(Mapping[str, GameSpec[Any]]):
    """The registered games by id, in :data:`VARIANT_IDS` order (read-only)."""

    def __getitem__(self, game_id: str) -> GameSpec[Any]:
        _load()
        return _REGISTERED[game_id]

    def __iter__(self) -> Iterator[str]:
        _load()
        # The site's order, whichever module was imported first.
        listed = [game_id for game_id in VARIANT_IDS if game_id in _REGISTERED]
        return iter(listed + [game_id for game_id in _REGISTERED if game_id not in listed])

    def __len__(self) -> int:
        _load()
        return len(_REGISTERED)

    def __repr__(self) -> str:
        return f"GAMES({', '.join(self)})"


GAMES: Mapping[str, GameSpec[Any]] = _Registry()


def game_spec(game: Variant | str) -> GameSpec[Any]:
    """The spec of ``game`` (a variant, or a game's id).

    An id of no game is the person's to fix (:class:`RuleViolation`, ``"bad_variant"``).
    """
    game_id = game if isinstance(game, str) else game.id
    spec = GAMES.get(game_id) if isinstance(game_id, str) else None
    if spec is None:
        raise RuleViolation(
            _('There is no game "%(token)s"; expected one of %(expected)s.'),
            code="bad_variant",
            field="variant",
            token=token_text(game_id),
            expected=", ".join(GAMES),
        )
    return spec


def option_names() -> frozenset[str]:
    """Every setting some game has (a stored variant may carry another game's)."""
    return frozenset(o.name for spec in GAMES.values() for o in spec.options)
