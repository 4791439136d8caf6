"""Reading the cards people type, and printing them back.

Accepted (case-insensitive, separated by spaces or commas):

* rank then suit or suit then rank: ``AS 10H TH QD 7C``, ``A♠ 10♥``, ``♠A``, ``H3``;
* jokers: ``JK``, ``X``, ``*``, ``joker``, ``jokeri``, ``zsóker``;
* Finnish and Hungarian words, alone or joined to a rank: ``pata-ässä``, ``herttakuningas``,
  ``pikk ász``, ``kőr dáma``; Hungarian rank letters ``B`` (bubi, jack) and ``D`` (dáma,
  queen) next to a suit, e.g. ``BH`` or ``DS``;
* runs: ``pata-5-6-7-8`` (a list), ``risti 5-8`` or ``♥J-A`` (two ends: every card between
  them), ``♥3-4-JK-6`` (a joker inside a list stays a joker);
* ``D`` is diamonds, except where it can only be the rank dáma (queen): right after a
  suit (``kőr D``), inside a run after its suit, or where a suit already holds and no rank
  follows;
* a suit word on its own gives its suit to the bare ranks that follow it
  (``risti 5 6 7 8``), up to the first card that has its own suit;
* rank sets ``777``, ``QQQ``: ranks without suits.

A rank without a suit is enough to price a hand but not to say which card it is, so
:func:`parse_cards` refuses it unless ``allow_suitless=True``, which gives such cards suits
in turn (hearts, diamonds, spades, clubs) for pricing only. :func:`parse_ranks` and
:func:`parse_tokens` keep the difference.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.cards import JOKER, Card, Suit, card_of
from rules.errors import RuleViolation, token_text
from rules.i18n import _

__all__ = [
    "MAX_TEXT_LENGTH",
    "ParsedCard",
    "cards_from_value",
    "format_cards",
    "parse_card",
    "parse_cards",
    "parse_ranks",
    "parse_tokens",
    "text_too_long",
]

# The most characters the reader reads at once, whatever the game: more than any hand is
# typed in (each game's own, smaller limit is ``Variant.max_text_length``). Longer text is
# refused unread.
MAX_TEXT_LENGTH = 1000

EXPECTED_CARD = "a card like AS, 10H, A♠, ♠A or JK"
EXPECTED_SUIT = "a suit with the rank, like 7H or ♥7"
EXPECTED_RANK = "a rank after the suit, like pata 5 or ♠A"
EXPECTED_RANGE = "a run from low to high in one suit, like pata-5-8 or ♥J-A"

_RANKS: dict[str, int] = {
    "a": 1,
    "1": 1,
    "14": 1,
    **{str(r): r for r in range(2, 11)},
    "t": 10,
    "j": 11,
    "q": 12,
    "k": 13,
    # Hungarian letters: bubi, dáma (király and ász share K and A).
    "b": 11,
    "d": 12,
    "ace": 1,
    "jack": 11,
    "queen": 12,
    "king": 13,
    "assa": 1,
    "jatka": 11,
    "rouva": 12,
    "kuningas": 13,
    "asz": 1,
    "bubi": 11,
    "dama": 12,
    "kiraly": 13,
}
# A rank set repeats one of these ("777", "QQQ", "101010"); "1" and "14" stay out because
# "11" or "1414" would read as nonsense more often than as aces.
_SET_RANKS = [r for r in _RANKS if len(r) <= 2 and r not in ("1", "14")]

_SUITS: dict[str, Suit] = {
    "s": Suit.SPADES,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "spade": Suit.SPADES,
    "spades": Suit.SPADES,
    "pata": Suit.SPADES,
    "pikk": Suit.SPADES,
    "h": Suit.HEARTS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "heart": Suit.HEARTS,
    "hearts": Suit.HEARTS,
    "hertta": Suit.HEARTS,
    "kor": Suit.HEARTS,
    "d": Suit.DIAMONDS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "diamond": Suit.DIAMONDS,
    "diamonds": Suit.DIAMONDS,
    "ruutu": Suit.DIAMONDS,
    "karo": Suit.DIAMONDS,
    "c": Suit.CLUBS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "club": Suit.CLUBS,
    "clubs": Suit.CLUBS,
    "risti": Suit.CLUBS,
    "treff": Suit.CLUBS,
}
_JOKERS = frozenset({"jk", "x", "*", "joker", "jokeri", "zsoker", "🃏"})
_SEPARATORS = re.compile(r"[\s,;]+")
_SUITLESS_ORDER = (Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS)


@dataclass(frozen=True, slots=True)
class ParsedCard:
    """One card as typed: ``suit`` is None for a suitless rank (and for a joker)."""

    rank: int
    suit: Suit | None
    token: str
    position: int

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.rank == 0

    @property
    def card(self) -> Card:
        """The card; only for jokers and suited cards."""
        if self.rank == 0:
            return JOKER
        if self.suit is not None and 1 <= self.rank <= 13:
            # The deck's one object for the card: a hand's cards then share a few dozen
            # objects, which the arrangement solver reads faster than fresh ones.
            return card_of(self.rank, self.suit)
        return Card(self.rank, self.suit)  # refuses it, as it always did


def _norm(text: str) -> str:
    # Letters lose their accents so "kőr", "kör" and "kor" all match; suit signs survive NFKD.
    decomposed = unicodedata.normalize("NFKD", text.replace("\ufe0f", ""))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


# What one piece of text (no separators, no hyphens) can be.
_Piece = tuple[str, int, Suit | None]  # kind ("card", "rank", "suit", "joker"), rank, suit


def _piece(raw: str) -> _Piece | None:
    text = _norm(raw)
    if not text:
        return None
    if text in _JOKERS:
        return ("joker", 0, None)
    # A lone letter that is both a suit and a rank (D: diamonds or dáma) reads as a suit.
    if text in _SUITS:
        return ("suit", 0, _SUITS[text])
    if text in _RANKS:
        return ("rank", _RANKS[text], None)
    for cut in range(1, len(text)):
        head, tail = text[:cut], text[cut:]
        if head in _RANKS and tail in _SUITS:
            return ("card", _RANKS[head], _SUITS[tail])
        if head in _SUITS and tail in _RANKS:
            return ("card", _RANKS[tail], _SUITS[head])
    return None


def _rank_set(raw: str) -> list[int] | None:
    text = _norm(raw)
    for unit in _SET_RANKS:
        count, rest = divmod(len(text), len(unit))
        if count >= 2 and not rest and text == unit * count:
            return [_RANKS[unit]] * count
    return None


def text_too_long(count: int, limit: int, field: str | None = None) -> RuleViolation:
    """The violation for text of ``count`` characters where ``limit`` is the most read."""
    return RuleViolation(
        _("Too long to read as cards: at most %(limit)d characters, this has %(count)d."),
        code="text_too_long",
        field=field,
        count=count,
        limit=limit,
    )


def _bad(template: str, token: str, position: int, expected: str) -> RuleViolation:
    return RuleViolation(
        template, code="bad_token", token=token, position=position, expected=expected
    )


def _not_a_card(token: str, position: int) -> RuleViolation:
    return _bad(
        _(
            '"%(token)s" (item %(position)d) is not a card: '
            "expected a card like AS, 10H, A♠, ♠A or JK."
        ),
        token,
        position,
        EXPECTED_CARD,
    )


def _suit_without_rank(token: str, position: int) -> RuleViolation:
    return _bad(
        _(
            '"%(token)s" (item %(position)d) is a suit without a rank: '
            "expected a rank after it, like pata 5 or ♠A."
        ),
        token,
        position,
        EXPECTED_RANK,
    )


def _bad_range(token: str, position: int) -> RuleViolation:
    return _bad(
        _(
            '"%(token)s" (item %(position)d) is not a run: '
            "expected ranks from low to high in one suit, like pata-5-8 or ♥J-A."
        ),
        token,
        position,
        EXPECTED_RANGE,
    )


def _chain(token: str, position: int, context: Suit | None) -> tuple[list[ParsedCard], bool]:
    """Parse ``a-b-c``; returns the cards and whether all of them were bare ranks."""
    parts = token.split("-")
    if any(not p for p in parts):
        raise _not_a_card(token, position)
    pieces: list[tuple[str, _Piece]] = []
    for part in parts:
        piece = _piece(part)
        if piece is None:
            raise _not_a_card(part, position)
        pieces.append((part, piece))
    suit = context
    if pieces[0][1][0] == "suit":
        suit = pieces[0][1][2]
        pieces = pieces[1:]
        if not pieces:
            raise _suit_without_rank(token, position)
    elif pieces[0][1][0] == "card":
        suit = pieces[0][1][2]
    # After the suit, "D" can only be the Hungarian dáma.
    pieces = [
        (part, ("rank", _RANKS[_norm(part)], None))
        if piece[0] == "suit" and _norm(part) in _RANKS
        else (part, piece)
        for part, piece in pieces
    ]
    if any(kind == "suit" for _part, (kind, _r, _s) in pieces):
        bad = next(part for part, (kind, _r, _s) in pieces if kind == "suit")
        raise _suit_without_rank(bad, position)
    bare = all(kind == "rank" for _part, (kind, _r, _s) in pieces)
    naturals = [p for p in pieces if p[1][0] != "joker"]
    if len(pieces) == 2 and len(naturals) == 2:
        (_p1, (_k1, low, s1)), (_p2, (_k2, high, s2)) = pieces
        s1, s2 = s1 or suit, s2 or suit
        if s1 != s2:
            raise _bad_range(token, position)
        if high == 1 and low > 1:
            high = 14
        if high < low:
            raise _bad_range(token, position)
        return [
            ParsedCard(1 if r == 14 else r, s1, token, position) for r in range(low, high + 1)
        ], bare
    out: list[ParsedCard] = []
    for part, (kind, rank, own_suit) in pieces:
        if kind == "joker":
            out.append(ParsedCard(0, None, part, position))
        else:
            out.append(ParsedCard(rank, own_suit or suit, part, position))
    return out, bare


def parse_tokens(text: str) -> list[ParsedCard]:
    """Every card in ``text``, suitless ranks kept suitless (``suit is None``, rank > 0).

    Raises :class:`RuleViolation` (code ``"bad_token"``) naming the first bad token, its
    1-based position among the items of ``text`` and what was expected there, and
    (code ``"text_too_long"``) text longer than :data:`MAX_TEXT_LENGTH`, unread.
    """
    if len(text) > MAX_TEXT_LENGTH:
        raise text_too_long(len(text), MAX_TEXT_LENGTH)
    # Typeset dashes (♠5–♠Q, as printed rules and phones' autocorrect write them) are hyphens.
    text = text.replace("\u2013", "-").replace("\u2014", "-").replace("\u2212", "-")
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    out: list[ParsedCard] = []
    context: Suit | None = None
    pending_suit: tuple[str, int] | None = None  # a lone suit still waiting for its rank
    for position, token in enumerate(tokens, 1):
        piece = _piece(token) if "-" not in token else None
        if piece is not None and piece[0] == "suit" and _norm(token) in _RANKS:
            # "D" is diamonds or, in Hungarian, dáma. Right after a suit, or where a suit
            # already holds and no rank follows to take a new suit, it is the rank.
            following = _piece(tokens[position]) if position < len(tokens) else None
            takes_suit = following is not None and following[0] == "rank"
            if pending_suit is not None or (context is not None and not takes_suit):
                piece = ("rank", _RANKS[_norm(token)], None)
        if piece is not None and piece[0] == "suit":
            if pending_suit is not None:
                raise _suit_without_rank(*pending_suit)
            context = piece[2]
            pending_suit = (token, position)
            continue
        if piece is not None and piece[0] == "joker":
            out.append(ParsedCard(0, None, token, position))
            continue
        if piece is not None and piece[0] == "rank":
            out.append(ParsedCard(piece[1], context, token, position))
            pending_suit = None
            continue
        if piece is not None and piece[0] == "card":
            out.append(ParsedCard(piece[1], piece[2], token, position))
            context = pending_suit = None
            continue
        if "-" in token:
            cards, bare = _chain(token, position, context)
            out.extend(cards)
            if not bare:
                context = None
            pending_suit = None
            continue
        ranks = _rank_set(token)
        if ranks is None:
            raise _not_a_card(token, position)
        if pending_suit is not None:
            raise _suit_without_rank(*pending_suit)
        out.extend(ParsedCard(r, None, token, position) for r in ranks)
        context = None
    if pending_suit is not None:
        raise _suit_without_rank(*pending_suit)
    return out


def parse_cards(text: str, *, allow_suitless: bool = False) -> list[Card]:
    """The cards in ``text``, in the order given.

    A rank without a suit (``7``, ``QQQ``) raises :class:`RuleViolation` saying a suit is
    needed, unless ``allow_suitless``: then such cards get suits in turn (hearts, diamonds,
    spades, clubs, per rank) — good for pricing a hand, not for telling cards apart.
    """
    parsed = parse_tokens(text)
    cards: list[Card] = []
    used: dict[int, int] = {}
    for p in parsed:
        if p.is_joker or p.suit is not None:
            cards.append(p.card)
            continue
        if not allow_suitless:
            raise _bad(
                _('"%(token)s" (item %(position)d) needs a suit: write it like 7H or ♥7.'),
                p.token,
                p.position,
                EXPECTED_SUIT,
            )
        turn = used.get(p.rank, 0)
        used[p.rank] = turn + 1
        cards.append(Card(p.rank, _SUITLESS_ORDER[turn % 4]))
    return cards


def parse_card(text: str) -> Card:
    """Exactly one card (an upper card, a knock card)."""
    cards = parse_cards(text)
    if len(cards) != 1:
        raise _bad(
            _('"%(token)s" is not one card: expected a single card like 7H or ♥7.'),
            text,
            1,
            "a single card",
        )
    return cards[0]


def parse_ranks(text: str) -> list[int]:
    """The ranks in ``text`` (suits dropped, 0 for a joker): enough to price a hand."""
    return [p.rank for p in parse_tokens(text)]


def cards_from_value(value: object, *, allow_suitless: bool = False) -> list[Card]:
    """Cards from an entry value: text to parse, or a list of texts (one item each)."""
    if isinstance(value, str):
        return parse_cards(value, allow_suitless=allow_suitless)
    if isinstance(value, list | tuple):
        cards: list[Card] = []
        for position, item in enumerate(value, 1):
            if isinstance(item, Card):
                cards.append(item)
                continue
            if not isinstance(item, str):
                raise _not_a_card(token_text(item), position)
            try:
                cards.extend(parse_cards(item, allow_suitless=allow_suitless))
            except RuleViolation as err:
                # Report the list item, not the position inside the item.
                raise err.at_item(position) from None
        return cards
    raise _bad(
        _('"%(token)s" is not a list of cards: expected text like "AS 10H JK".'),
        token_text(value),
        1,
        "cards as text",
    )


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Cards in canonical text, ``"AS 10H JK"``; with ``symbols``, ``"A♠ 10♥ JK"``.

    ``parse_cards(format_cards(cards)) == list(cards)`` for any cards.
    """
    if symbols:
        return " ".join("JK" if c.suit is None else c.code[:-1] + c.suit.symbol for c in cards)
    return " ".join(c.code for c in cards)


def describe_cards(cards: Sequence[Card]) -> str:
    """Cards as a player reads them in a message: ``"♠5 ♠6 JK"``."""
    return " ".join(c.label for c in cards)
