"""One set or run under each variant's rules (RULES.md, "Melds" and the variants)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import MeldKind, RuleViolation, format_cards, get_variant, parse_cards
from rules.melds import meld_readings, validate_meld

RAV = get_variant("ravaytys")
RUT = get_variant("rutupeli")
GIN = get_variant("gin_romi")
TIZ = get_variant("tizlapos_romi")
VARIANTS = {"ravaytys": RAV, "rutupeli": RUT, "gin_romi": GIN, "tizlapos_romi": TIZ}


def readings(variant_id: str, text: str, kind: str | None = None) -> list[tuple[str, str]]:
    return [
        (m.kind.value, format_cards(m.represents))
        for m in meld_readings(VARIANTS[variant_id], parse_cards(text), kind)
    ]


# Each row: variant, cards, and the reading expected first ("kind: represented cards").
VALID = [
    # Sets: one rank; two-deck games let suits repeat, 3 or more cards.
    ("ravaytys", "7H 7D 7S", "set: 7S 7H 7D"),
    ("ravaytys", "7H 7H 7D", "set: 7H 7H 7D"),
    ("ravaytys", "7H 7H 7D 7D 7S 7C", "set: 7S 7H 7H 7D 7D 7C"),
    ("rutupeli", "QS QH QS", "set: QS QS QH"),
    ("rutupeli", "KS KH KD KC KS", "set: KS KS KH KD KC"),
    # Gin Römi: 3 or 4, all suits different.
    ("gin_romi", "7S 7H 7D", "set: 7S 7H 7D"),
    ("gin_romi", "7S 7H 7D 7C", "set: 7S 7H 7D 7C"),
    # Runs: one suit in sequence; 4 in contract games, 3 in the Römi games.
    ("ravaytys", "S7 S8 S9 S10", "run: 7S 8S 9S 10S"),
    ("rutupeli", "pata-5-6-7-8", "run: 5S 6S 7S 8S"),
    ("gin_romi", "AS 2S 3S", "run: AS 2S 3S"),
    ("tizlapos_romi", "9H 10H JH", "run: 9H 10H JH"),
    ("rutupeli", "10S 7S 9S 8S", "run: 7S 8S 9S 10S"),
    # Ace low or high.
    ("ravaytys", "AH 2H 3H 4H", "run: AH 2H 3H 4H"),
    ("ravaytys", "JH QH KH AH", "run: JH QH KH AH"),
    ("rutupeli", "AC 2C 3C 4C", "run: AC 2C 3C 4C"),
    ("rutupeli", "JC QC KC AC", "run: JC QC KC AC"),
    ("tizlapos_romi", "QD KD AD", "run: QD KD AD"),
    ("tizlapos_romi", "AD 2D 3D", "run: AD 2D 3D"),
    # The seed's joker: ♥3, ♥4, joker, ♥6 — the joker is ♥5.
    ("ravaytys", "H3 H4 JK H6", "run: 3H 4H 5H 6H"),
    ("ravaytys", "♥3-4-JK-6", "run: 3H 4H 5H 6H"),
    ("tizlapos_romi", "9H JK JH", "run: 9H 10H JH"),
    # Black twos are wild in Räväytys ...
    ("ravaytys", "♠7 ♠8 ♣2 ♠10", "run: 7S 8S 9S 10S"),
    ("ravaytys", "7H 7D ♠2", "set: 7H 7D 7S"),
    # ... but natural in their own place.
    ("ravaytys", "♠A ♠2 ♠3 ♠4", "run: AS 2S 3S 4S"),
    ("ravaytys", "♥2 ♦2 ♠2", "set: 2S 2H 2D"),
    ("ravaytys", "♠2 ♣2 ♠2", "set: 2S 2S 2C"),
    ("ravaytys", "♠2 ♣2 JK", "set: 2S 2C 2H"),
    # Wild limit: as many wild cards as natural ones is fine.
    ("ravaytys", "7H 8H JK JK", "run: 7H 8H 9H 10H"),
    ("ravaytys", "7H 7D JK ♣2", "set: 7H 7D 7S 7C"),
    ("tizlapos_romi", "7H 7D JK", "set: 7H 7D 7S"),
    # A wild inside a set of distinct suits takes a missing suit.
    ("tizlapos_romi", "7S 7H JK JK", "set: 7S 7H 7D 7C"),
]


@pytest.mark.parametrize(("variant_id", "text", "expected"), VALID)
def test_valid_melds(variant_id: str, text: str, expected: str) -> None:
    kind, cards = expected.split(": ")
    meld = validate_meld(VARIANTS[variant_id], parse_cards(text))
    assert meld.kind.value == kind
    assert format_cards(meld.represents) == cards
    assert sorted(meld.cards) == sorted(parse_cards(text))


INVALID = [
    # Too short.
    ("ravaytys", "7H 7D", "meld_too_short"),
    ("ravaytys", "5H 6H 7H", "meld_too_short"),
    ("rutupeli", "5H 6H 7H", "meld_too_short"),
    ("gin_romi", "5H 6H", "meld_too_short"),
    # Gin Römi sets: at most 4 and all suits different.
    ("gin_romi", "7S 7H 7D 7C 7S", "set_too_long"),
    ("tizlapos_romi", "7S 7H 7D 7C 7S", "set_too_long"),
    ("tizlapos_romi", "7S 7S 7H", "set_suits_repeat"),
    # One deck: one copy of a card; two decks: two.
    ("gin_romi", "7S 7S 7H", "too_many_copies"),
    ("ravaytys", "7H 7H 7H", "too_many_copies"),
    ("rutupeli", "7H 7H 7H 7S", "too_many_copies"),
    # Mixed ranks and suits.
    ("gin_romi", "7H 8S 9D", "not_a_meld"),
    ("rutupeli", "5H 6H 7H 8S", "run_mixed_suits"),
    ("rutupeli", "7H 7D 8H", "not_a_meld"),
    ("rutupeli", "7H 7D 7S 8S", "set_mixed_ranks"),
    # Gaps and duplicates in runs.
    ("rutupeli", "5H 6H 8H 9H", "run_gap"),
    ("ravaytys", "5H 9H JK 6H", "run_gap"),
    ("rutupeli", "5H 6H 6H 7H 8H", "run_duplicate"),
    # Ace: never wraps round; in Gin Römi low only.
    ("rutupeli", "QH KH AH 2H", "run_wraps"),
    ("ravaytys", "KH AH 2H 3H", "run_wraps"),
    ("tizlapos_romi", "KH AH 2H", "run_wraps"),
    ("gin_romi", "QS KS AS", "run_ace_low_only"),
    # No wild cards in Rutupeli and Gin Römi.
    ("rutupeli", "7H 8H 9H JK", "joker_not_wild"),
    ("gin_romi", "7H 7S JK", "joker_not_wild"),
    ("rutupeli", "7H 8H 9H ♠2", "run_mixed_suits"),
    # More wild cards than natural cards.
    ("ravaytys", "7H JK JK ♣2", "too_many_wilds"),
    ("ravaytys", "7H 8H JK JK ♠2", "too_many_wilds"),
    ("tizlapos_romi", "7H JK JK", "too_many_wilds"),
    # A meld must show what it is.
    ("ravaytys", "JK JK JK", "meld_no_natural"),
]


@pytest.mark.parametrize(("variant_id", "text", "code"), INVALID)
def test_invalid_melds_say_why(variant_id: str, text: str, code: str) -> None:
    with pytest.raises(RuleViolation) as info:
        validate_meld(VARIANTS[variant_id], parse_cards(text))
    assert info.value.code == code
    assert str(info.value)
    assert "%(" not in str(info.value)


def test_gap_message_names_the_missing_cards() -> None:
    with pytest.raises(RuleViolation) as info:
        validate_meld(RUT, parse_cards("5H 6H 9H 10H"))
    assert "♥7, ♥8" in str(info.value)


def test_too_many_copies_message() -> None:
    with pytest.raises(RuleViolation) as info:
        validate_meld(RAV, parse_cards("QS QS QS"))
    assert str(info.value) == "Impossible cards: 3 × ♠Q in a 2-deck game."


def test_without_the_wild_limit_more_wilds_are_allowed() -> None:
    loose = get_variant("ravaytys", max_wild_ratio_half=False)
    meld = validate_meld(loose, parse_cards("7H JK JK ♣2"))
    assert meld.kind is MeldKind.SET
    assert meld.wilds == 3


def test_all_readings_of_a_joker_at_the_end_are_kept() -> None:
    assert readings("ravaytys", "7H 8H 9H JK") == [
        ("run", "7H 8H 9H 10H"),
        ("run", "6H 7H 8H 9H"),
    ]
    # At the top the joker can only go below.
    assert readings("ravaytys", "JH QH KH JK") == [("run", "JH QH KH AH"), ("run", "10H JH QH KH")]
    assert readings("gin_romi", "JH QH KH") == [("run", "JH QH KH")]


def test_black_two_reads_natural_or_wild() -> None:
    assert readings("ravaytys", "♠2 ♠3 ♠4 ♠5") == [("run", "2S 3S 4S 5S"), ("run", "3S 4S 5S 6S")]


def test_kind_can_be_insisted_on() -> None:
    loose = get_variant("ravaytys", max_wild_ratio_half=False)
    both = meld_readings(loose, parse_cards("7H JK JK JK"))
    assert {m.kind for m in both} == {MeldKind.SET, MeldKind.RUN}
    assert {m.kind for m in meld_readings(loose, parse_cards("7H JK JK JK"), "run")} == {
        MeldKind.RUN
    }
    with pytest.raises(RuleViolation):
        validate_meld(RAV, parse_cards("7H 7D 7S"), MeldKind.RUN)
    with pytest.raises(RuleViolation):
        validate_meld(RAV, parse_cards("7H 7D 7S"), "pair")


def test_black_twos_can_be_wild_everywhere() -> None:
    always_wild = get_variant("ravaytys", black_two_natural=False)
    with pytest.raises(RuleViolation) as info:
        validate_meld(always_wild, parse_cards("♠2 ♠3 ♣2 JK"))
    assert info.value.code == "too_many_wilds"
    validate_meld(RAV, parse_cards("♠2 ♠3 ♣2 JK"))
    with pytest.raises(RuleViolation) as info:
        validate_meld(always_wild, parse_cards("♠2 ♣2 ♠2"))
    assert info.value.code == "meld_no_natural"
    with pytest.raises(RuleViolation) as info:
        validate_meld(always_wild, parse_cards("♥2 ♠2 ♣2"))
    assert info.value.code == "too_many_wilds"
    validate_meld(RAV, parse_cards("♥2 ♠2 ♣2"))


def test_ace_high_only_option() -> None:
    high = get_variant("ravaytys", ace_low=False)
    with pytest.raises(RuleViolation) as info:
        validate_meld(high, parse_cards("AH 2H 3H 4H"))
    assert info.value.code == "run_ace_high_only"


def test_empty_meld() -> None:
    with pytest.raises(RuleViolation):
        validate_meld(RAV, [])


# -- properties ------------------------------------------------------------------------------


@st.composite
def meld_like(draw: st.DrawFn) -> str:
    """Cards that are often, but not always, a meld."""
    if draw(st.booleans()):
        rank = draw(
            st.sampled_from(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
        )
        suits = draw(st.lists(st.sampled_from("SHDC"), min_size=2, max_size=6))
        cards = [rank + s for s in suits]
    else:
        suit = draw(st.sampled_from("SHDC"))
        start = draw(st.integers(1, 13))
        length = draw(st.integers(2, 7))
        names = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        cards = [names[(start - 1 + i) % 14] + suit for i in range(length)]
    wilds = draw(st.lists(st.sampled_from(["JK", "2S", "2C"]), max_size=3))
    for wild in wilds:
        cards.insert(draw(st.integers(0, len(cards))), wild)
    if draw(st.booleans()) and len(cards) > 1:
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    return " ".join(cards)


def verdict(variant_id: str, cards: list[object]) -> object:
    try:
        found = meld_readings(VARIANTS[variant_id], cards)  # type: ignore[arg-type]
    except RuleViolation as err:
        return err.code
    return sorted((m.kind.value, format_cards(m.represents)) for m in found)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), meld_like(), st.randoms(use_true_random=False))
def test_order_of_cards_never_matters(variant_id: str, text: str, rnd: object) -> None:
    cards = parse_cards(text)
    shuffled = list(cards)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    first, second = verdict(variant_id, list(cards)), verdict(variant_id, list(shuffled))
    assert (isinstance(first, str)) == (isinstance(second, str))
    if not isinstance(first, str):
        assert first == second


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), meld_like())
def test_readings_are_consistent(variant_id: str, text: str) -> None:
    """Every reading is a real meld: naturals stand for themselves, runs are consecutive."""
    variant = VARIANTS[variant_id]
    try:
        found = meld_readings(variant, parse_cards(text))
    except RuleViolation:
        return
    for meld in found:
        assert len(meld.cards) == len(meld.represents)
        naturals = sum(1 for c, r in zip(meld.cards, meld.represents, strict=True) if c == r)
        assert meld.wilds + naturals == len(meld.cards)
        for card, rep in zip(meld.cards, meld.represents, strict=True):
            assert not rep.is_joker
            assert card == rep or variant.is_wild(card)
        if variant.max_wild_ratio_half:
            assert meld.wilds <= naturals
        if meld.kind is MeldKind.SET:
            assert len({r.rank for r in meld.represents}) == 1
            assert len(meld) >= variant.min_set
        else:
            assert len({r.suit for r in meld.represents}) == 1
            positions = [r.rank for r in meld.represents]
            if positions[-1] == 1 and len(positions) > 1:
                positions[-1] = 14
            assert positions == list(range(positions[0], positions[0] + len(positions)))
            assert len(meld) >= variant.min_run
