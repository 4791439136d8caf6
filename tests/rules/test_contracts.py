"""Laydowns against a deal's contract (Räväytys, Rutupeli)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import RuleViolation, check_contract, check_contract_text, format_cards, get_variant
from rules.cards import Card, Suit
from rules.notation import parse_cards

RAV = get_variant("ravaytys")
RUT = get_variant("rutupeli")
VARIANTS = {"ravaytys": RAV, "rutupeli": RUT}


def verdict(variant_id: str, deal: int, *melds: str) -> str:
    try:
        check_contract_text(VARIANTS[variant_id], deal, melds)
    except RuleViolation as err:
        return err.code
    return "valid"


# One valid laydown for every deal of both games.
VALID = [
    ("ravaytys", 1, ["7S 7H 7D", "QS QH QC"]),
    ("ravaytys", 2, ["7S 7H 7D", "QS QH JK", "AS AD AD"]),
    ("ravaytys", 3, ["7S 7H 7D", "QS QH QH", "AS AD AC", "5C 5C ♠2"]),
    ("ravaytys", 4, ["H3 H4 JK H6", "S7 S8 S9 S10"]),
    ("ravaytys", 5, ["♥3-6", "♠7 ♠8 ♣2 ♠10", "♦J ♦Q JK ♦A"]),
    ("ravaytys", 6, ["risti 5-8", "KS KH KD"]),
    ("ravaytys", 7, ["♣5-8", "♣8-J", "9H 9D 9D"]),
    ("ravaytys", 8, ["4S 4H 4C", "JS JH JK", "♦A-4"]),
    ("rutupeli", 1, ["7S 7H 7D", "QS QH QC"]),
    ("rutupeli", 2, ["pata-5-6-7-8", "QS QH QC"]),
    ("rutupeli", 3, ["pata-5-8", "hertta-5-8"]),
    ("rutupeli", 4, ["7S 7H 7D", "QS QH QC", "♦J-A"]),
    ("rutupeli", 5, ["♠A-4", "♠J-A", "7S 7H 7D"]),
    ("rutupeli", 6, ["7S 7H 7D", "QS QH QC", "3S 3S 3D 3D"]),
    ("rutupeli", 7, ["♠A-4", "♥5-8", "♣9-Q"]),
]


@pytest.mark.parametrize(("variant_id", "deal", "melds"), VALID)
def test_valid_laydowns(variant_id: str, deal: int, melds: list[str]) -> None:
    assert verdict(variant_id, deal, *melds) == "valid"


SEED_CASES = [
    # ♠5-♠Q is not two runs: ♠5-8 + ♠9-Q is refused (seed 000).
    ("ravaytys", 4, ["pata-5-6-7-8", "pata-9-10-J-Q"], "runs_continue"),
    ("ravaytys", 4, ["♠5-8", "♠9-Q"], "runs_continue"),
    ("ravaytys", 4, ["♠9-Q", "♠5-8"], "runs_continue"),
    ("ravaytys", 5, ["♠5-8", "♥3-6", "♠9-Q"], "runs_continue"),
    # Overlapping clubs, using both ♣8s, are fine.
    ("ravaytys", 4, ["risti-5-6-7-8", "risti-8-9-10-J"], "valid"),
    # Gapped hearts are fine.
    ("ravaytys", 4, ["hertta-3-4-5-6", "hertta-8-9-10-J"], "valid"),
    # The joker in ♥3-4-JK-6 stands for ♥5.
    ("ravaytys", 4, ["hertta-3 hertta-4 jokeri hertta-6", "pata-7-8-9-10"], "valid"),
    # Runs of different suits may meet.
    ("ravaytys", 4, ["♠5-8", "♥9-Q"], "valid"),
    # Ace low and ace high do not wrap round into each other.
    ("ravaytys", 4, ["♠A-4", "♠J-A"], "valid"),
    ("ravaytys", 4, ["♠A-4", "♠5-8"], "runs_continue"),
    ("ravaytys", 4, ["♠10-K", "♠J-A"], "valid"),
    # A wild is read so the runs do not continue each other, when that is possible ...
    ("ravaytys", 4, ["♠5-8", "♠9 ♠10 ♠J JK"], "valid"),
    ("ravaytys", 4, ["♠5 ♠6 ♠7 JK", "♠9 ♠10 ♠J ♠Q"], "valid"),
    # ... and refused when no reading helps.
    ("ravaytys", 4, ["♠5-8", "♠9 ♠10 JK ♠Q"], "runs_continue"),
    # Rutupeli's source says nothing against it (D): continuing runs are allowed there.
    ("rutupeli", 3, ["♠5-8", "♠9-Q"], "valid"),
]


@pytest.mark.parametrize(("variant_id", "deal", "melds", "expected"), SEED_CASES)
def test_same_suit_runs(variant_id: str, deal: int, melds: list[str], expected: str) -> None:
    assert verdict(variant_id, deal, *melds) == expected


def test_refusal_names_the_melds() -> None:
    with pytest.raises(RuleViolation) as info:
        check_contract_text(RAV, 4, ["♠5-8", "♠9-Q"])
    err = info.value
    assert err.field == "laydown.1"
    assert err.params["meld"] == 2
    assert err.params["other"] == 1
    assert str(err).startswith("Meld 2 (♠9–♠Q) continues meld 1 (♠5–♠8)")
    assert "overlap" in str(err)


def test_the_continuation_rule_is_an_option() -> None:
    strict = get_variant("rutupeli", runs_must_not_continue=True)
    with pytest.raises(RuleViolation):
        check_contract_text(strict, 3, ["♠5-8", "♠9-Q"])
    lax = get_variant("ravaytys", runs_must_not_continue=False)
    check_contract_text(lax, 4, ["♠5-8", "♠9-Q"])


WRONG = [
    # Only contract melds, exactly as many as the contract asks.
    ("ravaytys", 4, ["♠5-8"], "contract_count", "laydown"),
    ("ravaytys", 1, ["7S 7H 7D", "QS QH QC", "KS KH KC"], "contract_count", "laydown"),
    # The kind matters.
    ("ravaytys", 4, ["7S 7H 7D", "♠9-Q"], "contract_kind", "laydown.0"),
    ("ravaytys", 1, ["7S 7H 7D", "♠9-Q"], "contract_kind", "laydown.1"),
    ("rutupeli", 2, ["♠5-8", "♥5-8"], "contract_kind", "laydown.1"),
    ("rutupeli", 2, ["7S 7H 7D", "QS QH QC"], "contract_kind", "laydown.1"),
    # A meld that is no meld.
    ("ravaytys", 4, ["♠5-8", "♥5 ♥6 ♥8 ♥9"], "run_gap", "laydown.1"),
    ("rutupeli", 1, ["7S 7H", "QS QH QC"], "meld_too_short", "laydown.0"),
    ("rutupeli", 3, ["♠5 ♠6 ♠7", "♥5-8"], "meld_too_short", "laydown.0"),
    ("rutupeli", 3, ["♠5 ♠6 ♠7 JK", "♥5-8"], "joker_not_wild", "laydown.0"),
    # More copies of a card than two decks hold, across the melds.
    ("ravaytys", 4, ["♠9-Q", "♠Q ♠K ♠A JK"], "valid", ""),
    ("ravaytys", 1, ["QS QS QH", "QS QD QC"], "too_many_copies", "laydown.1"),
    ("ravaytys", 1, ["7H JK JK", "QS JK JK QD QH"], "too_many_wilds", "laydown.0"),
    ("ravaytys", 2, ["7H 7D JK", "QS QD JK", "5H 5D 5S JK JK JK"], "too_many_copies", "laydown.2"),
]


@pytest.mark.parametrize(("variant_id", "deal", "melds", "code", "field"), WRONG)
def test_wrong_laydowns_say_which_meld(
    variant_id: str, deal: int, melds: list[str], code: str, field: str
) -> None:
    if code == "valid":
        assert verdict(variant_id, deal, *melds) == "valid"
        return
    with pytest.raises(RuleViolation) as info:
        check_contract_text(VARIANTS[variant_id], deal, melds)
    err = info.value
    assert err.code == code
    assert err.field == field
    if field.startswith("laydown."):
        number = int(field.split(".")[1]) + 1
        assert f"Meld {number}" in str(err)
    assert "%(" not in str(err)


def test_copies_message() -> None:
    with pytest.raises(RuleViolation) as info:
        check_contract_text(RAV, 1, ["QS QS QH", "QS QD QC"])
    assert str(info.value) == "Meld 2: Impossible cards: 3 × ♠Q in a 2-deck game."
    nested = info.value.to_dict()["params"]
    assert isinstance(nested, dict)
    assert nested["reason"]["code"] == "too_many_copies"


def test_returns_the_melds_as_read() -> None:
    melds = check_contract_text(RAV, 4, ["♠5-8", "♠9 ♠10 ♠J JK"])
    assert [format_cards(m.represents) for m in melds] == ["5S 6S 7S 8S", "8S 9S 10S JS"]


def test_bad_card_text_points_at_the_meld() -> None:
    with pytest.raises(RuleViolation) as info:
        check_contract_text(RAV, 4, ["♠5-8", "♥3 ♥4 ZZ"])
    assert info.value.code == "bad_token"
    assert info.value.field == "laydown.1"


def test_no_such_deal() -> None:
    with pytest.raises(RuleViolation) as info:
        check_contract_text(RAV, 9, ["♠5-8"])
    assert info.value.code == "bad_deal"


# -- properties ------------------------------------------------------------------------------

_NAMES = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
_SUIT_WORDS = {
    Suit.SPADES: ["S", "♠", "pata", "pikk"],
    Suit.HEARTS: ["H", "♥", "hertta", "kőr"],
    Suit.DIAMONDS: ["D", "♦", "ruutu", "káró"],
    Suit.CLUBS: ["C", "♣", "risti", "treff"],
}


@st.composite
def laydowns(draw: st.DrawFn) -> tuple[str, int, list[list[Card]]]:
    """A laydown for a random deal that is often valid and often not quite."""
    variant_id = draw(st.sampled_from(["ravaytys", "rutupeli"]))
    variant = VARIANTS[variant_id]
    deal = draw(st.integers(1, len(variant.deals)))
    contract = variant.contract(deal)
    suits = list(Suit)
    melds: list[list[Card]] = []
    kinds = ["set"] * contract.sets + ["run"] * contract.runs
    if draw(st.integers(0, 9)) == 0:
        kinds.append(draw(st.sampled_from(["set", "run"])))
    # Runs share suits on purpose, so they meet, overlap and continue each other.
    run_suits = draw(st.lists(st.sampled_from(suits[:2]), min_size=3, max_size=3))
    for index, kind in enumerate(kinds):
        if kind == "set":
            rank = draw(st.integers(1, 13))
            chosen = draw(st.lists(st.sampled_from(suits), min_size=3, max_size=4))
            cards = [Card(rank, s) for s in chosen]
        else:
            suit = run_suits[index % 3]
            start = draw(st.integers(1, 10))
            length = draw(st.integers(4, 5))
            cards = [Card(1 if r == 14 else r, suit) for r in range(start, start + length)]
        if variant.wild_jokers and draw(st.booleans()):
            wild = draw(st.sampled_from([Card(0, None), Card(2, Suit.CLUBS), Card(2, Suit.SPADES)]))
            cards[draw(st.integers(0, len(cards) - 1))] = wild
        melds.append(cards)
    return variant_id, deal, melds


def spell(card: Card, rnd: random.Random) -> str:
    if card.suit is None:
        return rnd.choice(["JK", "X", "*", "jokeri", "zsóker"])
    suit = rnd.choice(_SUIT_WORDS[card.suit])
    rank = _NAMES[card.rank]
    if len(suit) > 1 and suit not in "♠♥♦♣":
        return f"{suit}-{rank}"
    return rnd.choice([f"{rank}{suit}", f"{suit}{rank}"]).lower()


def judge(variant_id: str, deal: int, melds: list[list[Card]]) -> bool:
    try:
        check_contract(VARIANTS[variant_id], deal, melds)
    except RuleViolation:
        return False
    return True


@settings(max_examples=400, deadline=None)
@given(laydowns(), st.randoms(use_true_random=False))
def test_verdict_ignores_order_and_notation(
    laydown: tuple[str, int, list[list[Card]]], rnd: random.Random
) -> None:
    variant_id, deal, melds = laydown
    expected = judge(variant_id, deal, melds)
    shuffled = [list(m) for m in melds]
    rnd.shuffle(shuffled)
    for meld in shuffled:
        rnd.shuffle(meld)
    assert judge(variant_id, deal, shuffled) == expected
    texts = [", ".join(spell(c, rnd) for c in meld) for meld in shuffled]
    reparsed = [parse_cards(t) for t in texts]
    assert [sorted(m) for m in reparsed] == [sorted(m) for m in shuffled]
    assert judge(variant_id, deal, reparsed) == expected


@settings(max_examples=200, deadline=None)
@given(laydowns())
def test_a_valid_laydown_meets_the_contract(laydown: tuple[str, int, list[list[Card]]]) -> None:
    variant_id, deal, melds = laydown
    variant = VARIANTS[variant_id]
    try:
        read = check_contract(variant, deal, melds)
    except RuleViolation:
        return
    contract = variant.contract(deal)
    assert sum(m.kind.value == "set" for m in read) == contract.sets
    assert sum(m.kind.value == "run" for m in read) == contract.runs
    if variant.runs_must_not_continue:
        runs = [m.represents for m in read if m.kind.value == "run"]
        for a in runs:
            for b in runs:
                a_high = 14 if a[-1].rank == 1 else a[-1].rank
                assert not (a[0].suit == b[0].suit and a_high + 1 == b[0].rank)


def test_bare_rank_sets_take_the_least_used_suits():
    from rules import check_contract_text, get_variant

    ravaytys = get_variant("ravaytys")
    # Two ♠7 are typed; the bare "777" takes other suits, so the laydown is possible.
    melds = check_contract_text(ravaytys, 1, ["777", "7S 7S 7H"])
    assert len(melds) == 2
    # Nine sevens cannot be in two decks, however the suits are chosen.
    with pytest.raises(RuleViolation):
        check_contract_text(ravaytys, 3, ["777", "777", "777", "KKK"])


def test_bare_ranks_still_need_suits_where_set_suits_must_differ():
    from rules import get_variant
    from rules.contracts import laydown_cards

    with pytest.raises(RuleViolation) as info:
        laydown_cards(get_variant("gin_romi"), ["777"])
    assert info.value.field == "laydown.0"


def test_a_bad_seat_is_quoted_as_the_player_counts():
    from rules import get_variant, score_deal

    with pytest.raises(RuleViolation) as info:
        score_deal(
            get_variant("rutupeli"), 1, {"out": 3, "players": [{"cards": "A", "buys": 0}] * 3}
        )
    assert info.value.message.startswith('"4" is not a seat')
