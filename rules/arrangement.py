"""The best arrangement of a hand into melds: the one that leaves the least deadwood.

Two solvers share one contract:

* a table solver for hands without wild cards and without duplicate cards (every Gin Römi
  hand). A suit is a 13-bit mask; with one copy of each card, the cards a suit can put into
  runs are exactly those in a stretch of ``min_run`` or more consecutive ranks, so one table
  lookup per suit prices its runs. Only the few sets that compete with runs for a card are
  tried explicitly.
* a search for everything else (two decks, jokers, wild black twos). It always decides the
  lowest card left: unmatched, or in a set or run that contains it. Wild cards are counted,
  not placed: a meld takes the fewest wilds that make it valid, and wilds left at the end
  join any meld with room for them (the wild limit permitting) or stay in hand. The search
  is memoised on what is left of the hand during one call only.

Both give a deterministic answer: the same cards in any order give the same arrangement.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

from rules.cards import JOKER, Card, Suit
from rules.limits import check_hand
from rules.results import Arrangement, Meld, MeldKind

if TYPE_CHECKING:
    from rules.variants import Variant

__all__ = ["best_arrangement", "clear_caches", "minimal_arrangements"]

_SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SUIT_INDEX: dict[Suit | None, int] = {s: i for i, s in enumerate(_SUITS)}
# _CARD[suit index][rank]; rank 0 is unused so that a rank is its own index.
_CARD: tuple[tuple[Card, ...], ...] = tuple(
    (JOKER, *(Card(rank, suit) for rank in range(1, 14))) for suit in _SUITS
)
# The table solver packs a hand into one int: 14 bits per suit, bit ``rank`` of each, as
# every card carries it (Card.bit).
assert tuple(Suit) == _SUITS
_BIT_OF = attrgetter("bit")
_BLACK_TWOS = 1 << 2 | 1 << (42 + 2)
_BIG = 1 << 30  # "no limit" for a meld's room for more wild cards

# -- what the solver needs to know about a variant -----------------------------------------


@dataclass(frozen=True, slots=True)
class _Shape:
    min_run: int
    min_set: int
    max_set: int | None
    distinct: bool
    ace_low: bool
    ace_high: bool
    wild_jokers: bool
    wild_twos: bool
    two_natural: bool  # a wild black two in its own place counts as itself
    limit: bool
    # value of the natural card with index suit*13 + rank-1
    values: tuple[int, ...]
    joker_value: int
    two_value: int  # a wild black two left in hand

    @property
    def lo(self) -> int:
        """Lowest run position: 1 is a low ace."""
        return 1 if self.ace_low else 2

    @property
    def hi(self) -> int:
        """Highest run position: 14 is a high ace."""
        return 14 if self.ace_high else 13

    @property
    def longest(self) -> int:
        # 13 positions at most: A-2-...-K or 2-...-K-A, never an ace at both ends.
        return min(13, self.hi - self.lo + 1)


def _shape_of(variant: Variant) -> _Shape:
    table = variant.penalty_table

    def price(rank: int, suit: Suit) -> int:
        if variant.wild_black_twos and rank == 2 and suit.is_black:
            return table["BLACK_TWO"]
        key = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
        return table[key]

    return _Shape(
        min_run=variant.min_run,
        min_set=variant.min_set,
        max_set=variant.max_set,
        distinct=variant.set_suits_distinct,
        ace_low=variant.ace_low,
        ace_high=variant.ace_high,
        wild_jokers=variant.wild_jokers,
        wild_twos=variant.wild_black_twos,
        two_natural=variant.black_two_natural,
        limit=variant.max_wild_ratio_half,
        values=tuple(price(rank, suit) for suit in _SUITS for rank in range(1, 14)),
        joker_value=table["JOKER"],
        two_value=table["BLACK_TWO"],
    )


_SuitRow = tuple[tuple[Meld, ...], tuple[Card, ...], int]  # runs, unmatched, their value


class _Tables:
    """Per-suit-mask tables for the table solver (bit ``r`` of a mask is rank ``r``).

    They depend on the variant's meld shape and card values only, never on a hand, and are
    built once per shape (about a tenth of a second).
    """

    __slots__ = (
        "cover",
        "rank_values",
        "rows",
        "run_value",
        "set_melds",
        "set_options",
        "whole_sets",
    )

    def __init__(self, shape: _Shape) -> None:
        # Only used when values do not depend on the suit (no wild black twos in the hand),
        # so hearts, which have no black two, price every suit.
        rank_values = [0] + [shape.values[_index(1, r)] for r in range(1, 14)]
        self.rank_values = tuple(rank_values)
        size = 1 << 14
        cover = [0] * size
        run_value = [0] * size
        segments: list[tuple[tuple[int, ...], ...]] = [()] * size
        min_run = shape.min_run
        for mask in range(0, size, 2):
            ranks = [r for r in range(1, 14) if mask >> r & 1]
            placements = []
            has_ace = bool(mask & 2)
            if not has_ace or shape.ace_low:
                placements.append(ranks)
            if has_ace and shape.ace_high:
                placements.append([*ranks[1:], 14])
            if has_ace and not placements:
                placements.append(ranks[1:])
            best = _cover(placements[0], min_run, rank_values)
            for positions in placements[1:]:
                other = _cover(positions, min_run, rank_values)
                if other[0] > best[0]:  # a tie keeps the low ace
                    best = other
            run_value[mask], cover[mask], segments[mask] = best
        self.cover = cover
        self.run_value = run_value
        # Per suit and mask: the runs, the cards left over and their value.
        value_of = [0] * size
        for mask in range(2, size, 2):
            top = mask.bit_length() - 1
            value_of[mask] = value_of[mask ^ (1 << top)] + rank_values[top]
        run_melds: dict[tuple[int, tuple[int, ...]], Meld] = {}
        rows: list[list[_SuitRow]] = []
        for suit in range(4):
            row_cards = _CARD[suit]
            cards_of: list[tuple[Card, ...]] = [()] * size
            for mask in range(2, size, 2):
                top = mask.bit_length() - 1
                cards_of[mask] = (*cards_of[mask ^ (1 << top)], row_cards[top])
            row: list[_SuitRow] = [((), (), 0)] * size
            for mask in range(2, size, 2):
                left = mask & ~cover[mask]
                melds: tuple[Meld, ...] = ()
                if left != mask:
                    for seg in segments[mask]:
                        meld = run_melds.get((suit, seg))
                        if meld is None:
                            cards = tuple(row_cards[r] for r in seg)
                            meld = run_melds[suit, seg] = Meld(MeldKind.RUN, cards, cards)
                        melds += (meld,)
                row[mask] = (melds, cards_of[left], value_of[left])
            rows.append(row)
        self.rows = rows
        set_melds: dict[int, Meld] = {}  # keyed by rank * 16 + suits
        for rank in range(1, 14):
            for suits in range(1, 16):
                cards = tuple(_CARD[s][rank] for s in range(4) if suits >> s & 1)
                set_melds[rank * 16 + suits] = Meld(MeldKind.SET, cards, cards)
        self.set_melds = set_melds
        self.set_options = _set_options(shape, rank_values)
        # With one copy of each card a rank has at most four: unless sets are capped below
        # four, a set no run wants is best melded whole.
        self.whole_sets = shape.max_set is None or shape.max_set >= 4


def _set_options(
    shape: _Shape, rank_values: list[int]
) -> list[list[list[tuple[tuple[int, int], ...]]]]:
    """For a rank, the suits holding it and the suits whose card a run could use: the sets
    worth trying, as (mask keeping the other cards of the packed hand, value melded);
    (-1, 0) is no set.

    A set that leaves out a card no run can use is never better than the set with it
    (unless the set is full), and melding no set only helps when the cards runs cannot use
    are too few for a set on their own.
    """
    min_set = shape.min_set
    max_set = shape.max_set if shape.max_set is not None else 4
    table: list[list[list[tuple[tuple[int, int], ...]]]] = []
    for rank in range(14):
        by_present: list[list[tuple[tuple[int, int], ...]]] = []
        for present in range(16):
            by_runnable: list[tuple[tuple[int, int], ...]] = []
            for runnable in range(16):
                stuck = present & ~runnable
                options: list[tuple[int, int]] = []
                for suits in _SUBSETS[present]:
                    size = suits.bit_count()
                    if size < min_set or size > max_set:
                        continue
                    if stuck & ~suits and size < max_set:
                        continue
                    removed = sum(1 << (14 * s + rank) for s in range(4) if suits >> s & 1)
                    options.append((~removed, rank_values[rank] * size))
                if stuck.bit_count() < min_set:
                    options.append((-1, 0))
                by_runnable.append(tuple(options))
            by_present.append(by_runnable)
        table.append(by_present)
    return table


def _cover(
    positions: list[int], min_run: int, rank_values: list[int]
) -> tuple[int, int, tuple[tuple[int, ...], ...]]:
    """Value, rank mask and runs of the cards in stretches of ``min_run`` or more."""
    segs: list[tuple[int, ...]] = []
    current: list[int] = []
    for p in positions:
        if current and p == current[-1] + 1:
            current.append(p)
        else:
            if len(current) >= min_run:
                segs.append(tuple(current))
            current = [p]
    if len(current) >= min_run:
        segs.append(tuple(current))
    value = 0
    covered = 0
    out: list[tuple[int, ...]] = []
    for seg in segs:
        ranks = tuple(1 if p == 14 else p for p in seg)
        out.append(ranks)
        for r in ranks:
            value += rank_values[r]
            covered |= 1 << r
    return value, covered, tuple(out)


class _Solver:
    """Everything precomputed for one meld shape."""

    __slots__ = ("longest", "max_set", "positions", "sets_of_three", "shape", "tables", "wild_bits")

    def __init__(self, shape: _Shape) -> None:
        self.shape = shape
        # What the search reads in every state, worked out once.
        self.longest = shape.longest
        self.positions = tuple(_positions(shape, rank) for rank in range(14))
        self.max_set = shape.max_set if shape.max_set is not None else _BIG
        self.sets_of_three = shape.min_set == 3
        self.tables: _Tables | None = None  # built on first use
        # Hands holding these cards (wild black twos) must go to the search.
        self.wild_bits = _BLACK_TWOS if shape.wild_twos else 0

    def build_tables(self) -> _Tables:
        self.tables = _Tables(self.shape)
        return self.tables


_SOLVERS: dict[_Shape, _Solver] = {}
# Keyed by id() because hashing a Variant (dozens of fields) would cost more than solving a
# Gin hand; the stored variant keeps its id from being reused while the entry lives. The
# entry also holds the variant's hand limit, checked on every call.
_BY_VARIANT: dict[int, tuple[Variant, _Solver, int]] = {}


def _solver(variant: Variant) -> _Solver:
    return _entry(variant)[1]


def _entry(variant: Variant) -> tuple[Variant, _Solver, int]:
    hit = _BY_VARIANT.get(id(variant))
    if hit is not None and hit[0] is variant:
        return hit
    shape = _shape_of(variant)
    solver = _SOLVERS.get(shape)
    if solver is None:
        solver = _SOLVERS[shape] = _Solver(shape)
    if len(_BY_VARIANT) > 256:
        _BY_VARIANT.clear()
    entry = _BY_VARIANT[id(variant)] = (variant, solver, variant.max_hand_cards)
    return entry


def clear_caches() -> None:
    """Forget the per-variant tables (they are rebuilt on the next call; for timing)."""
    _SOLVERS.clear()
    _BY_VARIANT.clear()


# -- public API ------------------------------------------------------------------------------


def best_arrangement(variant: Variant, cards: Sequence[Card]) -> Arrangement:
    """Arrange ``cards`` into valid melds of ``variant`` leaving the least deadwood.

    Melds follow the variant's shape (run length, set size, distinct suits, where an ace
    may stand, wild cards and their limit per meld). ``deadwood`` is the variant's value
    of the unmatched cards; a wild card left over counts as itself (a joker at the
    penalty table's ``JOKER`` value). Among equally good arrangements the result is
    fixed: it does not depend on the order of ``cards``.

    More cards than a hand of the game holds (``variant.max_hand_cards``) raise
    :class:`rules.RuleViolation` (``"hand_too_large"``) before any work: the search grows
    steeply with the hand.
    """
    hit = _BY_VARIANT.get(id(variant))
    if hit is None or hit[0] is not variant:
        hit = _entry(variant)
    if len(cards) > hit[2]:
        check_hand(variant, len(cards))
    solver = hit[1]
    hand: int = sum(map(_BIT_OF, cards))
    # Each natural card adds its own bit (Card.bit); a joker adds none and a second copy
    # carries into another bit, so a bit count short of the hand's size sends jokers and
    # duplicates to the search. Without them the sum is the hand's bits.
    if hand.bit_count() != len(cards) or hand & solver.wild_bits:
        return _Search(solver, cards).solve()
    tables = solver.tables or solver.build_tables()
    m0, m1, m2, m3 = hand & 0x3FFF, hand >> 14 & 0x3FFF, hand >> 28 & 0x3FFF, hand >> 42
    if solver.sets_of_three:  # every Römi game: spelt out, it is the hot path
        candidates = (m0 & m1 & (m2 | m3)) | (m2 & m3 & (m0 | m1))
    else:
        candidates = _set_candidates(solver.shape, m0, m1, m2, m3)
    if candidates:
        # Most sets in a random hand share no card with a possible run: then each is melded
        # whole, exactly as the general comparison would choose, and nothing is compared.
        cover = tables.cover
        in_sets = hand & (candidates | candidates << 14 | candidates << 28 | candidates << 42)
        if not tables.whole_sets or in_sets & (
            cover[m0] | cover[m1] << 14 | cover[m2] << 28 | cover[m3] << 42
        ):
            return _table_with_sets(tables, hand, candidates)
        set_melds = tables.set_melds
        sets: tuple[Meld, ...] = ()
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            rank = low.bit_length() - 1
            x = hand >> rank
            suits = (x & 1) | (x >> 13 & 2) | (x >> 26 & 4) | (x >> 39 & 8)
            sets += (set_melds[rank * 16 + suits],)
        return _with_runs(tables, hand ^ in_sets, sets)
    rows0, rows1, rows2, rows3 = tables.rows
    r0, r1, r2, r3 = rows0[m0], rows1[m1], rows2[m2], rows3[m3]
    return _arrangement(
        r0[0] + r1[0] + r2[0] + r3[0],
        r0[1] + r1[1] + r2[1] + r3[1],
        r0[2] + r1[2] + r2[2] + r3[2],
    )


def minimal_arrangements(
    variant: Variant, cards: Sequence[Card], *, limit: int = 256
) -> list[Arrangement]:
    """Every arrangement of ``cards`` with the least deadwood (at most ``limit`` of them).

    Arrangements that differ only in how a long run is cut into shorter runs, or in where
    a wild card stands, count as different. The first is :func:`best_arrangement`'s
    choice only by coincidence; use this where the choice among equals matters (a Gin
    knocker lays down the melds that leave the opponent least to lay off).
    """
    check_hand(variant, len(cards))
    return _Search(_solver(variant), cards).all_best(limit)


# -- the table solver ------------------------------------------------------------------------


_new = object.__new__
_set_attr = object.__setattr__


def _arrangement(
    melds: tuple[Meld, ...], unmatched: tuple[Card, ...], deadwood: int
) -> Arrangement:
    """``Arrangement(melds, unmatched, deadwood)``, made for about half the cost of the
    frozen dataclass's ``__init__`` (one attribute write instead of three): on a Gin hand with few
    melds that ``__init__`` is a sixth of the solver's time."""
    made: Arrangement = _new(Arrangement)
    _set_attr(made, "__dict__", {"melds": melds, "unmatched": unmatched, "deadwood": deadwood})
    return made


def _set_candidates(shape: _Shape, m0: int, m1: int, m2: int, m3: int) -> int:
    """Ranks held in at least ``min_set`` suits (a rank mask)."""
    min_set = shape.min_set
    if min_set <= 2:
        return (m0 & (m1 | m2 | m3)) | (m1 & (m2 | m3)) | (m2 & m3)
    if min_set == 3:
        return (m0 & m1 & (m2 | m3)) | (m2 & m3 & (m0 | m1))
    if min_set == 4:
        return m0 & m1 & m2 & m3
    return 0  # one copy of each card: no set longer than four


def _table_with_sets(tables: _Tables, hand: int, candidates: int) -> Arrangement:
    """The table solver for a hand where some sets compete with runs for cards."""
    m0, m1, m2, m3 = hand & 0x3FFF, hand >> 14 & 0x3FFF, hand >> 28 & 0x3FFF, hand >> 42
    cover = tables.cover
    run_value = tables.run_value
    set_options = tables.set_options
    covered = cover[m0] | cover[m1] << 14 | cover[m2] << 28 | cover[m3] << 42
    ranks: list[int] = []
    touched = 0  # suits where some set would take a card a run could use
    # Every combination of one option per rank, as (hand left, value melded in sets).
    partial: list[tuple[int, int]] = [(hand, 0)]
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        rank = low.bit_length() - 1
        ranks.append(rank)
        x = hand >> rank
        present = (x & 1) | (x >> 13 & 2) | (x >> 26 & 4) | (x >> 39 & 8)
        y = covered >> rank
        runnable = (y & 1) | (y >> 13 & 2) | (y >> 26 & 4) | (y >> 39 & 8)
        touched |= runnable
        options = set_options[rank][present][runnable]
        partial = [(left & keep, value + v) for left, value in partial for keep, v in options]
    # Taking a card no run can use never changes a suit's runs, so only the touched suits
    # need pricing to compare the combinations.
    shifts = [14 * s for s in range(4) if touched >> s & 1]
    best_value = -1
    best_left = hand
    for left, value in partial:
        for shift in shifts:
            value += run_value[left >> shift & 0x3FFF]
        if value > best_value:  # ties keep the earlier (fuller) sets
            best_value, best_left = value, left
    melded = hand & ~best_left
    sets: tuple[Meld, ...] = ()
    set_melds = tables.set_melds
    for rank in ranks:
        x = melded >> rank
        suits = (x & 1) | (x >> 13 & 2) | (x >> 26 & 4) | (x >> 39 & 8)
        if suits:
            sets += (set_melds[rank * 16 + suits],)
    return _with_runs(tables, best_left, sets)


def _with_runs(tables: _Tables, left: int, sets: tuple[Meld, ...]) -> Arrangement:
    """`sets`, and the best runs and deadwood of the cards `left` after them, read from each
    suit's row of the tables. (A hand with no set reads the rows inline: the hot path.)"""
    rows = tables.rows
    r0 = rows[0][left & 0x3FFF]
    r1 = rows[1][left >> 14 & 0x3FFF]
    r2 = rows[2][left >> 28 & 0x3FFF]
    r3 = rows[3][left >> 42]
    return _arrangement(
        sets + r0[0] + r1[0] + r2[0] + r3[0],
        r0[1] + r1[1] + r2[1] + r3[1],
        r0[2] + r1[2] + r2[2] + r3[2],
    )


# Subsets of a 4-bit suit mask, largest first so that fuller sets win ties.
_SUBSETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            (sub for sub in range(16) if sub & ~mask == 0),
            key=lambda sub: (-sub.bit_count(), sub),
        )
    )
    for mask in range(16)
)


