"""Pricing the cards left in a hand, and checking that a deal's cards could exist."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.cards import RANK_CODES, Card
from rules.errors import RuleViolation, token_text
from rules.i18n import _, ngettext
from rules.limits import check_hand, check_text
from rules.notation import ParsedCard, parse_tokens
from rules.variants import Variant

__all__ = [
    "Hand",
    "check_feasible",
    "hand_from_text",
    "hand_from_value",
    "price_breakdown",
    "price_hand",
    "price_text",
]


@dataclass(frozen=True)
class Hand:
    """Cards left in a hand as entered: ``cards`` with suits (and jokers), ``loose`` ranks
    typed without a suit ("A K 7 7"), which is enough to price them."""

    cards: tuple[Card, ...] = ()
    loose: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.cards) + len(self.loose)


def _loose_key(variant: Variant, parsed: ParsedCard) -> str:
    if parsed.rank == 2 and variant.two_needs_suit:
        red = variant.penalty_table["2"]
        black = variant.penalty_table["BLACK_TWO"]
        raise RuleViolation(
            _(
                '"%(token)s" (item %(position)d) needs a suit: '
                "in %(game)s a black two counts %(black)d and a red two %(red)d."
            ),
            code="bad_token",
            token=parsed.token,
            position=parsed.position,
            expected="a two with its suit, like 2H or ♠2",
            game=variant.name,
            black=black,
            red=red,
        )
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(parsed.rank, str(parsed.rank))


def hand_from_text(variant: Variant, text: str) -> Hand:
    """Read a hand typed as text; ranks without suits are allowed (they price alike).

    Text longer than a hand of the game is typed in is refused unread, and a hand of more
    cards than the game deals (see :mod:`rules.limits`).
    """
    check_text(variant, text)
    hand = _read_text(variant, text)
    check_hand(variant, len(hand))
    return hand


def _read_text(variant: Variant, text: str) -> Hand:
    cards: list[Card] = []
    loose: list[int] = []
    for parsed in parse_tokens(text):
        if parsed.is_joker or parsed.suit is not None:
            cards.append(parsed.card)
        else:
            _loose_key(variant, parsed)
            loose.append(parsed.rank)
    return Hand(tuple(cards), tuple(loose))


def hand_from_value(variant: Variant, value: object) -> Hand:
    """A hand from an entry value: text, or a list of texts (each item one or more cards)."""
    if isinstance(value, str):
        return hand_from_text(variant, value)
    if isinstance(value, list | tuple):
        check_text(variant, value)
        cards: list[Card] = []
        loose: list[int] = []
        for position, item in enumerate(value, 1):
            if isinstance(item, Card):
                cards.append(item)
                continue
            try:
                if not isinstance(item, str):
                    raise RuleViolation(
                        _(
                            '"%(token)s" (item %(position)d) is not a card: '
                            "expected a card like AS, 10H, A♠, ♠A or JK."
                        ),
                        code="bad_token",
                        token=token_text(item),
                        position=position,
                        expected="a card like AS, 10H, A♠, ♠A or JK",
                    )
                part = _read_text(variant, item)
            except RuleViolation as err:
                raise err.at_item(position) from None
            cards.extend(part.cards)
            loose.extend(part.loose)
        hand = Hand(tuple(cards), tuple(loose))
        check_hand(variant, len(hand))
        return hand
    raise RuleViolation(
        _('"%(token)s" is not a list of cards: expected text like "AS 10H JK".'),
        code="bad_token",
        token=token_text(value),
        position=1,
        expected="cards as text",
    )


def _key_of_rank(rank: int) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


def price_breakdown(variant: Variant, hand: Hand | Sequence[Card]) -> list[tuple[str, int]]:
    """Each card's label and value, in the order entered (suited cards, then loose ranks)."""
    if not isinstance(hand, Hand):
        hand = Hand(tuple(hand))
    check_hand(variant, len(hand))
    _no_jokers_check(variant, hand.cards)
    rows = [(c.label, variant.penalty(c)) for c in hand.cards]
    rows += [(RANK_CODES[r], variant.penalty_table[_key_of_rank(r)]) for r in hand.loose]
    return rows


def price_hand(variant: Variant, hand: Hand | Sequence[Card]) -> int:
    """The penalty of the cards left in a hand, by the variant's table.

    A wild black two left in hand costs the black-two price; a joker the joker price.
    Raises :class:`RuleViolation` if the hand itself is impossible (more cards than a hand
    of the game holds, more copies of a card than the decks hold, a joker in a game
    without jokers).
    """
    if not isinstance(hand, Hand):
        hand = Hand(tuple(hand))
    check_hand(variant, len(hand))
    check_feasible(variant, [hand])
    return sum(points for _label, points in price_breakdown(variant, hand))


def price_text(variant: Variant, text: str) -> int:
    """Price a hand typed as text ("A K 7 7", "AS 10H JK")."""
    return price_hand(variant, hand_from_text(variant, text))


def _no_jokers_check(variant: Variant, cards: Sequence[Card], field: str | None = None) -> None:
    if variant.jokers == 0 and any(c.is_joker for c in cards):
        raise RuleViolation(
            _("There are no jokers in %(game)s."),
            code="no_jokers",
            field=field,
            game=variant.name,
        )


def check_feasible(
    variant: Variant,
    hands: Sequence[Hand | Sequence[Card]],
    fields: Sequence[str | None] | None = None,
) -> None:
    """Refuse cards that could not all be in play at once.

    ``hands`` are all the cards of one deal's entry (hands left, laid melds); no card may
    appear more often than the decks hold, nor jokers more than the game has, nor a rank
    typed without suits more often than the decks hold of that rank; nor may one hand hold
    more cards than a hand of the game does. The violation's ``field`` is the entry of
    ``fields`` for the hand where the surplus card appears.
    """
    seen: dict[Card, int] = {}
    ranks: dict[int, int] = {}
    per_rank = 4 * variant.decks
    for index, raw in enumerate(hands):
        field = fields[index] if fields is not None and index < len(fields) else None
        check_hand(variant, len(raw), field)
        hand = raw if isinstance(raw, Hand) else Hand(tuple(raw))
        _no_jokers_check(variant, hand.cards, field)
        for card in hand.cards:
            count = seen[card] = seen.get(card, 0) + 1
            if card.suit is None:
                if count > variant.jokers:
                    raise RuleViolation(
                        ngettext(
                            "Impossible cards: %(count)d joker in a game with %(jokers)d.",
                            "Impossible cards: %(count)d jokers in a game with %(jokers)d.",
                            count,
                        ),
                        code="too_many_copies",
                        field=field,
                        count=count,
                        jokers=variant.jokers,
                        card=card.label,
                    )
                continue
            if count > variant.decks:
                raise _too_many(variant, count, card.label, field)
            in_rank = ranks[card.rank] = ranks.get(card.rank, 0) + 1
            if in_rank > per_rank:
                raise _too_many(variant, in_rank, RANK_CODES[card.rank], field)
        for rank in hand.loose:
            in_rank = ranks[rank] = ranks.get(rank, 0) + 1
            if in_rank > per_rank:
                raise _too_many(variant, in_rank, RANK_CODES[rank], field)


def _too_many(variant: Variant, count: int, label: str, field: str | None) -> RuleViolation:
    return RuleViolation(
        _("Impossible cards: %(count)d × %(card)s in a %(decks)d-deck game."),
        code="too_many_copies",
        field=field,
        count=count,
        card=label,
        decks=variant.decks,
    )
