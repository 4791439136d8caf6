"""A deal as the table entered it, for the phone that confirms it: seat by seat in seat
order, the cards with their suit signs (what the player checks against the cards on the
table), the points typed, the buys and marks, and the points the deal scores."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules import RuleViolation, Variant
from rules.cards import RANK_CODES
from rules.notation import ParsedCard, parse_tokens
from scoring.families import EntryFamily, family_of, flatten_entry
from scoring.models import Deal
from tournaments.models import Seat

# No buy is the usual line: said only when there were some.
_SAID_WHEN_NOT_ZERO = frozenset({"buys"})


@dataclass(frozen=True)
class Shown:
    """One card (or value) as shown: its text, and whether it is a red suit's."""

    text: str
    red: bool = False


@dataclass(frozen=True)
class Fact:
    """One thing entered: its words ("" for a hand's cards, which need none) and its value,
    in groups (a laydown's melds; one group for anything else); no groups for a mark that
    is its words alone ("went out", "drops out")."""

    label: str
    groups: tuple[tuple[Shown, ...], ...] = ()


@dataclass
class EnteredSeat:
    seat: Seat
    points: int | None
    facts: list[Fact] = field(default_factory=list)


@dataclass
class EnteredDeal:
    # The deal's own facts (how it ended, the upper card, the melds laid down).
    facts: list[Fact]
    seats: list[EnteredSeat]


def shown_cards(text: str) -> tuple[Shown, ...]:
    """Cards as typed, each as `7♦` (a bare rank as itself, a joker 🃏); text the notation
    cannot read, as typed (a stored deal was read once, so this is for old data only)."""
    try:
        return tuple(_shown_card(card) for card in parse_tokens(text))
    except RuleViolation:
        return (Shown(text),)


def _shown_card(card: ParsedCard) -> Shown:
    if card.is_joker:
        return Shown("🃏")
    rank = RANK_CODES[card.rank]
    if card.suit is None:
        return Shown(rank)
    return Shown(rank + card.suit.symbol, red=not card.suit.is_black)


def _value(family: EntryFamily, part: str, value: Any) -> tuple[tuple[Shown, ...], ...]:
    if value is True:
        return ()
    if part in family.card_keys:
        melds = value if isinstance(value, list) else [value]
        return tuple(shown_cards(str(meld)) for meld in melds)
    words = dict(family.choices.get(part, ()))
    return ((Shown(str(words.get(value, value))),),)


def _said(part: str, value: Any) -> bool:
    if value is None or value is False or value == "" or value == []:
        return False
    return not (part in _SAID_WHEN_NOT_ZERO and value == 0)


def entered_deal(*, deal: Deal, seats: Sequence[Seat], variant: Variant) -> EnteredDeal:
    """`deal`'s entry as its table typed it, each seat's line in seat order with its points
    (`seats` the table's, in seat order). A seat the entry names (who went out, won, knocked)
    has the words on its own line."""
    family = family_of(variant)
    positions = range(len(seats))
    deal_facts: list[Fact] = []
    seat_facts: dict[int, list[Fact]] = defaultdict(list)
    # In the order the family's form asks them: PostgreSQL's jsonb keeps no key order.
    order = {part: index for index, part in enumerate(family.labels)}
    entered = sorted(
        flatten_entry(deal.entry).items(), key=lambda item: order.get(item[0][2], len(order))
    )
    for (_key, seat, part), value in entered:
        if not _said(part, value):
            continue
        label = str(family.labels.get(part, part))
        if part in family.seat_keys and value in positions and not isinstance(value, bool):
            seat_facts[value].append(Fact(label))
        elif seat is None:
            deal_facts.append(Fact(label, _value(family, part, value)))
        elif seat in positions:
            # A hand's cards need no words: the rest of its line is said by name.
            words = "" if part in family.card_keys else label
            seat_facts[seat].append(Fact(words, _value(family, part, value)))
    points = deal.points if isinstance(deal.points, list) else []
    return EnteredDeal(
        facts=deal_facts,
        seats=[
            EnteredSeat(
                seat=seat,
                points=points[index] if index < len(points) else None,
                facts=seat_facts[index],
            )
            for index, seat in enumerate(seats)
        ],
    )
