"""How much input the engine reads, game by game.

Every entry point that takes cards refuses more than a hand (or a laydown) of the game can
hold, and text longer than such a hand is ever typed in, before it parses or solves
anything: the solver's work grows steeply with the hand (a full two-deck pack once ran it
for minutes and gigabytes), and nothing else is worth reading at that size.

The limits are properties of :class:`rules.Variant`, derived from the game's own numbers,
so the site can show them and refuse a longer post before the engine sees it:

``max_hand_cards``
    The most cards a hand may hold: the most cards dealt in any deal, one more (the
    dealer's extra card, or a card drawn and not yet discarded) and two for every buy a
    player may make in a deal (the card bought and the penalty card from the stock).
    Räväytys 12 + 1 + 2 × 6 = 25, Rutupeli 12 + 1 + 2 × 3 = 19, Gin Römi and Tízlapos 11.
``max_laydown_cards``
    The most cards one laydown (all its melds together) may hold; a laydown comes out of
    one hand, so it is the same number. One meld is held to it too.
``max_text_length``
    The most characters read as one hand or one laydown: :data:`TEXT_PER_CARD` for each
    card of ``max_hand_cards`` ("herttakuningas, " is 16), never more than
    :data:`rules.notation.MAX_TEXT_LENGTH`, the ceiling of the card reader itself.
``max_buys``
    The most buys recorded for one player in one deal: the game's ``buy_cap``, or
    :data:`UNCAPPED_BUYS` where the game sets none (Räväytys); 0 in games without buying.
``max_deals``
    The deals of a table: a contract game's own, else :data:`OPEN_GAME_DEALS`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.cards import Card
from rules.errors import RuleViolation
from rules.i18n import _
from rules.notation import MAX_TEXT_LENGTH, cards_from_value, text_too_long

if TYPE_CHECKING:
    from rules.variants import Variant

__all__ = [
    "MAX_CONTRACT_DEALS",
    "MAX_TEXT_LENGTH",
    "OPEN_GAME_DEALS",
    "TEXT_PER_CARD",
    "UNCAPPED_BUYS",
    "check_hand",
    "check_laydown",
    "check_meld",
    "check_text",
    "read_cards",
    "text_size",
]

# Characters allowed per card of a hand when it is typed: the longest way of writing one
# card with its separator ("herttakuningas, ") and room to spare.
TEXT_PER_CARD = 24
# Räväytys sets no limit on buying a discard ("Ostan!"). Each buy brings two cards, and a
# player who buys more than six times in one deal holds a hand no table has seen; the
# engine records at most this many. At the 25 cards that allows the solver takes a
# fraction of a second on dealt hands and a few seconds on the worst found (sets of every
# suit twice over with wild cards); each buy more roughly doubles that.
UNCAPPED_BUYS = 6
# Gin Römi and Tízlapos play on until a target or the end of the buli, not a fixed number
# of deals; a table scores at most this many.
OPEN_GAME_DEALS = 1000
# The most deals a contract game may list (Räväytys has 8, Rutupeli 7).
MAX_CONTRACT_DEALS = 20


def text_size(value: object) -> int:
    """The characters of an entry value: text, or a list of texts (one per card or meld).

    A card given as a :class:`Card` counts its code; anything else one character (it is
    refused when read).
    """
    return _size(value, 0)


def _size(value: object, depth: int) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, Card):
        return len(value.code)
    if isinstance(value, list | tuple) and depth < 2:
        return sum(_size(item, depth + 1) for item in value)
    return 1


def check_text(variant: Variant, value: object, field: str | None = None) -> None:
    """Refuse text (or a list of texts) longer than a hand of ``variant`` is typed in."""
    size = text_size(value)
    if size > variant.max_text_length:
        raise text_too_long(size, variant.max_text_length, field)


def _refuse_over(
    template: str, code: str, count: int, limit: int, variant: Variant, field: str | None
) -> None:
    if count > limit:
        raise RuleViolation(
            template, code=code, field=field, count=count, limit=limit, game=variant.name
        )


def check_hand(variant: Variant, count: int, field: str | None = None) -> None:
    """Refuse a hand of ``count`` cards when ``variant`` never deals one that large."""
    _refuse_over(
        _("A hand holds at most %(limit)d cards in %(game)s; this one has %(count)d."),
        "hand_too_large", count, variant.max_hand_cards, variant, field,
    )  # fmt: skip


def check_laydown(variant: Variant, count: int, field: str | None = "laydown") -> None:
    """Refuse a laydown of ``count`` cards in all, more than one hand of ``variant`` holds."""
    _refuse_over(
        _("A laydown holds at most %(limit)d cards in %(game)s; this one has %(count)d."),
        "laydown_too_large", count, variant.max_laydown_cards, variant, field,
    )  # fmt: skip


def check_meld(variant: Variant, count: int, field: str | None = None) -> None:
    """Refuse a meld of ``count`` cards, more than a laydown of ``variant`` holds."""
    _refuse_over(
        _("A meld holds at most %(limit)d cards in %(game)s; this one has %(count)d."),
        "meld_too_large", count, variant.max_laydown_cards, variant, field,
    )  # fmt: skip


def read_cards(
    variant: Variant, value: object, field: str | None = None, *, count: bool = True
) -> list[Card]:
    """The cards of an entry value (text or a list of texts), within the hand limit.

    The text's length is checked before it is read, the number of cards after (unless
    ``count`` is false: the caller holds the cards to an exact number of its own). Every
    violation belongs to ``field``.
    """
    check_text(variant, value, field)
    try:
        cards = cards_from_value(value)
    except RuleViolation as err:
        raise err.at(field) from None
    if count:
        check_hand(variant, len(cards), field)
    return cards


# The card reader's own ceiling must hold every game's hand.
assert TEXT_PER_CARD * (13 + 1 + 2 * UNCAPPED_BUYS) <= MAX_TEXT_LENGTH