# -- the search ------------------------------------------------------------------------------

# A natural card is index suit*13 + rank-1; a hand is an int with four bits of count per index.
_NIBBLE = 4
_SUIT_NIBBLES = (1 << (_NIBBLE * 13)) - 1
_RANK_NIBBLES = sum(15 << (_NIBBLE * 13 * s) for s in range(4))  # shifted by rank - 1


def _index(suit: int, rank: int) -> int:
    return suit * 13 + rank - 1


def _position_rank(position: int) -> int:
    return 1 if position == 14 else position


class _Core(NamedTuple):
    """A meld before spare wild cards are added: naturals plus the fewest wilds it needs."""

    kind: MeldKind
    naturals: tuple[int, ...]  # card indexes, one per natural card
    wilds: int
    spare: int  # more wilds it could take
    suit: int  # runs: the suit; sets: -1
    rank: int  # sets: the rank; runs: -1
    low: int  # runs: first position of the naturals' span
    high: int  # runs: last position of the naturals' span


# A core made without the NamedTuple's own __new__, a Python function (the search makes
# thousands on a joker-rich hand).
_new_core = tuple.__new__
_SET, _RUN = MeldKind.SET, MeldKind.RUN

_State = tuple[int, int, int, int]  # (hand left, jokers, wild twos, spare room in melds)
_Step = tuple[int, _State, "_Core | int"]  # (cost now, next state, meld or unmatched index)


