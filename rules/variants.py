"""What every game's settings have in common, and how a game's settings are read.

A :class:`Variant` holds every setting the engine reads. The settings every game has are
its fields; a game with settings of its own (Gin Römi's ``gin_*``, Tízlapos Römi's
``tiz_*``) declares a subclass with them in its module. Each setting's default and plain
words are in the game's :class:`rules.games.GameSpec`; every default the site chose where
the sources are silent (docs/rules.md) is an option a club may change with
:func:`get_variant`. An event stores
``variant.to_dict()`` (flat: every setting of the game by name) so a later change of
defaults never rewrites old results.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any

from rules.arrangement import best_arrangement as _best_arrangement
from rules.cards import Card
from rules.entries import is_int
from rules.errors import RulesError, RuleViolation, token_text
from rules.games import (
    MAX_POINTS,
    MAX_TARGET,
    VARIANT_IDS,
    GameSpec,
    Option,
    game_spec,
    option_names,
)
from rules.i18n import Phrase, _
from rules.limits import (
    MAX_TEXT_LENGTH,
    OPEN_GAME_DEALS,
    TEXT_PER_CARD,
    UNCAPPED_BUYS,
)

__all__ = [
    "MAX_NAME",
    "MAX_PLAYERS",
    "MAX_POINTS",
    "MAX_TARGET",
    "PENALTY_KEYS",
    "TIE_ORDER_KEYS",
    "VARIANT_IDS",
    "Contract",
    "Variant",
    "bad_option",
    "check_ten_card_game",
    "describe_options",
    "get_variant",
    "penalty_key",
    "range_phrase",
    "shared_options",
]

PENALTY_KEYS = (
    "A",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "JOKER",
    "BLACK_TWO",
)

TIE_ORDER_KEYS = ("last_deal", "deals_won", "seat")


def penalty_key(card: Card, *, black_two_wild: bool) -> str:
    """The penalty-table key that prices ``card``.

    A black two only has its own price when black twos are wild in the variant.
    """
    if card.is_joker:
        return "JOKER"
    if black_two_wild and card.rank == 2 and card.suit is not None and card.suit.is_black:
        return "BLACK_TWO"
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(card.rank, str(card.rank))


@dataclass(frozen=True)
class Contract:
    """What a deal of a contract game asks for: ``sets`` sets and ``runs`` runs."""

    sets: int
    runs: int

    @property
    def melds(self) -> int:
        """How many melds the contract asks for."""
        return self.sets + self.runs

    def describe(self, translate: Callable[[str], str] = _) -> str:
        """The contract in plain words, e.g. "2 runs + 1 set".

        ``translate`` is the site's gettext: the engine imports no Django, yet a score
        sheet shows the contract in the reader's language.
        """
        parts: list[str] = []
        if self.runs:
            template = _("%(count)d run") if self.runs == 1 else _("%(count)d runs")
            parts.append(translate(template) % {"count": self.runs})
        if self.sets:
            template = _("%(count)d set") if self.sets == 1 else _("%(count)d sets")
            parts.append(translate(template) % {"count": self.sets})
        # Räväytys deal 8 reads "2 sets + 1 run" in the source; keep the source's order there.
        if self.sets > self.runs and self.runs:
            parts.reverse()
        return " + ".join(parts) if parts else translate(_("nothing"))

    def to_dict(self) -> dict[str, int]:
        """JSON-ready form."""
        return {"sets": self.sets, "runs": self.runs}


@dataclass(frozen=True, kw_only=True)
class Variant:
    """The settings every game has. Build with :func:`get_variant`; serialise with
    ``to_dict``. A game with settings of its own holds them in a subclass declared in its
    module (``rules.gin.GinVariant``, ``rules.tizlapos.TizVariant``); the defaults and
    plain words of every setting are in the game's spec (:func:`rules.game_spec`)."""

    id: str
    name: str
    min_players: int
    max_players: int
    decks: int
    jokers: int
    wild_jokers: bool
    wild_black_twos: bool
    max_wild_ratio_half: bool
    ace_low: bool
    ace_high: bool
    min_run: int
    min_set: int
    max_set: int | None
    set_suits_distinct: bool
    deals: tuple[Contract, ...]
    cards_dealt: tuple[int, ...]
    penalty_table: dict[str, int] = field(hash=False)
    buy_cap: int | None
    black_two_natural: bool  # a wild black two in its own place counts as natural
    runs_must_not_continue: bool
    stock_out_ends_deal: bool
    allow_points_entry: bool
    require_laydown: bool
    ravaytys_bonus: int
    tie_order: tuple[str, ...]

    # -- card questions every module asks -------------------------------------------------

    def is_wild(self, card: Card) -> bool:
        """Whether ``card`` is a wild in this variant (wherever it is placed)."""
        if card.is_joker:
            return self.wild_jokers
        return (
            self.wild_black_twos and card.rank == 2 and card.suit is not None and card.suit.is_black
        )

    def penalty(self, card: Card) -> int:
        """The penalty-table value of one card left in hand."""
        return self.penalty_table[penalty_key(card, black_two_wild=self.wild_black_twos)]

    @property
    def two_needs_suit(self) -> bool:
        """Whether a two left in hand must be entered with its suit to be priced: where black
        twos are wild and cost other than a red two (Räväytys), a bare "2" could be either."""
        return self.wild_black_twos and self.penalty_table["2"] != self.penalty_table["BLACK_TWO"]

    @property
    def is_contract_game(self) -> bool:
        """True for Räväytys and Rutupeli-like games (one contract per deal)."""
        return bool(self.deals)

    @property
    def family(self) -> str:
        """How a deal of this game is entered: "contract" (who went out, each hand left),
        "gin" (a head-to-head knock, römi or void) or "tizlapos" (a buli's deal). The site
        picks its entry form by this, never by the game's id; the game's spec says it."""
        return game_spec(self).family

    def contract(self, deal: object) -> Contract:
        """The contract of deal ``deal`` (1-based); anything else is no deal of this game."""
        if is_int(deal) and 1 <= deal <= len(self.deals):
            return self.deals[deal - 1]
        raise RuleViolation(
            _("There is no deal %(deal)s; this game has deals 1 to %(count)d."),
            code="bad_deal",
            field="deal",
            deal=deal if is_int(deal) and deal.bit_length() <= 64 else token_text(deal),
            count=len(self.deals),
        )

    # -- how much input the engine reads (see rules.limits) ---------------------------------

    @cached_property
    def max_buys(self) -> int:
        """The most buys recorded for one player in one deal (0 where nobody buys)."""
        if not self.is_contract_game:
            return 0
        return UNCAPPED_BUYS if self.buy_cap is None else self.buy_cap

    @cached_property
    def max_hand_cards(self) -> int:
        """The most cards a hand may hold: the most dealt, the dealer's extra card (or a
        card drawn), and two for every buy (the card bought and the penalty card)."""
        return max(self.cards_dealt) + 1 + 2 * self.max_buys

    @cached_property
    def max_laydown_cards(self) -> int:
        """The most cards one laydown (all its melds) may hold: it comes out of one hand."""
        return self.max_hand_cards

    @cached_property
    def max_text_length(self) -> int:
        """The most characters read as one hand or one laydown."""
        return min(MAX_TEXT_LENGTH, TEXT_PER_CARD * self.max_hand_cards)

    @cached_property
    def max_deals(self) -> int:
        """The most deals a table plays: a contract game's own, else a generous cap."""
        return len(self.deals) if self.is_contract_game else OPEN_GAME_DEALS

    # The arrangement of ``cards`` into melds with the least deadwood
    # (``variant.best_arrangement(cards)``): the solver itself, bound as a method, because a
    # wrapper's call would be a tenth of a Gin hand's time.
    best_arrangement = _best_arrangement

    # -- serialisation ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict of every setting of the game, by name;
        ``Variant.from_dict(v.to_dict()) == v``."""
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "deals":
                out[f.name] = [c.to_dict() for c in value]
            elif isinstance(value, tuple):
                out[f.name] = list(value)
            elif isinstance(value, dict):
                out[f.name] = dict(value)
            else:
                out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Variant:
        """Rebuild a variant stored with :meth:`to_dict`.

        Keys missing from ``data`` take today's defaults (so a stored variant survives a
        new setting being added); unknown keys are refused.
        """
        variant_id = data.get("id")
        if not isinstance(variant_id, str):
            raise RuleViolation(_("A stored variant needs its id."), code="bad_option", field="id")
        spec = game_spec(variant_id)
        # Variants stored before each game kept its own settings carry every game's (the
        # flat variant wrote them all); another game's are left out here, so they never
        # change this game (they used to: a stored Räväytys carried Tízlapos's joker price
        # into its own table).
        others = option_names()
        options: dict[str, object] = {}
        for key, value in data.items():
            if not isinstance(key, str):
                raise RuleViolation(
                    _('There is no setting "%(option)s".'),
                    code="bad_option",
                    field="id",
                    option=token_text(key),
                    token=token_text(key),
                )
            if key == "id" or (spec.option(key) is None and key in others):
                continue
            options[key] = value
        return get_variant(variant_id, **options)


# -- the settings every game has ------------------------------------------------------------

# The most players at one table.
MAX_PLAYERS = 8
# The longest name a game may be given.
MAX_NAME = 100

# Each shared setting in plain words.
_SHARED_TEXT: dict[str, str] = {
    "name": _("The game's name"),
    "min_players": _("The fewest players at a table"),
    "max_players": _("The most players at a table"),
    "decks": _("Decks of 52 cards played with"),
    "jokers": _("Jokers added to the decks"),
    "wild_jokers": _("Jokers are wild"),
    "wild_black_twos": _("Black twos are wild"),
    "max_wild_ratio_half": _("A meld holds no more wild cards than natural cards"),
    "ace_low": _("The ace may be low in a run (A-2-3)"),
    "ace_high": _("The ace may be high in a run (Q-K-A)"),
    "min_run": _("The fewest cards in a run"),
    "min_set": _("The fewest cards in a set"),
    "max_set": _("The most cards in a set (none: no limit)"),
    "set_suits_distinct": _("The cards of a set are all of different suits"),
    "deals": _("The contract of each deal"),
    "cards_dealt": _("The cards dealt to each player, deal by deal"),
    "penalty_table": _("What each card left in hand counts"),
    "buy_cap": _("The most discards a player may buy in a deal (none: no limit)"),
    "black_two_natural": _("A wild black two in its own place in a meld counts as natural"),
    "runs_must_not_continue": _("Runs of one suit in a laydown may not continue each other"),
    "stock_out_ends_deal": _(
        "The deal ends when the stock has gone through twice, and every hand scores"
    ),
    "allow_points_entry": _("A hand's points may be entered instead of its cards"),
    "require_laydown": _("The melds of the player who went out must be entered"),
    "ravaytys_bonus": _("Points off for going out at once (räväytys)"),
    "tie_order": _("How a tie in the total is broken"),
}
# (least, most) for the shared whole-number settings; any other takes 0 to MAX_POINTS.
_SHARED_RANGES: dict[str, tuple[int, int]] = {
    "min_players": (2, MAX_PLAYERS),
    "max_players": (2, MAX_PLAYERS),
    "decks": (1, 4),
    "jokers": (0, 8),
    "min_run": (2, 13),
    "min_set": (2, 13),
    "max_set": (2, 64),
    "buy_cap": (0, UNCAPPED_BUYS),
}


def shared_options(**defaults: object) -> tuple[Option, ...]:
    """The game's :class:`Option` for each setting every game has, with ``defaults`` (one
    for each: a game states all its defaults) and the shared plain words."""
    if set(defaults) != set(_SHARED_TEXT):
        missing, extra = set(_SHARED_TEXT) - set(defaults), set(defaults) - set(_SHARED_TEXT)
        raise RulesError(f"shared settings: missing {sorted(missing)}, unknown {sorted(extra)}")
    return tuple(
        Option(name, defaults[name], text, *_SHARED_RANGES.get(name, (0, MAX_POINTS)))
        for name, text in _SHARED_TEXT.items()
    )


# -- option checking ------------------------------------------------------------------------

_BOOL = "bool"
_INT = "int"
_OPT_INT = "int|None"
_STR = "str"
_INTS = "ints"
_DEALS = "deals"
_TABLE = "table"
_WORDS = "words"

_TYPE_KINDS = {
    "bool": _BOOL,
    "int": _INT,
    "int | None": _OPT_INT,
    "str": _STR,
    "tuple[int, ...]": _INTS,
    "tuple[Contract, ...]": _DEALS,
    "dict[str, int]": _TABLE,
    "tuple[str, ...]": _WORDS,
}


_KINDS: dict[type[Variant], dict[str, str]] = {}


def _kinds(variant_class: type[Variant]) -> dict[str, str]:
    """How each setting of ``variant_class`` is read, from its field's type."""
    kinds = _KINDS.get(variant_class)
    if kinds is None:
        kinds = {f.name: _TYPE_KINDS[str(f.type)] for f in dataclasses.fields(variant_class)}
        _KINDS[variant_class] = kinds
    return kinds


