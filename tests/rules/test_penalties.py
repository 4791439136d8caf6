"""Pricing hands and refusing impossible card counts."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Hand, RuleViolation, check_feasible, get_variant, price_hand, price_text
from rules.cards import Card, full_deck
from rules.notation import parse_cards
from rules.penalties import hand_from_value, price_breakdown

# The (D) prices below are pinned: they are house rules, and each game's default is
# asserted in its own test module.
RAV = get_variant("ravaytys", penalty_table={"JOKER": 50, "BLACK_TWO": 20})
RUT = get_variant("rutupeli")
GIN = get_variant("gin_romi")
TIZ = get_variant("tizlapos_romi", tiz_joker_penalty=20)
VARIANTS = {"ravaytys": RAV, "rutupeli": RUT, "gin_romi": GIN, "tizlapos_romi": TIZ}


@pytest.mark.parametrize(
    ("variant_id", "text", "points"),
    [
        # Rutupeli (S): A = 20; 10, J, Q, K = 10; 2-9 = 5.
        ("rutupeli", "A K 7 7", 40),
        ("rutupeli", "AS", 20),
        ("rutupeli", "10H JH QH KH", 40),
        ("rutupeli", "2S 3H 4D 5C 6S 7H 8D 9C", 40),
        ("rutupeli", "2 2", 10),
        # Räväytys (D): as Rutupeli, joker 50, black two 20 (a red two is a plain 5).
        ("ravaytys", "JK", 50),
        ("ravaytys", "♠2 ♣2", 40),
        ("ravaytys", "♥2 ♦2", 10),
        ("ravaytys", "A K 7 7 JK", 90),
        # Gin Römi (S): A = 1, J/Q/K = 10, others face value.
        ("gin_romi", "A", 1),
        ("gin_romi", "7D 8D 9C KC", 34),
        ("gin_romi", "10S JS QS KS", 40),
        ("gin_romi", "2 3 4 5 6 7 8 9", 44),
        # Tízlapos Römi (S): J, Q, K, A = 10, others face value; joker left in hand 20 (D).
        ("tizlapos_romi", "A K Q J", 40),
        ("tizlapos_romi", "2 3", 5),
        ("tizlapos_romi", "JK 9", 29),
        ("tizlapos_romi", "2S", 2),
        # Nothing left, nothing to pay.
        ("rutupeli", "", 0),
    ],
)
def test_price_by_table(variant_id: str, text: str, points: int) -> None:
    assert price_text(VARIANTS[variant_id], text) == points


def test_price_follows_a_changed_table() -> None:
    house = get_variant("ravaytys", penalty_table={"A": 15, "JOKER": 25})
    assert price_text(house, "A JK 7") == 15 + 25 + 5


def test_price_breakdown_lists_each_card() -> None:
    hand = hand_from_value(RAV, "AS JK 7")
    assert price_breakdown(RAV, hand) == [("♠A", 20), ("JK", 50), ("7", 5)]


def test_a_suitless_two_is_ambiguous_where_black_twos_are_wild() -> None:
    with pytest.raises(RuleViolation) as info:
        price_text(RAV, "A 2")
    err = info.value
    assert err.code == "bad_token"
    assert err.params["token"] == "2"
    assert err.params["position"] == 2
    assert "black two counts 20" in str(err)
    # Where both twos cost the same, the suit does not matter.
    same = get_variant("ravaytys", penalty_table={"BLACK_TWO": 5})
    assert price_text(same, "A 2") == 25


@pytest.mark.parametrize(
    ("variant_id", "text", "code", "message"),
    [
        ("ravaytys", "QS QS QS", "too_many_copies", "Impossible cards: 3 × ♠Q in a 2-deck game."),
        ("gin_romi", "QS QS", "too_many_copies", "Impossible cards: 2 × ♠Q in a 1-deck game."),
        (
            "ravaytys",
            "JK JK JK JK JK",
            "too_many_copies",
            "Impossible cards: 5 jokers in a game with 4.",
        ),
        ("rutupeli", "7 7 7 7 7 7 7 7 7", "too_many_copies", None),
        ("rutupeli", "7S 7S 7 7 7 7 7 7 7", "too_many_copies", None),
        ("rutupeli", "JK", "no_jokers", "There are no jokers in Rutupeli."),
        ("gin_romi", "AS JK", "no_jokers", "There are no jokers in Gin Römi."),
    ],
)
def test_impossible_hands(variant_id: str, text: str, code: str, message: str | None) -> None:
    with pytest.raises(RuleViolation) as info:
        price_text(VARIANTS[variant_id], text)
    assert info.value.code == code
    if message is not None:
        assert str(info.value) == message


def test_possible_extremes() -> None:
    assert price_text(RUT, "7 7 7 7 7 7 7 7") == 40
    assert price_text(RAV, "JK JK JK JK QS QS") == 220


def test_feasibility_across_a_deal_names_the_hand() -> None:
    hands = [parse_cards("QS 7H"), parse_cards("QS 8H"), parse_cards("9H QS")]
    with pytest.raises(RuleViolation) as info:
        check_feasible(RAV, hands, ["players.0.cards", "players.1.cards", "players.2.cards"])
    assert info.value.field == "players.2.cards"
    assert str(info.value) == "Impossible cards: 3 × ♠Q in a 2-deck game."
    check_feasible(RAV, hands[:2])


def test_feasibility_counts_suitless_ranks_against_the_rank() -> None:
    hands = [Hand(parse_cards("7S 7S 7H 7H")), Hand((), (7, 7, 7, 7)), Hand((), (7,))]
    with pytest.raises(RuleViolation) as info:
        check_feasible(RUT, hands, ["a", "b", "c"])
    assert info.value.field == "c"
    check_feasible(RUT, hands[:2])


def test_price_hand_takes_plain_cards() -> None:
    assert price_hand(GIN, parse_cards("AS 2S")) == 3


# -- property: feasibility never accepts more copies than the decks hold ---------------------


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(sorted(VARIANTS)),
    st.lists(
        st.lists(st.sampled_from(full_deck(3, 6)), max_size=12),
        min_size=1,
        max_size=6,
    ),
)
def test_feasibility_matches_the_decks(variant_id: str, hands: list[list[Card]]) -> None:
    variant = VARIANTS[variant_id]
    counts = Counter(card for hand in hands for card in hand)
    possible = all(
        count <= (variant.jokers if card.is_joker else variant.decks)
        for card, count in counts.items()
    )
    # A hand larger than the game's is refused as such, whatever its cards.
    too_large = any(len(hand) > variant.max_hand_cards for hand in hands)
    try:
        check_feasible(variant, hands)
    except RuleViolation as err:
        if err.code == "hand_too_large":
            assert too_large
            return
        assert err.code in ("too_many_copies", "no_jokers")
        assert not possible
    else:
        assert possible
        assert not too_large


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(sorted(VARIANTS)),
    st.lists(st.integers(1, 13), max_size=30),
    st.lists(st.sampled_from(full_deck(2, 0)), max_size=20),
)
def test_feasibility_with_suitless_ranks(
    variant_id: str, loose: list[int], cards: list[Card]
) -> None:
    variant = VARIANTS[variant_id]
    per_card = Counter(cards)
    per_rank = Counter([c.rank for c in cards] + loose)
    possible = all(n <= variant.decks for n in per_card.values()) and all(
        n <= 4 * variant.decks for n in per_rank.values()
    )
    possible = possible and len(cards) + len(loose) <= variant.max_hand_cards
    try:
        check_feasible(variant, [Hand(tuple(cards), tuple(loose))])
    except RuleViolation:
        assert not possible
    else:
        assert possible