class _Search:
    """The memoised search for one hand (wilds, duplicates, any meld shape)."""

    def __init__(self, solver: _Solver, cards: Iterable[Card]) -> None:
        shape = self.shape = solver.shape
        self.longest = solver.longest
        self.positions = solver.positions
        self.max_set = solver.max_set
        counts = [0] * 52
        stray: list[Card] = []  # jokers that are not wild
        jokers = 0
        for card in cards:
            if card.suit is None:
                if shape.wild_jokers:
                    jokers += 1
                else:
                    stray.append(card)
            else:
                counts[_index(_SUIT_INDEX[card.suit], card.rank)] += 1
        self.stray = stray
        self.jokers = jokers
        self.counts = counts
        self.memo: dict[_State, int] = {}
        self.choice: dict[_State, _Step] = {}  # the step that gave each state its value
        # Black twos may stand as themselves or as wilds; try every split up front so that a
        # wild two is available to every meld, whichever card the search reaches first.
        twos: tuple[int, ...] = (_index(0, 2), _index(3, 2)) if shape.wild_twos else ()
        self.isolated = self._isolated(counts, jokers + sum(counts[i] for i in twos), twos)
        hand = 0
        for i, n in enumerate(counts):
            kept = n - self.isolated.count(i)
            if kept:
                hand += kept << (_NIBBLE * i)
        # (start state, spade twos made wild, club twos made wild)
        starts: list[tuple[_State, int, int]] = []
        spades = counts[twos[0]] if twos else 0
        clubs = counts[twos[1]] if twos else 0
        # Where a black two never counts as itself, every one of them is a wild.
        low_a, low_b = (0, 0) if shape.two_natural else (spades, clubs)
        for a in range(low_a, spades + 1):
            for b in range(low_b, clubs + 1):
                start = hand
                if a:
                    start -= a << (_NIBBLE * twos[0])
                if b:
                    start -= b << (_NIBBLE * twos[1])
                starts.append(((start, jokers, a + b, 0), a, b))
        self.starts = starts

    # The cost of the cards that can never be melded is added once, outside the search.
    def _isolated(self, counts: list[int], wilds: int, twos: tuple[int, ...]) -> list[int]:
        shape = self.shape
        if wilds and not (shape.limit and min(shape.min_run, shape.min_set) >= 3):
            return []
        # With the wild limit (or no wilds) every meld holds two naturals: a card with no
        # possible partner is dead weight whatever else happens.
        present = [i for i, n in enumerate(counts) if n]
        # Run positions held per suit (bit p; an ace sets 1 and 14 where it may stand there).
        ace_bits = (2 if shape.ace_low else 0) | (1 << 14 if shape.ace_high else 0)
        held = [0, 0, 0, 0]
        suits_of_rank = [0] * 14
        for i in present:
            suit, rank0 = divmod(i, 13)
            held[suit] |= ace_bits if rank0 == 0 else 1 << (rank0 + 1)
            suits_of_rank[rank0 + 1] += 1
        # A partner in a run is at most `reach` positions away (the gap filled by wilds).
        reach = min(wilds + 1, shape.longest - 1)
        out: list[int] = []
        for i in present:
            if i in twos:
                continue
            suit, rank0 = divmod(i, 13)
            rank = rank0 + 1
            n = counts[i]
            if suits_of_rank[rank] > 1 or (n > 1 and not shape.distinct):
                continue
            mine = ace_bits if rank == 1 else 1 << rank
            others = held[suit] & ~mine
            near = 0
            for p in _positions(shape, rank):
                near |= (
                    ((1 << (2 * reach + 1)) - 1) << (p - reach)
                    if p >= reach
                    else ((1 << (p + reach + 1)) - 1)
                )
            if not others & near:
                out.extend([i] * n)
        return out

    # -- the recursion --------------------------------------------------------------------

    def best(self, state: _State) -> int:
        memo = self.memo
        found = memo.get(state)
        if found is not None:
            return found
        if not state[0]:
            value = self._leftover_cost(state)
        else:
            value = _BIG
            for step in self._steps(state):
                total = step[0] + self.best(step[1])
                if total < value:  # the first of equals wins: melds before unmatched
                    value = total
                    self.choice[state] = step
        memo[state] = value
        return value

    def _leftover_cost(self, state: _State) -> int:
        _hand, jokers, twos, spare = state
        shape = self.shape
        room = min(spare, jokers + twos)
        # The dearer wilds join melds first; the cheaper stay in hand.
        if shape.joker_value >= shape.two_value:
            used_jokers = min(jokers, room)
            used_twos = room - used_jokers
        else:
            used_twos = min(twos, room)
            used_jokers = room - used_twos
        return (jokers - used_jokers) * shape.joker_value + (twos - used_twos) * shape.two_value

    def _take_wilds(self, jokers: int, twos: int, need: int) -> tuple[int, int]:
        # A meld takes the dearer wilds first so the cheaper ones are the ones left over.
        if self.shape.joker_value >= self.shape.two_value:
            j = min(jokers, need)
            return jokers - j, twos - (need - j)
        t = min(twos, need)
        return jokers - (need - t), twos - t

    def _steps(self, state: _State) -> list[_Step]:
        """Every way to settle the lowest card left: melds first, unmatched last."""
        hand, jokers, twos, spare = state
        shape = self.shape
        wilds = jokers + twos
        limit = shape.limit
        low = hand & -hand
        i = (low.bit_length() - 1) // _NIBBLE
        rest = hand - (1 << (_NIBBLE * i))
        suit, rank0 = divmod(i, 13)
        rank = rank0 + 1
        cores: list[tuple[_Core, int]] = []  # (meld, hand left)
        min_set = shape.min_set
        distinct = shape.distinct

        # Sets containing the card: choose how many of each later suit's copies join.
        # (Lower suits of the rank are gone: the card is the lowest left.)
        # Most states hold no set for the card: no other copy of its rank, and too few wilds
        # to make a set of one natural (or, under the wild limit, no set of one natural).
        if (rest >> (_NIBBLE * rank0)) & _RANK_NIBBLES or (
            1 + wilds >= min_set and not (limit and min_set > 2)
        ):
            haves: list[int] = []
            for s in range(suit, 4):
                have = (rest >> (_NIBBLE * (s * 13 + rank0))) & 15
                if distinct:
                    have = 0 if s == suit else min(have, 1)
                haves.append(have)
            max_set = self.max_set
            for picks in product(*[range(h, -1, -1) for h in haves]):
                n = 1 + sum(picks)
                need = min_set - n if n < min_set else 0
                size = n + need
                if need > wilds or (limit and need > n) or size > max_set:
                    continue
                if distinct and size > 4:
                    continue
                room = n - need if limit else _BIG
                room = min(room, max_set - size)
                if distinct:
                    room = min(room, 4 - size)
                members = [i]
                left = rest
                for offset, k in enumerate(picks):
                    if k:
                        j = (suit + offset) * 13 + rank0
                        members.extend([j] * k)
                        left -= k << (_NIBBLE * j)
                core = _new_core(_Core, (_SET, tuple(members), need, room, -1, rank, 0, 0))
                cores.append((core, left))

        # Runs with the card as their lowest natural (for a high ace, their highest): pick
        # which naturals further along the suit join; each position skipped is a wild.
        longest = self.longest
        min_run = shape.min_run
        seg = (rest >> (_NIBBLE * 13 * suit)) & _SUIT_NIBBLES
        for start in self.positions[rank]:
            # A natural at distance d needs d - 1 - (naturals between) wilds: once that
            # exceeds the wilds even with every natural before it taken, none further fits.
            ahead: list[tuple[int, int]] = []  # (position, card index), nearest first
            if start == 14:
                step = -1
                x = seg & ~15  # every rank but the ace, highest first
                lowest = max(shape.lo, 2)
                while x:
                    nibble = (x.bit_length() - 1) >> 2
                    if nibble + 1 < lowest or 13 - nibble - len(ahead) > wilds + 1:
                        break
                    ahead.append((nibble + 1, suit * 13 + nibble))
                    x &= ~(15 << (_NIBBLE * nibble))
            else:
                step = 1
                x = seg >> (_NIBBLE * rank) << (_NIBBLE * rank)  # the ranks above
                highest = min(shape.hi, start + 12)
                while x:
                    nibble = ((x & -x).bit_length() - 1) >> 2
                    if nibble + 1 > highest or nibble - start - len(ahead) > wilds:
                        break
                    ahead.append((nibble + 1, suit * 13 + nibble))
                    x &= ~(15 << (_NIBBLE * nibble))
            # (next of `ahead` to try, last position taken, naturals, wilds inside, hand left)
            stack: list[tuple[int, int, tuple[int, ...], int, int]] = [(0, start, (i,), 0, rest)]
            while stack:
                k, last, naturals, gaps, left = stack.pop()
                n = len(naturals)
                span = (last - start) * step + 1
                extend = min_run - span if span < min_run else 0
                need = gaps + extend
                if need <= wilds and not (limit and need > n) and span + extend <= longest:
                    room = min(n - need if limit else _BIG, longest - span - extend)
                    lo, hi = (start, last) if step > 0 else (last, start)
                    core = _new_core(_Core, (_RUN, naturals, need, room, suit, -1, lo, hi))
                    cores.append((core, left))
                for t in range(len(ahead) - 1, k - 1, -1):
                    q, j = ahead[t]
                    more = gaps + (q - last) * step - 1
                    if more <= wilds:
                        stack.append((t + 1, q, (*naturals, j), more, left - (1 << (_NIBBLE * j))))

        steps: list[_Step] = []
        for core, left in cores:
            if twos:
                j, t = self._take_wilds(jokers, twos, core.wilds)
            else:
                j, t = jokers - core.wilds, 0
            steps.append((0, (left, j, t, min(spare + core.spare, j + t)), core))
        steps.append((shape.values[i], (rest, jokers, twos, spare), i))
        return steps

    # -- answers ----------------------------------------------------------------------------

    def _base_cost(self) -> int:
        shape = self.shape
        return sum(shape.values[i] for i in self.isolated) + shape.joker_value * len(self.stray)

    def solve(self) -> Arrangement:
        best_start = self.starts[0]
        best_value = _BIG
        for start in self.starts:
            value = self.best(start[0])
            if value < best_value:
                best_value, best_start = value, start
        path = self._path(best_start[0])
        return self._build(best_start, path, best_value + self._base_cost())

    def _path(self, state: _State) -> list[tuple[_State, _Core | int]]:
        path: list[tuple[_State, _Core | int]] = []
        while state[0]:
            _cost, after, what = self.choice[state]
            path.append((state, what))
            state = after
        path.append((state, -1))
        return path

    def all_best(self, limit: int) -> list[Arrangement]:
        values = [self.best(start[0]) for start in self.starts]
        best_value = min(values)
        out: list[Arrangement] = []
        base = self._base_cost()
        for start, value in zip(self.starts, values, strict=True):
            if value != best_value:
                continue
            for path in self._all_paths(start[0], limit - len(out)):
                out.append(self._build(start, path, best_value + base))
            if len(out) >= limit:
                break
        return out

    def _all_paths(self, state: _State, limit: int) -> list[list[tuple[_State, _Core | int]]]:
        if not state[0]:
            return [[(state, -1)]]
        target = self.memo[state]
        out: list[list[tuple[_State, _Core | int]]] = []
        for cost, after, what in self._steps(state):
            if cost + self.best(after) != target:
                continue
            for tail in self._all_paths(after, limit - len(out)):
                out.append([(state, what), *tail])
                if len(out) >= limit:
                    return out
        return out

    def _build(
        self, start: tuple[_State, int, int], path: list[tuple[_State, _Core | int]], deadwood: int
    ) -> Arrangement:
        shape = self.shape
        # Wild twos first or jokers first, matching _take_wilds: the dearer are used first.
        twos_pool = [_CARD[0][2]] * start[1] + [_CARD[3][2]] * start[2]
        jokers_pool = [JOKER] * start[0][1]
        if shape.joker_value >= shape.two_value:
            wild_pool = jokers_pool + twos_pool
        else:
            wild_pool = twos_pool + jokers_pool
        cores: list[_Core] = []
        unmatched_idx: list[int] = list(self.isolated)
        for _state, what in path:
            if isinstance(what, _Core):
                cores.append(what)
            elif what >= 0:
                unmatched_idx.append(what)
        extra = [0] * len(cores)
        used = sum(c.wilds for c in cores)
        leftover = len(wild_pool) - used
        for k, core in enumerate(cores):
            if leftover <= 0:
                break
            take = min(core.spare, leftover)
            extra[k] = take
            leftover -= take
        melds: list[Meld] = []
        pos = 0
        for core, more in zip(cores, extra, strict=True):
            count = core.wilds + more
            wild_cards = wild_pool[pos : pos + count]
            pos += count
            melds.append(_meld_of(shape, core, wild_cards))
        kept_wilds = wild_pool[pos:]
        unmatched = [_CARD[i // 13][i % 13 + 1] for i in sorted(unmatched_idx)]
        unmatched.extend(sorted(kept_wilds, key=_wild_order))
        unmatched.extend(self.stray)
        melds.sort(key=_meld_order)
        return Arrangement(tuple(melds), tuple(unmatched), deadwood)


def _wild_order(card: Card) -> tuple[int, int]:
    return (1 if card.suit is None else 0, _SUIT_INDEX.get(card.suit, 4))


def _meld_order(meld: Meld) -> tuple[int, int, int]:
    first = meld.represents[0]
    suit = _SUIT_INDEX.get(first.suit, 4)
    if meld.kind is MeldKind.SET:
        return (0, first.rank, suit)
    return (1, suit, first.rank)


def _positions(shape: _Shape, rank: int) -> tuple[int, ...]:
    if rank != 1:
        return (rank,)
    return tuple(p for p, ok in ((1, shape.ace_low), (14, shape.ace_high)) if ok)


def _meld_of(shape: _Shape, core: _Core, wilds: list[Card]) -> Meld:
    if core.kind is MeldKind.SET:
        naturals = sorted(core.naturals)
        cards = [_CARD[i // 13][core.rank] for i in naturals]
        used = {i // 13 for i in naturals}
        represents = list(cards)
        free = [s for s in range(4) if s not in used] or [0]
        for k, wild in enumerate(wilds):
            suit = free[k % len(free)]
            cards.append(wild)
            represents.append(_CARD[suit][core.rank])
        return Meld(MeldKind.SET, tuple(cards), tuple(represents))
    suit = core.suit
    natural_at: dict[int, Card] = {}
    for i in core.naturals:
        rank = i % 13 + 1
        # An ace in a run is high only when the run reaches position 14.
        position = (core.high if core.high == 14 else core.low) if rank == 1 else rank
        natural_at[position] = _CARD[suit][rank]
    low, high = core.low, core.high
    extra = len(wilds) - (high - low + 1 - len(core.naturals))
    # Wilds beyond the gaps lengthen the run upwards first, then downwards.
    while extra > 0 and high < shape.hi and high - low < 12:
        high += 1
        extra -= 1
    while extra > 0 and low > shape.lo and high - low < 12:
        low -= 1
        extra -= 1
    run_cards: list[Card] = []
    run_represents: list[Card] = []
    pool = iter(wilds)
    for position in range(low, high + 1):
        natural = natural_at.get(position)
        stands_for = _CARD[suit][_position_rank(position)]
        run_cards.append(natural if natural is not None else next(pool))
        run_represents.append(stands_for)
    return Meld(MeldKind.RUN, tuple(run_cards), tuple(run_represents))
