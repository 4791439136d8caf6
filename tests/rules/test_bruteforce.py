"""The fast solver against a slow one written here from the rules alone.

The brute force lists every subset of the hand that is a valid meld (checked by trying
every window of ranks and every reading of the wild cards), then tries every way to pick
disjoint melds. It shares no code with ``rules.arrangement``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.arrangement import best_arrangement, minimal_arrangements
from rules.cards import JOKER, Card, Suit
from rules.results import Arrangement, MeldKind
from rules.variants import Variant, get_variant

GIN = get_variant("gin_romi")
TIZ = get_variant("tizlapos_romi")
RAV = get_variant("ravaytys")
RAV_TWOS_ALWAYS_WILD = get_variant("ravaytys", black_two_natural=False)
# Two-deck sets with repeated suits and no upper size, to exercise the other set shape.
TIZ_OPEN_SETS = get_variant("tizlapos_romi", max_set=None, set_suits_distinct=False)
GIN_ACE_HIGH = get_variant("gin_romi", ace_high=True)

SUITS = list(Suit)


def is_wild(variant: Variant, card: Card) -> bool:
    if card.suit is None:
        return variant.wild_jokers
    return variant.wild_black_twos and card.rank == 2 and card.suit in (Suit.SPADES, Suit.CLUBS)


def valid_set(variant: Variant, naturals: Sequence[Card], wilds: int) -> bool:
    size = len(naturals) + wilds
    if not naturals or size < variant.min_set:
        return False
    if variant.max_set is not None and size > variant.max_set:
        return False
    if len({c.rank for c in naturals}) != 1:
        return False
    if variant.set_suits_distinct and (
        len({c.suit for c in naturals}) != len(naturals) or size > 4
    ):
        return False
    return not (variant.max_wild_ratio_half and wilds > len(naturals))


def valid_run(variant: Variant, naturals: Sequence[Card], wilds: int) -> bool:
    size = len(naturals) + wilds
    if not naturals or size < variant.min_run:
        return False
    if len({c.suit for c in naturals}) != 1:
        return False
    if variant.max_wild_ratio_half and wilds > len(naturals):
        return False
    # Every reading of the aces, every window of `size` positions (1 = low ace, 14 = high).
    ace_places = [p for p, ok in ((1, variant.ace_low), (14, variant.ace_high)) if ok]
    readings: list[list[int]] = [[]]
    for card in naturals:
        places = ace_places if card.rank == 1 else [card.rank]
        readings = [[*r, p] for r in readings for p in places]
    for positions in readings:
        if len(set(positions)) != len(positions):
            continue
        for start in range(1, 15 - size + 1):
            window = range(start, start + size)
            if 1 in window and 14 in window:
                continue
            if all(p in window for p in positions):
                return True
    return False


def valid_meld(variant: Variant, cards: Sequence[Card]) -> bool:
    # Each wild black two may also be read as itself, where the variant says so.
    if variant.black_two_natural:
        flexible = [c for c in cards if is_wild(variant, c) and c.suit is not None]
    else:
        flexible = []
    fixed_wild = sum(1 for c in cards if is_wild(variant, c) and c not in flexible)
    plain = [c for c in cards if not is_wild(variant, c)]
    if any(c.suit is None for c in plain):  # a joker that is not wild never melds
        return False
    for mask in range(1 << len(flexible)):
        naturals = plain + [c for k, c in enumerate(flexible) if mask >> k & 1]
        wilds = fixed_wild + sum(1 for k in range(len(flexible)) if not mask >> k & 1)
        if valid_set(variant, naturals, wilds) or valid_run(variant, naturals, wilds):
            return True
    return False


def all_melds(variant: Variant, hand: Sequence[Card]) -> list[int]:
    """Every subset of hand positions (as a bitmask) that is a valid meld.

    A meld's natural cards share a rank or a suit, so only subsets of "one rank plus the
    wilds" or "one suit plus the wilds" can be melds; each is checked by ``valid_meld``.
    """
    wild = [i for i, c in enumerate(hand) if is_wild(variant, c)]
    groups: list[list[int]] = []
    for rank in range(1, 14):
        groups.append(sorted({i for i, c in enumerate(hand) if c.rank == rank} | set(wild)))
    for suit in SUITS:
        groups.append(sorted({i for i, c in enumerate(hand) if c.suit == suit} | set(wild)))
    smallest = min(variant.min_set, variant.min_run)
    found: set[int] = set()
    for group in groups:
        for size in range(smallest, len(group) + 1):
            for combo in combinations(group, size):
                mask = 0
                for i in combo:
                    mask |= 1 << i
                if mask not in found and valid_meld(variant, [hand[i] for i in combo]):
                    found.add(mask)
    return sorted(found)


def brute_deadwood(variant: Variant, hand: Sequence[Card]) -> int:
    melds = all_melds(variant, hand)
    values = [variant.penalty(c) for c in hand]
    n = len(hand)

    @cache
    def best(used: int) -> int:
        free = [i for i in range(n) if not used >> i & 1]
        if not free:
            return 0
        first = free[0]
        result = values[first] + best(used | 1 << first)
        for meld in melds:
            if meld >> first & 1 and not meld & used:
                result = min(result, best(used | meld))
        return result

    return best(0)


def check_arrangement(variant: Variant, hand: Sequence[Card], arrangement: Arrangement) -> None:
    """The arrangement uses exactly the hand, every meld is valid and deadwood adds up."""
    used = [c for m in arrangement.melds for c in m.cards] + list(arrangement.unmatched)
    assert Counter(used) == Counter(hand)
    for meld in arrangement.melds:
        assert valid_meld(variant, meld.cards), meld
        assert len(meld.represents) == len(meld.cards)
        for card, stands in zip(meld.cards, meld.represents, strict=True):
            if not is_wild(variant, card):
                assert card == stands
        reps = meld.represents
        if meld.kind is MeldKind.SET:
            assert len({c.rank for c in reps}) == 1
        else:
            assert len({c.suit for c in reps}) == 1
            ranks = [c.rank for c in reps]
            if ranks[-1] == 1 and len(ranks) > 1 and ranks[-2] == 13:
                ranks[-1] = 14
            assert ranks == list(range(ranks[0], ranks[0] + len(ranks)))
    assert arrangement.deadwood == sum(variant.penalty(c) for c in arrangement.unmatched)


def deck(variant: Variant) -> list[Card]:
    cards = [Card(r, s) for _ in range(variant.decks) for s in SUITS for r in range(1, 14)]
    return cards + [JOKER] * variant.jokers


def random_hand(rng: random.Random, variant: Variant, size: int, jokers: int) -> list[Card]:
    naturals = [c for c in deck(variant) if c.suit is not None]
    return rng.sample(naturals, size - jokers) + [JOKER] * jokers


def clustered_hand(rng: random.Random, variant: Variant, size: int, jokers: int) -> list[Card]:
    """A hand drawn from a few neighbouring ranks, so melds overlap and compete."""
    low = rng.randint(1, 9)
    pool = [c for c in deck(variant) if c.suit is not None and low <= c.rank < low + 5]
    return rng.sample(pool, size - jokers) + [JOKER] * jokers


CASES = [
    ("gin random", GIN, 10, 0, random_hand, 700),
    ("gin clustered", GIN, 10, 0, clustered_hand, 500),
    ("gin ace high", GIN_ACE_HIGH, 10, 0, clustered_hand, 150),
    ("tizlapos random", TIZ, 11, 0, random_hand, 300),
    ("tizlapos clustered", TIZ, 11, 0, clustered_hand, 300),
    ("tizlapos 1 joker", TIZ, 11, 1, clustered_hand, 300),
    ("tizlapos 2 jokers", TIZ, 11, 2, clustered_hand, 250),
    ("tizlapos 4 jokers", TIZ, 11, 4, clustered_hand, 150),
    ("tizlapos 3 jokers random", TIZ, 11, 3, random_hand, 150),
    ("open sets 2 jokers", TIZ_OPEN_SETS, 10, 2, clustered_hand, 150),
]


@pytest.mark.parametrize(
    ("variant", "size", "jokers", "draw", "count"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_solver_matches_brute_force(
    variant: Variant, size: int, jokers: int, draw: object, count: int
) -> None:
    rng = random.Random(f"{variant.id}-{size}-{jokers}-{count}")
    for _ in range(count):
        hand = draw(rng, variant, size, jokers)  # type: ignore[operator]
        got = best_arrangement(variant, hand)
        assert got.deadwood == brute_deadwood(variant, hand), hand
        check_arrangement(variant, hand, got)


@pytest.mark.parametrize("variant", [RAV, RAV_TWOS_ALWAYS_WILD], ids=["natural twos", "wild twos"])
def test_wild_black_twos_match_brute_force(variant: Variant) -> None:
    rng = random.Random("ravaytys")
    pool = [c for c in deck(variant) if c.suit is not None and c.rank <= 6]
    for _ in range(120):
        hand = rng.sample(pool, 9) + [JOKER] * rng.randint(0, 2)
        got = best_arrangement(variant, hand)
        assert got.deadwood == brute_deadwood(variant, hand), hand
        check_arrangement(variant, hand, got)


@pytest.mark.parametrize(("variant", "jokers"), [(GIN, 0), (TIZ, 2)], ids=["gin", "tizlapos"])
def test_every_minimal_arrangement_is_minimal(variant: Variant, jokers: int) -> None:
    # The Gin knocker chooses among these, so the search behind them is checked on Gin
    # hands too (best_arrangement answers those from its tables).
    rng = random.Random(f"minimal-{variant.id}")
    for _ in range(150):
        hand = clustered_hand(rng, variant, 10, jokers)
        found = minimal_arrangements(variant, hand)
        expected = brute_deadwood(variant, hand)
        assert found
        assert best_arrangement(variant, hand) in found
        for arrangement in found:
            assert arrangement.deadwood == expected, hand
            check_arrangement(variant, hand, arrangement)


def test_order_of_cards_does_not_change_the_answer() -> None:
    rng = random.Random(7)
    for variant, jokers in ((GIN, 0), (TIZ, 2)):
        for _ in range(100):
            hand = clustered_hand(rng, variant, 10, jokers)
            shuffled = hand[:]
            rng.shuffle(shuffled)
            assert best_arrangement(variant, hand) == best_arrangement(variant, shuffled)


# -- hypothesis: the best is never worse than any arrangement built by hand -------------------


@st.composite
def hand_and_choice(
    draw: st.DrawFn, variant: Variant, size: int, max_jokers: int
) -> tuple[list[Card], list[int]]:
    """A hand dealt from the variant's pack (so never more copies than it holds), and a
    random order in which to try melds."""
    naturals = [c for c in deck(variant) if c.suit is not None]
    jokers = draw(st.integers(0, min(max_jokers, variant.jokers)))
    picks = draw(
        st.lists(
            st.integers(0, len(naturals) - 1),
            min_size=size - jokers,
            max_size=size - jokers,
            unique=True,
        )
    )
    hand = [naturals[i] for i in picks] + [JOKER] * jokers
    order = draw(st.permutations(range(len(hand))))
    return hand, list(order)


def hand_built_deadwood(variant: Variant, hand: list[Card], order: Sequence[int]) -> int:
    """Greedily keep each valid meld, in a random order, that does not reuse a card."""
    melds = all_melds(variant, hand)
    melds.sort(key=lambda m: [order[i] for i in range(len(hand)) if m >> i & 1])
    used = 0
    for meld in melds:
        if not meld & used:
            used |= meld
    return sum(variant.penalty(c) for i, c in enumerate(hand) if not used >> i & 1)


@settings(max_examples=200, deadline=None)
@given(hand_and_choice(GIN, 10, 0))
def test_gin_best_is_never_worse_than_a_hand_built_arrangement(
    case: tuple[list[Card], list[int]],
) -> None:
    hand, order = case
    assert best_arrangement(GIN, hand).deadwood <= hand_built_deadwood(GIN, hand, order)


@settings(max_examples=150, deadline=None)
@given(hand_and_choice(TIZ, 11, 4))
def test_tizlapos_best_is_never_worse_than_a_hand_built_arrangement(
    case: tuple[list[Card], list[int]],
) -> None:
    hand, order = case
    assert best_arrangement(TIZ, hand).deadwood <= hand_built_deadwood(TIZ, hand, order)


def test_brute_force_itself_finds_known_answers() -> None:
    # The referee of the referee: hands worked out on paper.
    def h(text: str) -> list[Card]:
        return [Card.from_code(t) for t in text.split()]

    assert brute_deadwood(GIN, h("AS 2S 3S 4H 5H 6H 7D 8D 9C KC")) == 34
    assert brute_deadwood(GIN, h("QS KS AS 2D 3D 4D 9C 9H 9S 5C")) == 10 + 10 + 1 + 5
    assert brute_deadwood(TIZ, h("QS KS AS JK 9C 9C 2C 5H 6H 7H")) == 9 + 9 + 2
