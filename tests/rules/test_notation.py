"""Reading and printing cards: every form RULES.md lists, and the errors for bad tokens."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import RuleViolation, format_cards, parse_cards, parse_ranks
from rules.cards import JOKER, Card, Suit, full_deck
from rules.notation import cards_from_value, parse_card, parse_tokens


def codes(text: str, **kwargs: bool) -> str:
    return format_cards(parse_cards(text, **kwargs))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Codes, rank first, with T for ten; upper and lower case.
        ("AS 10H TH QD 7C", "AS 10H 10H QD 7C"),
        ("as 10h th qd 7c", "AS 10H 10H QD 7C"),
        ("AS,10H,TH", "AS 10H 10H"),
        ("AS, 10H ,  TH", "AS 10H 10H"),
        # Suit signs after and before the rank.
        ("A♠ 10♥", "AS 10H"),
        ("♠A", "AS"),
        ("♦K ♣2", "KD 2C"),
        ("♤A ♡10 ♢Q ♧J", "AS 10H QD JC"),
        ("♠\ufe0fA", "AS"),
        # Suit letter first, as in the contract example.
        ("H3 H4 JK H6", "3H 4H JK 6H"),
        ("S7 S8 S9 S10", "7S 8S 9S 10S"),
        # Jokers.
        ("JK X *", "JK JK JK"),
        ("jk x joker", "JK JK JK"),
        ("jokeri zsóker zsoker", "JK JK JK"),
        # The Finnish run shorthand of the seed.
        ("pata-5-6-7-8", "5S 6S 7S 8S"),
        ("risti 5-8", "5C 6C 7C 8C"),
        ("risti-5-6-7-8", "5C 6C 7C 8C"),
        ("hertta-3-4-5-6", "3H 4H 5H 6H"),
        ("risti-8-9-10-J", "8C 9C 10C JC"),
        ("pata-5-6-7-8-9-10-J-Q", "5S 6S 7S 8S 9S 10S JS QS"),
        ("♥3-6", "3H 4H 5H 6H"),
        ("♥J-A", "JH QH KH AH"),
        ("♠A-4", "AS 2S 3S 4S"),
        ("♠5-♠Q", "5S 6S 7S 8S 9S 10S JS QS"),
        ("♥3-4-JK-6", "3H 4H JK 6H"),
        ("hertta-3 hertta-4 jokeri hertta-6", "3H 4H JK 6H"),
        # A suit word gives its suit to the bare ranks after it.
        ("risti 5 6 7 8", "5C 6C 7C 8C"),
        ("risti 5 6 hertta 7", "5C 6C 7H"),
        ("pata 5 JK 7", "5S JK 7S"),
        # Finnish words.
        ("pata-ässä hertta-jätkä ruutu-rouva risti-kuningas", "AS JH QD KC"),
        ("pataässä herttakuningas", "AS KH"),
        ("PATA ÄSSÄ", "AS"),
        ("pata assa", "AS"),
        # Hungarian words and letters.
        ("pikk ász, kőr dáma, káró király, treff bubi", "AS QH KD JC"),
        ("pikk asz kor dama karo kiraly treff bubi", "AS QH KD JC"),
        ("kör 7", "7H"),
        ("BH DS KD AD", "JH QS KD AD"),
        ("HB SD", "JH QS"),
        ("DD", "QD"),
        # English words.
        ("spades ace, hearts 10", "AS 10H"),
        # Ace as 1 or 14, as the Finnish sources count it.
        ("1S 14H", "AS AH"),
        ("", ""),
        ("  ", ""),
    ],
)
def test_forms(text: str, expected: str) -> None:
    assert codes(text) == expected


@pytest.mark.parametrize(
    ("text", "ranks"),
    [
        ("777", [7, 7, 7]),
        ("QQQ", [12, 12, 12]),
        ("777 QQQ", [7, 7, 7, 12, 12, 12]),
        ("kkkk", [13] * 4),
        ("101010", [10, 10, 10]),
        ("A K 7 7", [1, 13, 7, 7]),
        ("AS JK 7", [1, 0, 7]),
        ("5-8", [5, 6, 7, 8]),
        ("ässä kuningas", [1, 13]),
    ],
)
def test_rank_sets_and_suitless_ranks(text: str, ranks: list[int]) -> None:
    assert parse_ranks(text) == ranks
    assert all(p.suit is None for p in parse_tokens(text) if p.rank and p.token != "AS")


@pytest.mark.parametrize("text", ["777", "QQQ", "A K", "7", "5-8"])
def test_suitless_cards_need_a_suit_unless_allowed(text: str) -> None:
    with pytest.raises(RuleViolation) as info:
        parse_cards(text)
    assert info.value.code == "bad_token"
    assert "needs a suit" in str(info.value)
    assert info.value.params["expected"]
    allowed = parse_cards(text, allow_suitless=True)
    assert [c.rank for c in allowed] == parse_ranks(text)
    assert all(c.suit is not None for c in allowed)


def test_suitless_cards_get_suits_in_turn() -> None:
    assert codes("7777 7", allow_suitless=True) == "7H 7D 7S 7C 7H"


@pytest.mark.parametrize(
    ("text", "token", "position", "says"),
    [
        ("AS ZZ", "ZZ", 2, "is not a card"),
        ("AS 10H 11H", "11H", 3, "is not a card"),
        ("AS 1OH", "1OH", 2, "is not a card"),
        ("pata", "pata", 1, "suit without a rank"),
        ("pata hertta 5", "pata", 1, "suit without a rank"),
        ("7H ♠", "♠", 2, "suit without a rank"),
        ("7H 777", "777", 2, "needs a suit"),
        ("AS KS Q", "Q", 3, "needs a suit"),
        ("pata-5-Z", "Z", 1, "is not a card"),
        ("AS pata-Q-3", "pata-Q-3", 2, "is not a run"),
        ("♥5-♠8", "♥5-♠8", 1, "is not a run"),
        ("AS --", "--", 2, "is not a card"),
        ("AS 5-", "5-", 2, "is not a card"),
        ("AS pata-", "pata-", 2, "is not a card"),
        ("A♠♠", "A♠♠", 1, "is not a card"),
    ],
)
def test_bad_tokens_are_quoted_with_their_position(
    text: str, token: str, position: int, says: str
) -> None:
    with pytest.raises(RuleViolation) as info:
        parse_cards(text)
    err = info.value
    assert err.code == "bad_token"
    assert err.params["token"] == token
    assert err.params["position"] == position
    assert err.params["expected"]
    assert f'"{token}"' in str(err)
    assert f"item {position}" in str(err)
    assert says in str(err)


def test_bad_token_template_is_translatable() -> None:
    with pytest.raises(RuleViolation) as info:
        parse_cards("ZZ")
    err = info.value
    assert "%(token)s" in err.template
    assert err.template % err.params == str(err)


def test_parse_card_wants_exactly_one() -> None:
    assert parse_card("♠Q") == Card(12, Suit.SPADES)
    with pytest.raises(RuleViolation):
        parse_card("AS KS")


def test_cards_from_value_accepts_lists_of_codes() -> None:
    assert format_cards(cards_from_value(["AS", "10H", "JK"])) == "AS 10H JK"
    assert format_cards(cards_from_value(["pata-5-7", "X"])) == "5S 6S 7S JK"
    with pytest.raises(RuleViolation) as info:
        cards_from_value(["AS", "nope"])
    assert info.value.params["position"] == 2
    with pytest.raises(RuleViolation):
        cards_from_value(42)


def test_format_with_symbols() -> None:
    cards = parse_cards("AS 10H JK")
    assert format_cards(cards, symbols=True) == "A♠ 10♥ JK"
    assert parse_cards(format_cards(cards, symbols=True)) == cards


def test_card_codes() -> None:
    assert Card.from_code("10H") == Card(10, Suit.HEARTS)
    assert Card.from_code("JK") == JOKER
    assert str(Card(12, Suit.DIAMONDS)) == "QD"
    assert Card(12, Suit.SPADES).label == "♠Q"
    with pytest.raises(RuleViolation):
        Card.from_code("TH")
    with pytest.raises(ValueError):
        Card(14, Suit.SPADES)
    with pytest.raises(ValueError):
        Card(0, Suit.SPADES)
    assert len(full_deck(2, 4)) == 108
    assert len(set(full_deck(1, 0))) == 52


# -- properties ------------------------------------------------------------------------------

any_card = st.sampled_from(full_deck(1, 1))
card_lists = st.lists(any_card, max_size=20)

_RANK_SPELLINGS: dict[int, list[str]] = {
    1: ["A", "a", "ässä", "ász", "1", "14"],
    10: ["10", "T", "t"],
    11: ["J", "j", "jätkä", "bubi", "B"],
    12: ["Q", "q", "rouva", "dáma", "D"],
    13: ["K", "k", "kuningas", "király"],
}
_SUIT_SPELLINGS: dict[Suit, list[str]] = {
    Suit.SPADES: ["S", "s", "♠", "pata", "pikk", "PATA"],
    Suit.HEARTS: ["H", "h", "♥", "hertta", "kőr", "kor"],
    Suit.DIAMONDS: ["D", "d", "♦", "ruutu", "káró"],
    Suit.CLUBS: ["C", "c", "♣", "risti", "treff"],
}
_JOKER_SPELLINGS = ["JK", "jk", "X", "*", "jokeri", "zsóker", "joker"]


@st.composite
def spelled(draw: st.DrawFn, card: Card) -> str:
    """One card in any of the notations people use."""
    if card.suit is None:
        return draw(st.sampled_from(_JOKER_SPELLINGS))
    rank = draw(st.sampled_from(_RANK_SPELLINGS.get(card.rank, [str(card.rank)])))
    suit = draw(st.sampled_from(_SUIT_SPELLINGS[card.suit]))
    word = len(suit) > 1 and not suit.startswith(("♠", "♥", "♦", "♣"))
    forms = [f"{suit}{rank}", f"{suit} {rank}"] if word else [f"{rank}{suit}", f"{suit}{rank}"]
    if word:
        forms.append(f"{suit}-{rank}")
    return draw(st.sampled_from(forms))


@settings(max_examples=300, deadline=None)
@given(card_lists)
def test_round_trip_through_format(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(format_cards(cards, symbols=True)) == cards
    assert parse_cards(format_cards(cards).lower()) == cards


@settings(max_examples=200, deadline=None)
@given(st.data(), card_lists)
def test_any_notation_reads_the_same_cards(data: st.DataObject, cards: list[Card]) -> None:
    parts = [data.draw(spelled(card)) for card in cards]
    separators = [data.draw(st.sampled_from([" ", ", ", ",", "  ", " ,"])) for _ in parts]
    text = "".join(p + s for p, s in zip(parts, separators, strict=True))
    assert parse_cards(text) == cards, text


@pytest.mark.parametrize("dash", ["\u2013", "\u2014", "\u2212"])
def test_typeset_dashes_read_as_hyphens(dash):
    assert format_cards(parse_cards(f"♥3{dash}6")) == format_cards(parse_cards("♥3-6"))
