"""The best arrangement of a hand, on hands worked out by hand."""

from __future__ import annotations

import pytest

from rules.arrangement import best_arrangement, minimal_arrangements
from rules.cards import JOKER, Card
from rules.notation import parse_cards
from rules.results import Arrangement, MeldKind
from rules.variants import Variant, get_variant

GIN = get_variant("gin_romi")
# The solver's cases price a joker left in hand at 20: pinned here, since that is a house
# rule of Tízlapos (its default is test_tizlapos's to assert).
JOKER_20 = {"tiz_joker_penalty": 20}
TIZ = get_variant("tizlapos_romi", **JOKER_20)
RAV = get_variant("ravaytys")
TIZ_OPEN_SETS = get_variant("tizlapos_romi", max_set=None, set_suits_distinct=False, **JOKER_20)
GIN_ACE_HIGH_ONLY = get_variant("gin_romi", ace_low=False, ace_high=True)
TIZ_NO_LIMIT = get_variant("tizlapos_romi", max_wild_ratio_half=False, **JOKER_20)
# Two jokers and naturals no joker pair can join: no two share a rank, and cards of a suit
# are more than three ranks apart.
LONELY = "JK JK 2S 7S 5H KH QD 9C 3C 6D"


def arrange(variant: Variant, text: str) -> Arrangement:
    return best_arrangement(variant, parse_cards(text))


def melds_text(arrangement: Arrangement) -> list[str]:
    return sorted(" ".join(c.code for c in m.cards) for m in arrangement.melds)


