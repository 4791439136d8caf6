from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.translation import pgettext

from rules import Card, RuleViolation, Suit, Variant
from rules.cards import RANK_CODES
from scoring.i18n import contract_text, violation_text
from tournaments.models import Event
from tournaments.selectors import event_format_rows

register = template.Library()


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """`{{ errors|get:"p2_cards" }}`: templates cannot index a dict by a computed key."""
    if not mapping:
        return ""
    return mapping.get(key, "") if hasattr(mapping, "get") else ""


@register.filter
def field(prefix: str, seat: int) -> str:
    """`{{ "cards"|field:seat.position }}` → `p2_cards`, the entry form's field name."""
    return f"p{seat}_{prefix}"


@register.filter
def contract(value: Any) -> str:
    return contract_text(value)


# What a screen reader calls a card, in the page's language: "10 of spades", Finnish
# "pata 10", Hungarian "kőr ász". Numbers are read as numbers; the court cards and the ace
# by the words the players use.
def _suit_word(suit: Suit) -> str:
    return {
        Suit.SPADES: pgettext("card suit", "spades"),
        Suit.HEARTS: pgettext("card suit", "hearts"),
        Suit.DIAMONDS: pgettext("card suit", "diamonds"),
        Suit.CLUBS: pgettext("card suit", "clubs"),
    }[suit]


def _rank_word(code: str) -> str:
    words = {
        "A": pgettext("card rank", "ace"),
        "J": pgettext("card rank", "jack"),
        "Q": pgettext("card rank", "queen"),
        "K": pgettext("card rank", "king"),
    }
    return words.get(code, code)


def _rank_face(code: str) -> str:
    """The letter on a key's face as the page's players read it: Hungarian cards show B
    (bubi) and D (dáma) for the jack and the queen. Only the face: a tap still types the
    engine's canonical code."""
    faces = {
        "A": pgettext("card face", "A"),
        "J": pgettext("card face", "J"),
        "Q": pgettext("card face", "Q"),
        "K": pgettext("card face", "K"),
    }
    return faces.get(code, code)


@dataclass(frozen=True)
class GridCard:
    """One key of the card grid: what it types (`code`), shows and is called."""

    code: str  # the engine's canonical code, "10H"
    rank: str  # the face's rank, in the page's language ("B" for a Hungarian jack)
    sign: str
    red: bool
    name: str  # the key's accessible name, "10 of hearts", "hertta 10"


@register.simple_tag
def card_grid(ranks: str = "") -> list[GridCard]:
    """The card grid's keys, a row per suit (♠ ♥ ♦ ♣) of every rank in `ranks` ("2 3" for a
    knock card; all thirteen when empty), in the order a hand is sorted."""
    wanted = ranks.split() or list(RANK_CODES.values())
    return [
        GridCard(
            code=Card(rank, suit).code,
            rank=_rank_face(code),
            sign=suit.symbol,
            red=not suit.is_black,
            name=pgettext("card name", "%(rank)s of %(suit)s")
            % {"rank": _rank_word(code), "suit": _suit_word(suit)},
        )
        for suit in Suit
        for rank, code in RANK_CODES.items()
        if code in wanted
    ]


@dataclass(frozen=True)
class TapKey:
    """One key of a contract hand's tap row: what it types (`code`) and shows."""

    code: str
    text: str
    red: bool = False


def _suited_key(rank: int, suit: Suit) -> TapKey:
    return TapKey(Card(rank, suit).code, suit.symbol + RANK_CODES[rank], not suit.is_black)


@register.simple_tag
def tap_keys(variant: Variant) -> list[TapKey]:
    """The tap row of a contract hand: a key per rank (a hand's suits cost nothing), a red
    two of each suit in the two's place where a bare "2" cannot be priced (the engine's
    `two_needs_suit`), then the wild cards: a joker, the black twos."""
    keys: list[TapKey] = []
    for rank, code in RANK_CODES.items():
        if rank == 2 and variant.two_needs_suit:
            keys += [_suited_key(2, suit) for suit in Suit if not suit.is_black]
        else:
            keys.append(TapKey(code, code))
    if variant.jokers:
        keys.append(TapKey("JK", "🃏"))
    if variant.wild_black_twos:
        keys += [_suited_key(2, suit) for suit in Suit if suit.is_black]
    return keys


@register.filter
def violation(error: RuleViolation | None, names: Sequence[str] | None = None) -> str:
    """An engine error in the reader's language: `{{ sheet.problem.reason|violation }}`;
    `{{ …|violation:names }}` names the seats' players (`names` in seat order)."""
    return violation_text(error, names) if error is not None else ""


@register.simple_tag
def format_rows(event: Event) -> list[tuple[str, str]]:
    """`{% format_rows event as rows %}`: the event's format in plain words."""
    return event_format_rows(event=event)