def _translated(text: str, translate: Callable[[str], str]) -> str:
    return translate(text)


def _whole_number(low: int, high: int, translate: Callable[[str], str]) -> str:
    return translate(_("a whole number from %(min)d to %(max)d")) % {"min": low, "max": high}


def _phrase(expected: str | Phrase) -> Phrase:
    # Built from module functions, not lambdas, so that a violation can still be pickled.
    return expected if isinstance(expected, Phrase) else Phrase(partial(_translated, expected))


def range_phrase(low: int, high: int) -> Phrase:
    """ "a whole number from ``low`` to ``high``", translated when shown."""
    return Phrase(partial(_whole_number, low, high))


def bad_option(name: str, expected: str | Phrase, value: object) -> RuleViolation:
    """The violation for setting ``name`` at ``value`` where ``expected`` was wanted."""
    return RuleViolation(
        _('The setting "%(option)s" cannot be %(token)s; expected %(expected)s.'),
        code="bad_option",
        field=name,
        option=name,
        token=token_text(value),
        expected=_phrase(expected),
    )


def _whole(name: str, value: object, low: int, high: int) -> int:
    if not (is_int(value) and low <= value <= high):
        raise bad_option(name, range_phrase(low, high), value)
    return value


def _coerce(spec: GameSpec[Any], option: Option, value: object) -> object:
    name, low, high = option.name, option.low, option.high
    kind = _kinds(spec.variant_class)[name]
    if kind == _BOOL:
        if not isinstance(value, bool):
            raise bad_option(name, _("true or false"), value)
        return value
    if kind == _INT:
        return _whole(name, value, low, high)
    if kind == _OPT_INT:
        if value is None:
            return value
        if not (is_int(value) and low <= value <= high):
            raise bad_option(name, _("a whole number, 0 or more, or none"), value)
        return value
    if kind == _STR:
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
            raise bad_option(name, _("some text"), value)
        return value
    if kind == _INTS:
        if not isinstance(value, list | tuple) or not all(is_int(v) and 0 < v <= 13 for v in value):
            raise bad_option(name, _("a list of whole numbers"), value)
        return tuple(int(v) for v in value)
    if kind == _WORDS:
        if not isinstance(value, list | tuple) or not all(
            isinstance(v, str) and v in TIE_ORDER_KEYS for v in value
        ):
            raise bad_option(name, ", ".join(TIE_ORDER_KEYS), value)
        return tuple(str(v) for v in value)
    if kind == _DEALS:
        if not isinstance(value, list | tuple):
            raise bad_option(name, _("a list of contracts"), value)
        return tuple(_contract(name, item) for item in value)
    if kind == _TABLE:
        if not isinstance(value, Mapping):
            raise bad_option(name, _("a table of card values"), value)
        default = option.default
        assert isinstance(default, Mapping)
        table = dict(default)
        for key, points in value.items():
            if not isinstance(key, str) or key not in PENALTY_KEYS:
                raise bad_option(name, ", ".join(PENALTY_KEYS), key)
            table[key] = _whole(name, points, 0, MAX_POINTS)
        return table
    raise AssertionError(kind)  # pragma: no cover