CASES = [
    # (name, variant, hand, deadwood, melds as text or None to skip)
    # the command line's own example
    ("gin example", GIN, "AS 2S 3S 4H 5H 6H 7D 8D 9C KC", 34, ["4H 5H 6H", "AS 2S 3S"]),
    # Gin values: A = 1, J/Q/K = 10, others face value
    ("gin nothing melds", GIN, "AS 3H 5D 7C 9S JH QD KC 2C 4D", 1 + 3 + 5 + 7 + 9 + 30 + 2 + 4, []),
    # overlapping melds: ♠7 in the run, the other three sevens as a set
    (
        "gin seven in set or run",
        GIN,
        "5S 6S 7S 8S 7H 7D 7C 2H 9D KC",
        2 + 9 + 10,
        ["5S 6S 7S 8S", "7H 7D 7C"],
    ),
    # four of a kind beats three when no run wants the fourth
    (
        "gin four of a kind",
        GIN,
        "9S 9H 9D 9C 2S 4H 6D 8C JS KH",
        2 + 4 + 6 + 8 + 20,
        ["9S 9H 9D 9C"],
    ),
    # a set and a run crossing at two cards: ♠Q and ♠K are wanted by both
    (
        "gin double crossing",
        GIN,
        "JS QS KS QH QD KH KD 2C 3C 5C",
        10 + 2 + 3 + 5,
        None,
    ),
    # "the ace is the lowest card": A-2-3 runs, Q-K-A does not, and nothing wraps
    ("gin ace low run", GIN, "AS 2S 3S 5H 7D 9C JH QD KC 4C", None, ["AS 2S 3S"]),
    (
        "gin no ace high",
        GIN,
        "QS KS AS 5H 7D 9C JH 2D 4C 6C",
        10 + 10 + 1 + 5 + 7 + 9 + 10 + 2 + 4 + 6,
        [],
    ),
    (
        "gin no wrap",
        GIN,
        "KS AS 2S 5H 7D 9C JH QD 4C 6C",
        10 + 1 + 2 + 5 + 7 + 9 + 10 + 10 + 4 + 6,
        [],
    ),
    # Gin sets: three or four cards, all suits different; runs of three or more
    ("gin two is no set", GIN, "8S 8H 5D 5C JS JH 2D 3H 4C 9S", None, []),
    ("gin long run", GIN, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH", 0, ["2H 3H 4H 5H 6H 7H 8H 9H 10H JH"]),
    # Tízlapos: J Q K A count 10; ace low or high; the royal A-K-Q-J is a run
    (
        "tizlapos royal run",
        TIZ,
        "AS KS QS JS 2H 5D 8C 4H 6C 9D",
        2 + 5 + 8 + 4 + 6 + 9,
        ["JS QS KS AS"],
    ),
    ("tizlapos ace low", TIZ, "AS 2S 3S 5H 7D 9C JH QD KC 4C", 5 + 7 + 9 + 30 + 4, ["AS 2S 3S"]),
    (
        "tizlapos no wrap",
        TIZ,
        "KS AS 2S 5H 7D 9C JH QD 4C 6C",
        10 + 10 + 2 + 5 + 7 + 9 + 20 + 4 + 6,
        [],
    ),
    # a joker stands for any card...
    ("joker fills a gap", TIZ, "5H JK 7H 2S 9C KD 4S 8D QC 10S", None, ["5H JK 7H"]),
    ("joker makes a set", TIZ, "9S 9D JK 2S 4H 6C 8D QC KS 3D", None, ["9S 9D JK"]),
    # ...but a meld holds no more wilds than naturals (D)
    ("two jokers need two naturals", TIZ, LONELY, 40 + 2 + 7 + 5 + 10 + 10 + 9 + 3 + 6, []),
    ("a joker left costs 20", TIZ, "JK 2S 5H 8D JC KS 4C 7S 10H QD", 20 + 66, []),
    # spare jokers join a meld with room rather than stay in hand
    ("spare joker joins a run", TIZ, "5H 6H 7H JK 2S 9C KD 4D 8S QC", None, ["5H 6H 7H JK"]),
    # ...or makes a meld of its own where that saves more: ♠2-joker-♠4 over a longer run
    (
        "joker prefers a new meld",
        TIZ,
        "5H 6H 7H JK 2S 9C KD 4S 8D QC",
        None,
        ["2S JK 4S", "5H 6H 7H"],
    ),
    # two decks: duplicates, and each copy in its own meld
    ("twin runs", TIZ, "5H 5H 6H 6H 7H 7H 2S 9C KD QS", 2 + 9 + 10 + 10, ["5H 6H 7H", "5H 6H 7H"]),
    ("same card twice is no set", TIZ, "7S 7S 7H 2D 9C KD 4S 8D QC 10S", None, []),
    ("open sets repeat suits", TIZ_OPEN_SETS, "7S 7S 7H 2D 9C KD 4S 8D QC 10S", None, ["7S 7S 7H"]),
    # Räväytys: runs of four, overlapping runs share a card only if there are two copies
    ("overlapping clubs", RAV, "5C 6C 7C 8C 8C 9C 10C JC", 0, ["5C 6C 7C 8C", "8C 9C 10C JC"]),
    ("a black two as itself", RAV, "AS 2S 3S 4S", 0, None),
    ("a black two as a wild", RAV, "5H 6H 2C 8H", 0, None),
    # an ace may be high where the variant says so, and then not low
    ("ace high only", GIN_ACE_HIGH_ONLY, "QS KS AS 2H 3H AH", 1 + 2 + 3, ["QS KS AS"]),
    ("empty hand", GIN, "", 0, []),
]


@pytest.mark.parametrize(
    ("variant", "hand", "deadwood", "melds"),
    [pytest.param(v, h, d, m, id=name) for name, v, h, d, m in CASES],
)
def test_best_arrangement(
    variant: Variant, hand: str, deadwood: int | None, melds: list[str] | None
) -> None:
    got = arrange(variant, hand) if hand else best_arrangement(variant, [])
    cards = parse_cards(hand) if hand else []
    if deadwood is not None:
        assert got.deadwood == deadwood
    if melds is not None:
        assert melds_text(got) == sorted(melds)
    # Whatever the case, the unmatched cards are what the deadwood counts.
    assert got.deadwood == sum(variant.penalty(c) for c in got.unmatched)
    assert sorted(got.unmatched + tuple(c for m in got.melds for c in m.cards)) == sorted(cards)


def test_crossing_set_and_run_leave_only_the_small_cards() -> None:
    got = arrange(GIN, "JS QS KS QH QD KH KD 2C 3C 5C")
    # J-Q-K♠ with Q♥ Q♦ K♥ K♦ left (40) is worse than Q-Q-Q + K-K-K with J♠ left (10).
    assert got.deadwood == 10 + 2 + 3 + 5
    assert {m.kind for m in got.melds} == {MeldKind.SET}


def test_joker_says_which_card_it_stands_for() -> None:
    got = arrange(TIZ, "5H JK 7H 2S 9C KD 4S 8D QC 10S")
    (run,) = got.melds
    assert run.kind is MeldKind.RUN
    assert run.cards == (Card.from_code("5H"), JOKER, Card.from_code("7H"))
    assert run.represents == tuple(parse_cards("5H 6H 7H"))


def test_joker_in_a_set_stands_for_a_missing_suit() -> None:
    got = arrange(TIZ, "9S 9D JK 2S 4H 6C 8D QC KS 3D")
    (group,) = got.melds
    assert group.kind is MeldKind.SET
    suits = [c.suit for c in group.represents]
    assert len(set(suits)) == 3
    assert all(c.rank == 9 for c in group.represents)


def test_royal_run_reads_the_ace_high() -> None:
    got = arrange(TIZ, "AS KS QS JS 2H 5D 8C 4H 6C 9D")
    (run,) = got.melds
    assert [c.code for c in run.represents] == ["JS", "QS", "KS", "AS"]


def test_joker_completes_ace_high_run() -> None:
    got = arrange(TIZ, "AS KS JK 2H 5D 8C 4H 6C 9D 3C")
    (run,) = got.melds
    assert [c.code for c in run.represents] == ["QS", "KS", "AS"]


def test_wild_limit_leaves_the_jokers() -> None:
    got = arrange(TIZ, LONELY)
    assert got.melds == ()
    assert got.unmatched.count(JOKER) == 2


def test_without_the_wild_limit_jokers_need_only_one_natural() -> None:
    got = arrange(TIZ_NO_LIMIT, LONELY)
    # Both jokers join one ten-point card: 40 + 10 saved.
    assert len(got.melds) == 1
    assert got.melds[0].wilds == 2
    assert got.deadwood == 2 + 7 + 5 + 10 + 9 + 3 + 6


def test_four_jokers_are_all_used_where_naturals_allow() -> None:
    got = arrange(TIZ, "JK JK JK JK 5H 5D 9C 10C 2C KD")
    assert JOKER not in got.unmatched
    assert sum(m.wilds for m in got.melds) == 4
    assert got.deadwood == 2 + 10


def test_jokers_without_partners_stay_in_hand() -> None:
    # ♣9 ♣9 cannot share a set (suits must differ) nor a run; only ♥5 ♦5 can take jokers,
    # two at most (no more wilds than naturals), so two jokers stay at 20 each.
    got = arrange(TIZ, "JK JK JK JK 5H 5D 9C 9C 2C KD")
    assert got.unmatched.count(JOKER) == 2
    assert got.deadwood == 40 + 10 + 2 + 9 + 9


def test_black_two_counts_natural_only_where_the_variant_says() -> None:
    strict = get_variant("ravaytys", black_two_natural=False)
    # As itself, ♠2 makes A-2-joker-joker two naturals and two wilds: a meld.
    assert arrange(RAV, "AS 2S JK JK").deadwood == 0
    # Counted as a wild it would be one natural and three wilds: nothing melds.
    assert arrange(strict, "AS 2S JK JK").deadwood == 20 + 20 + 50 + 50


def test_a_joker_in_gin_is_only_a_card() -> None:
    got = best_arrangement(GIN, [*parse_cards("5H 6H"), JOKER])
    assert got.melds == ()
    assert JOKER in got.unmatched


def test_variant_method_delegates() -> None:
    hand = parse_cards("AS 2S 3S 4H 5H 6H 7D 8D 9C KC")
    assert GIN.best_arrangement(hand) == best_arrangement(GIN, hand)


def test_minimal_arrangements_lists_every_tie() -> None:
    # A♠ 2♠ 3♠ 2♥ 2♦: the run leaves ♥2 ♦2, the set leaves ♠A ♠3; both 4.
    hand = parse_cards("AS 2S 3S 2H 2D 7C 8C 9C 10C JC")
    found = minimal_arrangements(GIN, hand)
    assert {a.deadwood for a in found} == {4}
    leftovers = {tuple(sorted(c.code for c in a.unmatched)) for a in found}
    assert leftovers == {("2D", "2H"), ("3S", "AS")}
    assert best_arrangement(GIN, hand) in found


def test_the_same_hand_in_any_order_gives_the_same_answer() -> None:
    hand = parse_cards("JK 5H 5H 6H 7H 7H 9C 9D JK 2S QS")
    assert best_arrangement(TIZ, hand) == best_arrangement(TIZ, list(reversed(hand)))
