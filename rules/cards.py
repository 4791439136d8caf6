"""Cards and suits: the engine's smallest values."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from rules.errors import RuleViolation
from rules.i18n import _

__all__ = ["JOKER", "RANK_CODES", "Card", "Suit", "card_of", "full_deck", "rank_code"]


class Suit(enum.StrEnum):
    """The four suits; the value is the canonical one-letter code."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        """The suit sign: ♠ ♥ ♦ ♣."""
        return _SYMBOLS[self]

    @property
    def is_black(self) -> bool:
        """Spades and clubs are black (black twos are wild in Räväytys)."""
        return self in (Suit.SPADES, Suit.CLUBS)


_SUIT_SHIFT: dict[Suit | None, int] = {s: 14 * i for i, s in enumerate(Suit)}
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}

RANK_CODES: dict[int, str] = {
    1: "A",
    **{r: str(r) for r in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
}
_RANK_FROM_CODE = {code: rank for rank, code in RANK_CODES.items()}


def rank_code(rank: int) -> str:
    """Canonical text of a rank: 1 -> "A", 10 -> "10", 12 -> "Q"."""
    return RANK_CODES[rank]


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card. ``rank`` is 1..13 (A=1, J=11, Q=12, K=13) or 0 for a joker, whose suit is None."""

    rank: int
    suit: Suit | None
    # The card's bit in a hand packed into one int: bit ``rank`` of its suit's 14 bits, the
    # suits in Suit order; 0 for a joker. The arrangement solver adds these up rather than
    # looking every card up on every call (Gin hands are solved in microseconds).
    bit: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        joker = self.rank == 0 and self.suit is None
        natural = 1 <= self.rank <= 13 and isinstance(self.suit, Suit)
        if not (joker or natural):
            raise ValueError(f"not a card: rank={self.rank!r} suit={self.suit!r}")
        bit = 0
        if natural and isinstance(self.rank, int):
            bit = 1 << (_SUIT_SHIFT[self.suit] + self.rank)
        object.__setattr__(self, "bit", bit)

    # Pickled as before the bit was added, (rank, suit), and the bit worked out again on
    # loading: a card pickled by an older release loads whole.
    def __getstate__(self) -> tuple[int, Suit | None]:
        return (self.rank, self.suit)

    def __setstate__(self, state: tuple[int, Suit | None]) -> None:
        object.__setattr__(self, "rank", state[0])
        object.__setattr__(self, "suit", state[1])
        self.__post_init__()

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.suit is None

    @property
    def code(self) -> str:
        """Canonical text: "AS", "10H", "QD", "JK"."""
        if self.suit is None:
            return "JK"
        return RANK_CODES[self.rank] + self.suit.value

    @property
    def label(self) -> str:
        """Text for messages a player reads: "♠Q", "♥10", "JK".

        A joker is shown by its code, which reads the same in every language the site
        speaks (the messages around it are translated; a label inside them is not).
        """
        if self.suit is None:
            return "JK"
        return self.suit.symbol + RANK_CODES[self.rank]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    @classmethod
    def joker(cls) -> Card:
        """A joker."""
        return cls(0, None)

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Parse exactly the canonical form produced by :attr:`code` ("AS", "10H", "JK").

        For everything people type, use :func:`rules.notation.parse_cards`.
        """
        if code == "JK":
            return cls(0, None)
        rank = _RANK_FROM_CODE.get(code[:-1])
        try:
            suit = Suit(code[-1:])
        except ValueError:
            suit = None
        if rank is None or suit is None:
            raise RuleViolation(
                _('"%(token)s" is not a card code; expected a code like AS, 10H, QD or JK.'),
                code="bad_token",
                token=code,
                position=1,
                expected="AS, 10H, QD or JK",
            )
        return cls(rank, suit)


JOKER = Card(0, None)

_INTERNED: dict[tuple[int, Suit | None], Card] = {(0, None): JOKER}
_INTERNED.update({(r, s): Card(r, s) for s in Suit for r in range(1, 14)})


def card_of(rank: int, suit: Suit | None) -> Card:
    """The card ``rank`` of ``suit`` (0 and None for a joker), without building a new one."""
    return _INTERNED[(rank, suit)]


def full_deck(decks: int, jokers: int) -> list[Card]:
    """Every card of ``decks`` 52-card packs plus ``jokers`` jokers."""
    cards = [Card(rank, suit) for _deck in range(decks) for suit in Suit for rank in range(1, 14)]
    cards.extend(JOKER for _j in range(jokers))
    return cards