def _contract(name: str, item: object) -> Contract:
    if isinstance(item, Contract):
        return item
    sets: object = None
    runs: object = None
    if isinstance(item, Mapping) and all(k in ("sets", "runs") for k in item):
        sets, runs = item.get("sets", 0), item.get("runs", 0)
    elif isinstance(item, list | tuple) and len(item) == 2:
        sets, runs = item
    if not (is_int(sets) and is_int(runs)):
        raise bad_option(name, _('contracts like {"sets": 2, "runs": 1}'), item)
    if sets < 0 or runs < 0 or sets + runs == 0:
        raise bad_option(name, _("at least one meld per contract"), item)
    return Contract(sets=sets, runs=runs)


def _default(value: object) -> object:
    # A default table is the spec's; every variant gets its own copy.
    return dict(value) if isinstance(value, Mapping) else value


def check_ten_card_game(v: Variant) -> None:
    """For a game without contracts whose entries read ten-card hands (Gin Römi, Tízlapos
    Römi): settings that would give it contracts, or other hands."""
    if v.deals:
        raise bad_option("deals", _("no contracts: this game has none"), v.deals)
    if v.cards_dealt != (10,):
        raise bad_option("cards_dealt", _("10: the entries read ten-card hands"), v.cards_dealt)


def _check_consistent(v: Variant) -> None:
    def bad(option: str, expected: str | Phrase) -> RuleViolation:
        return bad_option(option, expected, getattr(v, option))

    if v.decks < 1:
        raise bad("decks", _("1 or more"))
    if not 2 <= v.min_players <= v.max_players:
        raise bad("min_players", _("at least 2 and no more than the most players"))
    if v.min_run < 2 or v.min_run > 13:
        raise bad("min_run", _("2 to 13"))
    if v.min_set < 2:
        raise bad("min_set", _("2 or more"))
    if v.max_set is not None and v.max_set < v.min_set:
        raise bad("max_set", _("none, or no fewer than the shortest set"))
    if not (v.ace_low or v.ace_high):
        raise bad("ace_high", _("true when the ace may not be low"))
    # What only the game knows: its contracts, its players, its own settings together.
    game_spec(v).check(v)


