from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import template

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


@dataclass(frozen=True)
class GridCard:
    """One key of the card grid: what it types (`code`), shows and is called."""

    code: str  # the engine's canonical code, "10H"
    rank: str
    sign: str
    red: bool

    @property
    def name(self) -> str:
        """The key's accessible name, "10♥": the same in every language, as on the key."""
        return self.rank + self.sign


@register.simple_tag
def card_grid(ranks: str = "") -> list[GridCard]:
    """The card grid's keys, a row per suit (♠ ♥ ♦ ♣) of every rank in `ranks` ("2 3" for a
    knock card; all thirteen when empty), in the order a hand is sorted."""
    wanted = ranks.split() or list(RANK_CODES.values())
    return [
        GridCard(Card(rank, suit).code, code, suit.symbol, not suit.is_black)
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
