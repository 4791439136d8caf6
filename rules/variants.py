"""The four games as data.

A :class:`Variant` holds every setting the engine reads. Each default that RULES.md marks
(D) is an option a club may change with :func:`get_variant`; an event stores
``variant.to_dict()`` so a later change of defaults never rewrites old results.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import TYPE_CHECKING, Any

from rules.cards import Card
from rules.entries import is_int
from rules.errors import RuleViolation, token_text
from rules.i18n import Phrase, _
from rules.limits import (
    MAX_CONTRACT_DEALS,
    MAX_TEXT_LENGTH,
    OPEN_GAME_DEALS,
    TEXT_PER_CARD,
    UNCAPPED_BUYS,
)

if TYPE_CHECKING:
    from rules.results import Arrangement

__all__ = [
    "PENALTY_KEYS",
    "VARIANT_IDS",
    "Contract",
    "Variant",
    "describe_options",
    "get_variant",
    "penalty_key",
]

VARIANT_IDS = ("ravaytys", "rutupeli", "gin_romi", "tizlapos_romi")

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


def _c(sets: int = 0, runs: int = 0) -> Contract:
    return Contract(sets=sets, runs=runs)


@dataclass(frozen=True)
class Variant:
    """Every setting of one game. Build with :func:`get_variant`; serialise with ``to_dict``."""

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
    buy_cap: int | None = None
    black_two_natural: bool = True  # a wild black two in its own place counts as natural
    runs_must_not_continue: bool = False
    stock_out_ends_deal: bool = False
    allow_points_entry: bool = True
    require_laydown: bool = False
    ravaytys_bonus: int = 0
    tie_order: tuple[str, ...] = ("last_deal", "deals_won", "seat")
    gin_target: int = 150
    gin_bonus_undercut: int = 25
    gin_bonus_romi: int = 25
    gin_settle_per_deal: int = 25
    gin_settle_game: int = 150
    gin_settle_shutout: int = 150
    gin_spade_doubles: bool = False
    tiz_knock_cards: tuple[int, ...] = (2, 3)
    tiz_romi_deduction: int = 10
    tiz_elimination: int = 100
    tiz_reentry_units: int = 3
    tiz_romi_units: int = 2
    tiz_knock_units: int = 1
    tiz_last_survivor_units: int = 10
    tiz_joker_penalty: int = 20
    tiz_special_royal: int = 50
    tiz_special_piccolo: int = 25
    tiz_special_flush: int = 25
    tiz_kis_buli: bool = False
    tiz_kis_buli_limit: int = 50

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
    def is_contract_game(self) -> bool:
        """True for Räväytys and Rutupeli-like games (one contract per deal)."""
        return bool(self.deals)

    @property
    def family(self) -> str:
        """How a deal of this game is entered: "contract" (who went out, each hand left),
        "gin" (a head-to-head knock, römi or void) or "tizlapos" (a buli's deal). The site
        picks its entry form by this, never by the game's id."""
        if self.id == "gin_romi":
            return "gin"
        if self.id == "tizlapos_romi":
            return "tizlapos"
        return "contract"

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

    def best_arrangement(self, cards: Sequence[Card]) -> Arrangement:
        """The arrangement of ``cards`` into melds with the least deadwood."""
        # Imported here: the solver imports this module.
        from rules.arrangement import best_arrangement

        return best_arrangement(self, cards)

    # -- serialisation ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict; ``Variant.from_dict(v.to_dict()) == v``."""
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
        # ``to_dict`` writes every field, another game's own settings too; those are left
        # at their defaults here, so they never change this game (they used to: a stored
        # Räväytys carried Tízlapos's joker price into its own table).
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
            if key != "id" and _own(variant_id, key):
                options[key] = value
        return get_variant(variant_id, **options)


# -- defaults -------------------------------------------------------------------------------

_CONTRACT_PENALTIES = {
    "A": 20,
    **{str(r): 5 for r in range(2, 10)},
    "10": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
    "JOKER": 50,
    "BLACK_TWO": 20,
}


def _defaults(variant_id: str) -> dict[str, Any]:
    if variant_id == "ravaytys":
        return {
            "id": "ravaytys",
            "name": _("Räväytys"),
            "min_players": 3,
            "max_players": 6,
            "decks": 2,
            "jokers": 4,
            "wild_jokers": True,
            "wild_black_twos": True,
            "max_wild_ratio_half": True,
            "ace_low": True,
            "ace_high": True,
            "min_run": 4,
            "min_set": 3,
            "max_set": None,
            "set_suits_distinct": False,
            "deals": (
                _c(sets=2),
                _c(sets=3),
                _c(sets=4),
                _c(runs=2),
                _c(runs=3),
                _c(sets=1, runs=1),
                _c(sets=1, runs=2),
                _c(sets=2, runs=1),
            ),
            "cards_dealt": (11, 11, 12, 11, 12, 11, 11, 11),
            "penalty_table": dict(_CONTRACT_PENALTIES),
            "buy_cap": None,
            "runs_must_not_continue": True,
        }
    if variant_id == "rutupeli":
        return {
            "id": "rutupeli",
            "name": _("Rutupeli"),
            "min_players": 2,
            "max_players": 6,
            "decks": 2,
            "jokers": 0,
            "wild_jokers": False,
            "wild_black_twos": False,
            "max_wild_ratio_half": True,
            "ace_low": True,
            "ace_high": True,
            "min_run": 4,
            "min_set": 3,
            "max_set": None,
            "set_suits_distinct": False,
            "deals": (
                _c(sets=2),
                _c(sets=1, runs=1),
                _c(runs=2),
                _c(sets=2, runs=1),
                _c(sets=1, runs=2),
                _c(sets=3),
                _c(runs=3),
            ),
            "cards_dealt": (12,) * 7,
            "penalty_table": {**_CONTRACT_PENALTIES, "BLACK_TWO": 5},
            "buy_cap": 3,
            "stock_out_ends_deal": True,
        }
    if variant_id == "gin_romi":
        return {
            "id": "gin_romi",
            "name": _("Gin Römi"),
            "min_players": 2,
            "max_players": 2,
            "decks": 1,
            "jokers": 0,
            "wild_jokers": False,
            "wild_black_twos": False,
            "max_wild_ratio_half": True,
            "ace_low": True,
            "ace_high": False,
            "min_run": 3,
            "min_set": 3,
            "max_set": 4,
            "set_suits_distinct": True,
            "deals": (),
            "cards_dealt": (10,),
            "penalty_table": {
                "A": 1,
                **{str(r): r for r in range(2, 11)},
                "J": 10,
                "Q": 10,
                "K": 10,
                "JOKER": 0,
                "BLACK_TWO": 2,
            },
            "buy_cap": None,
        }
    if variant_id == "tizlapos_romi":
        return {
            "id": "tizlapos_romi",
            "name": _("Tízlapos Römi"),
            "min_players": 2,
            "max_players": 6,
            "decks": 2,
            "jokers": 4,
            "wild_jokers": True,
            "wild_black_twos": False,
            "max_wild_ratio_half": True,
            "ace_low": True,
            "ace_high": True,
            "min_run": 3,
            "min_set": 3,
            # "Melds as Gin Römi": three or four of a rank in different suits.
            "max_set": 4,
            "set_suits_distinct": True,
            "deals": (),
            "cards_dealt": (10,),
            "penalty_table": {
                "A": 10,
                **{str(r): r for r in range(2, 11)},
                "J": 10,
                "Q": 10,
                "K": 10,
                "JOKER": 20,
                "BLACK_TWO": 2,
            },
            "buy_cap": None,
        }
    raise RuleViolation(
        _('There is no game "%(token)s"; expected one of %(expected)s.'),
        code="bad_variant",
        field="variant",
        token=variant_id,
        expected=", ".join(VARIANT_IDS),
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

_KINDS: dict[str, str] = {}
for _f in dataclasses.fields(Variant):
    _type = str(_f.type)
    _KINDS[_f.name] = {
        "bool": _BOOL,
        "int": _INT,
        "int | None": _OPT_INT,
        "str": _STR,
        "tuple[int, ...]": _INTS,
        "tuple[Contract, ...]": _DEALS,
        "dict[str, int]": _TABLE,
        "tuple[str, ...]": _WORDS,
    }[_type]
del _f, _type

# The settings that belong to one game only; every other setting is shared by all four.
_OWN_PREFIXES = {"gin_romi": "gin_", "tizlapos_romi": "tiz_"}

# The most any number of points may be: a card's value, a bonus, a deduction, a payment.
MAX_POINTS = 1000
# A target or a limit of a whole game (first to 150, out at 100).
MAX_TARGET = 10_000
# The most players at one table.
MAX_PLAYERS = 8
# The longest name a game may be given.
MAX_NAME = 100
# Gin Römi and Tízlapos entries read ten-card hands (``HAND_SIZE`` of their modules).
_TEN_CARD_GAMES = frozenset({"gin_romi", "tizlapos_romi"})
_TEN = 10

# (least, most) for the whole-number settings; anything not named takes 0 to MAX_POINTS.
_RANGES: dict[str, tuple[int, int]] = {
    "min_players": (2, MAX_PLAYERS),
    "max_players": (2, MAX_PLAYERS),
    "decks": (1, 4),
    "jokers": (0, 8),
    "min_run": (2, 13),
    "min_set": (2, 13),
    "max_set": (2, 64),
    "buy_cap": (0, UNCAPPED_BUYS),
    "gin_target": (1, MAX_TARGET),
    "gin_settle_game": (0, MAX_TARGET),
    "gin_settle_shutout": (0, MAX_TARGET),
    "tiz_elimination": (1, MAX_TARGET),
    "tiz_kis_buli_limit": (1, MAX_TARGET),
}


def _own(variant_id: str, name: str) -> bool:
    """Whether setting ``name`` can belong to game ``variant_id`` (not another's own)."""
    return all(
        variant_id == owner or not name.startswith(prefix)
        for owner, prefix in _OWN_PREFIXES.items()
    )


def _translated(text: str, translate: Callable[[str], str]) -> str:
    return translate(text)


def _whole_number(low: int, high: int, translate: Callable[[str], str]) -> str:
    return translate(_("a whole number from %(min)d to %(max)d")) % {"min": low, "max": high}


def _phrase(expected: str | Phrase) -> Phrase:
    # Built from module functions, not lambdas, so that a violation can still be pickled.
    return expected if isinstance(expected, Phrase) else Phrase(partial(_translated, expected))


def _range_phrase(low: int, high: int) -> Phrase:
    return Phrase(partial(_whole_number, low, high))


def _bad(name: str, expected: str | Phrase, value: object) -> RuleViolation:
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
        raise _bad(name, _range_phrase(low, high), value)
    return value


def _coerce(name: str, value: object, defaults: Mapping[str, Any]) -> object:
    kind = _KINDS[name]
    low, high = _RANGES.get(name, (0, MAX_POINTS))
    if kind == _BOOL:
        if not isinstance(value, bool):
            raise _bad(name, _("true or false"), value)
        return value
    if kind == _INT:
        return _whole(name, value, low, high)
    if kind == _OPT_INT:
        if value is None:
            return value
        if not (is_int(value) and low <= value <= high):
            raise _bad(name, _("a whole number, 0 or more, or none"), value)
        return value
    if kind == _STR:
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
            raise _bad(name, _("some text"), value)
        return value
    if kind == _INTS:
        if not isinstance(value, list | tuple) or not all(is_int(v) and 0 < v <= 13 for v in value):
            raise _bad(name, _("a list of whole numbers"), value)
        return tuple(int(v) for v in value)
    if kind == _WORDS:
        if not isinstance(value, list | tuple) or not all(
            isinstance(v, str) and v in TIE_ORDER_KEYS for v in value
        ):
            raise _bad(name, ", ".join(TIE_ORDER_KEYS), value)
        return tuple(str(v) for v in value)
    if kind == _DEALS:
        if not isinstance(value, list | tuple):
            raise _bad(name, _("a list of contracts"), value)
        return tuple(_contract(name, item) for item in value)
    if kind == _TABLE:
        if not isinstance(value, Mapping):
            raise _bad(name, _("a table of card values"), value)
        table = dict(defaults["penalty_table"])
        for key, points in value.items():
            if not isinstance(key, str) or key not in PENALTY_KEYS:
                raise _bad(name, ", ".join(PENALTY_KEYS), key)
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
        raise _bad(name, _('contracts like {"sets": 2, "runs": 1}'), item)
    if sets < 0 or runs < 0 or sets + runs == 0:
        raise _bad(name, _("at least one meld per contract"), item)
    return Contract(sets=sets, runs=runs)


def _check_consistent(v: Variant) -> None:
    def bad(option: str, expected: str | Phrase) -> RuleViolation:
        return _bad(option, expected, getattr(v, option))

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
    if v.id in _TEN_CARD_GAMES:
        # These games have no contracts, and their entries read ten-card hands.
        if v.deals:
            raise bad("deals", _("no contracts: this game has none"))
        if v.cards_dealt != (_TEN,):
            raise bad("cards_dealt", _("10: the entries read ten-card hands"))
    else:
        if not v.deals:
            raise bad("deals", _("at least one contract: this is a contract game"))
        if len(v.deals) > MAX_CONTRACT_DEALS:
            raise bad("deals", _range_phrase(1, MAX_CONTRACT_DEALS))
    if v.deals and len(v.cards_dealt) != len(v.deals):
        raise bad("cards_dealt", _("one number per deal"))
    if not v.cards_dealt or any(n < 1 for n in v.cards_dealt):
        raise bad("cards_dealt", _("a number of cards for each deal"))
    for contract, dealt in zip(v.deals, v.cards_dealt, strict=False):
        # The contract is laid down from one hand: the cards dealt, one drawn, and buys.
        if contract.sets * v.min_set + contract.runs * v.min_run > dealt + 1 + 2 * v.max_buys:
            raise bad("deals", _("contracts that a hand of the deal can lay down"))
    if v.id == "gin_romi" and (v.min_players, v.max_players) != (2, 2):
        raise bad("min_players" if v.min_players != 2 else "max_players", _("2: a game for two"))
    if not v.tiz_knock_cards:
        raise bad("tiz_knock_cards", _("the ranks a knocker may keep, like [2, 3]"))
    if v.tiz_kis_buli and v.tiz_kis_buli_limit >= v.tiz_elimination:
        # "Under 50 while all others are over it": the others would long be out.
        raise bad("tiz_kis_buli_limit", _("less than the points that put a player out"))


def get_variant(variant_id: str, **options: object) -> Variant:
    """The variant ``variant_id`` with its defaults, changed by ``options``.

    ``variant_id`` is one of :data:`VARIANT_IDS`. Each option is a field of
    :class:`Variant`; a setting of another game (``gin_*`` belongs to Gin Römi, ``tiz_*``
    to Tízlapos Römi), an unknown option, a value of the wrong kind or out of range, or
    settings that together make a game nobody can score (a contract game without
    contracts) raise :class:`RuleViolation` (code ``"bad_option"``).
    """
    defaults = _defaults(variant_id)
    values = dict(defaults)
    for name, value in options.items():
        if name == "id" or name not in _KINDS:
            raise RuleViolation(
                _('There is no setting "%(option)s".'),
                code="bad_option",
                field=name,
                option=name,
                token=name,
            )
        if not _own(variant_id, name):
            raise RuleViolation(
                _('There is no setting "%(option)s" in %(game)s.'),
                code="bad_option",
                field=name,
                option=name,
                token=name,
                game=defaults["name"],
            )
        values[name] = _coerce(name, value, defaults)
    if variant_id == "tizlapos_romi":
        # The joker's price is one setting with two names; changing either changes both.
        table: dict[str, int] = values["penalty_table"]
        given = options.get("penalty_table")
        if "tiz_joker_penalty" in options:
            joker = values["tiz_joker_penalty"]
            if isinstance(given, Mapping) and "JOKER" in given and given["JOKER"] != joker:
                raise _bad(
                    "tiz_joker_penalty",
                    _("the joker's value in the table of card values"),
                    joker,
                )
            values["penalty_table"] = {**table, "JOKER": joker}
        else:
            values["tiz_joker_penalty"] = table["JOKER"]
    variant = Variant(**values)
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
    rows.append(
        (_("Players"), _("%(min)d to %(max)d") % {"min": v.min_players, "max": v.max_players})
    )
    deck_text = (
        _("%(decks)d decks and %(jokers)d jokers")
        if v.decks > 1
        else _("%(decks)d deck and %(jokers)d jokers")
    )
    rows.append((_("Cards"), deck_text % {"decks": v.decks, "jokers": v.jokers}))
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
    if v.ace_low and v.ace_high:
        ace = _("low or high (A-2-3 or Q-K-A), never both at once")
    elif v.ace_low:
        ace = _("low only (A-2-3)")
    else:
        ace = _("high only (Q-K-A)")
    rows.append((_("Ace in a run"), ace))
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
    table = v.penalty_table
    price = [f"A {table['A']}"]
    price += [f"{r} {table[r]}" for r in [str(n) for n in range(2, 11)] + ["J", "Q", "K"]]
    if v.jokers:
        price.append(_("joker %(points)d") % {"points": table["JOKER"]})
    if v.wild_black_twos:
        price.append(_("black two %(points)d") % {"points": table["BLACK_TWO"]})
    rows.append((_("Card values"), ", ".join(price)))
    if v.is_contract_game:
        rows.append(
            (
                _("Buying a discard"),
                _("at most %(count)d buys per player per deal") % {"count": v.buy_cap}
                if v.buy_cap is not None
                # The engine's own cap (rules.limits.UNCAPPED_BUYS), stated where it is met.
                else _("no limit; a score sheet takes up to %(count)d per player per deal")
                % {"count": v.max_buys},
            )
        )
        rows.append(
            (
                _("Runs of one suit in a laydown"),
                _("may overlap or leave a gap, but may not continue each other")
                if v.runs_must_not_continue
                else _("may also continue each other"),
            )
        )
        rows.append(
            (
                _("Stock used up"),
                _("the deal ends and everyone scores its hand")
                if v.stock_out_ends_deal
                else _("the discards are shuffled into a new stock"),
            )
        )
        rows.append(
            (
                _("Going out at once (räväytys)"),
                _("recorded, %(points)d points off") % {"points": v.ravaytys_bonus}
                if v.ravaytys_bonus
                else _("recorded, no bonus"),
            )
        )
        rows.append(
            (
                _("Laydown on the score sheet"),
                _("required") if v.require_laydown else _("optional"),
            )
        )
    if v.id == "gin_romi":
        rows.append((_("Game"), _("first to %(target)d points") % {"target": v.gin_target}))
        rows.append(
            (
                _("Bonuses"),
                _("undercut %(undercut)d, römi %(romi)d")
                % {"undercut": v.gin_bonus_undercut, "romi": v.gin_bonus_romi},
            )
        )
        rows.append(
            (
                _("Settlement"),
                _("%(deal)d per deal won, %(game)d for the game, %(shutout)d more for a shutout")
                % {
                    "deal": v.gin_settle_per_deal,
                    "game": v.gin_settle_game,
                    "shutout": v.gin_settle_shutout,
                },
            )
        )
        rows.append(
            (
                _("Spade upper card doubles"),
                _("yes") if v.gin_spade_doubles else _("no"),
            )
        )
    if v.id == "tizlapos_romi":
        rows.append(
            (
                _("Knock card"),
                " / ".join(str(n) for n in v.tiz_knock_cards),
            )
        )
        rows.append(
            (
                _("Römi"),
                _("%(units)d units from each player, %(points)d points off")
                % {"units": v.tiz_romi_units, "points": v.tiz_romi_deduction},
            )
        )
        rows.append(
            (_("Knock"), _("%(units)d unit from each player") % {"units": v.tiz_knock_units})
        )
        rows.append(
            (
                _("Out of the buli"),
                _(
                    "at %(points)d points; the last player in collects %(units)d units from "
                    "every other player, and the re-entry payments"
                )
                % {"points": v.tiz_elimination, "units": v.tiz_last_survivor_units},
            )
        )
        rows.append((_("Re-entry"), _("%(units)d units") % {"units": v.tiz_reentry_units}))
        rows.append(
            (
                _("Special hands (points off)"),
                _("royal flush %(royal)d, piccolo %(piccolo)d, flush %(flush)d")
                % {
                    "royal": v.tiz_special_royal,
                    "piccolo": v.tiz_special_piccolo,
                    "flush": v.tiz_special_flush,
                },
            )
        )
        rows.append(
            (
                _("Kis buli"),
                _("played, under %(limit)d") % {"limit": v.tiz_kis_buli_limit}
                if v.tiz_kis_buli
                else _("not played"),
            )
        )
    return rows