def get_variant(variant_id: str, **options: object) -> Variant:
    """The variant ``variant_id`` with its defaults, changed by ``options``.

    ``variant_id`` is one of :data:`VARIANT_IDS`; the defaults are its spec's
    (:func:`rules.game_spec`). Each option is a setting of that game: a setting of another
    game (``gin_*`` belongs to Gin Römi, ``tiz_*`` to Tízlapos Römi), an unknown option, a
    value of the wrong kind or out of range, or settings that together make a game nobody
    can score (a contract game without contracts) raise :class:`RuleViolation` (code
    ``"bad_option"``).
    """
    spec = game_spec(variant_id)
    values: dict[str, Any] = {"id": spec.id}
    values.update((name, _default(value)) for name, value in spec.defaults.items())
    for name, value in options.items():
        option = spec.option(name)
        if option is None:
            if name in option_names():
                raise RuleViolation(
                    _('There is no setting "%(option)s" in %(game)s.'),
                    code="bad_option",
                    field=name,
                    option=name,
                    token=name,
                    game=spec.name,
                )
            raise RuleViolation(
                _('There is no setting "%(option)s".'),
                code="bad_option",
                field=name,
                option=name,
                token=name,
            )
        values[name] = _coerce(spec, option, value)
    spec.reconcile(values, options)
    variant = spec.variant_class(**values)
    _check_consistent(variant)
    return variant


# -- plain words for the rules page ---------------------------------------------------------


def describe_options(
    variant: Variant, translate: Callable[[str], str] = _
) -> list[tuple[str, str]]:
    """The variant's settings as (label, value) pairs in plain words for the rules page.

    ``translate`` is the site's gettext; it shadows the marker ``_`` below, so the strings
    are still found by extraction and come out in the reader's language.
    """
    _ = translate  # shadows the module's marker for every message below
    rows: list[tuple[str, str]] = []
    v = variant
    players = (
        str(v.min_players)
        if v.min_players == v.max_players
        else _("%(min)d to %(max)d") % {"min": v.min_players, "max": v.max_players}
    )
    rows.append((_("Players"), players))
    rows.append((_("Cards"), _deck_words(v, translate)))
    wilds: list[str] = []
    if v.wild_jokers and v.jokers:
        wilds.append(_("jokers"))
    if v.wild_black_twos:
        wilds.append(
            _("black twos (natural in their own place)")
            if v.black_two_natural
            else _("black twos (wild even in their own place)")
        )
    rows.append((_("Wild cards"), _(" and ").join(wilds) if wilds else _("none")))
    if wilds:
        rows.append(
            (
                _("Wild limit"),
                _("no more wild cards than natural cards in a meld")
                if v.max_wild_ratio_half
                else _("none"),
            )
        )
    # The examples are as long as the game's shortest run, so none is a run it refuses.
    low, high = "-".join(_RUN_RANKS[: v.min_run]), "-".join(_RUN_RANKS[-v.min_run :])
    if v.ace_low and v.ace_high:
        ace = _("low or high (%(low)s or %(high)s), never both at once")
    elif v.ace_low:
        ace = _("low only (%(low)s)")
    else:
        ace = _("high only (%(high)s)")
    rows.append((_("Ace in a run"), ace % {"low": low, "high": high}))
    rows.append(
        (_("Runs"), _("%(count)d or more cards of one suit in sequence") % {"count": v.min_run})
    )
    if v.max_set is None:
        set_text = _("%(min)d or more cards of one rank") % {"min": v.min_set}
    else:
        set_text = _("%(min)d to %(max)d cards of one rank") % {"min": v.min_set, "max": v.max_set}
    suits = _("all suits different") if v.set_suits_distinct else _("suits may repeat")
    rows.append((_("Sets"), f"{set_text}, {suits}"))
    for number, (contract, dealt) in enumerate(zip(v.deals, v.cards_dealt, strict=False), 1):
        rows.append(
            (
                _("Deal %(number)d") % {"number": number},
                _("%(contract)s, %(cards)d cards each")
                % {"contract": contract.describe(translate), "cards": dealt},
            )
        )
    rows.append(
        (
            _("Card values"),
            describe_penalties(
                v.penalty_table, translate, jokers=bool(v.jokers), black_twos=v.wild_black_twos
            ),
        )
    )
    # The game's own settings, in its own words.
    rows.extend(game_spec(v).describe(v, translate))
    return rows


_PRICED_RANKS = ("A", *(str(n) for n in range(2, 11)), "J", "Q", "K")
# A suit in run order with the ace at both ends, for the rules' examples of a run.
_RUN_RANKS = (*_PRICED_RANKS, "A")


def _deck_words(v: Variant, translate: Callable[[str], str]) -> str:
    """The cards in play: "2 decks and 4 jokers", or "2 decks, no jokers" (never "0 jokers")."""
    _ = translate  # shadows the module's marker, as in describe_options
    if v.jokers:
        words = (
            _("%(decks)d decks and %(jokers)d jokers")
            if v.decks > 1
            else _("%(decks)d deck and %(jokers)d jokers")
        )
    else:
        words = _("%(decks)d decks, no jokers") if v.decks > 1 else _("%(decks)d deck, no jokers")
    return words % {"decks": v.decks, "jokers": v.jokers}


def describe_penalties(
    table: Mapping[str, int],
    translate: Callable[[str], str] = _,
    *,
    jokers: bool = True,
    black_twos: bool = True,
) -> str:
    """What each card left in hand counts, in plain words ("A 20, 2 5, …, joker 50"): the
    joker's and the black two's only where the game has them in play."""
    _ = translate  # shadows the module's marker, as in describe_options
    price = [f"{rank} {table[rank]}" for rank in _PRICED_RANKS if rank in table]
    if jokers and "JOKER" in table:
        price.append(_("joker %(points)d") % {"points": table["JOKER"]})
    if black_twos and "BLACK_TWO" in table:
        price.append(_("black two %(points)d") % {"points": table["BLACK_TWO"]})
    return ", ".join(price)
