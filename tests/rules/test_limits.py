"""How much input the engine reads: cards per hand and per laydown, and text before parsing.

A full two-deck hand once ran the solver for minutes and gigabytes; every entry point that
takes cards now refuses more than the game allows, before any expensive work.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pytest

from rules import (
    JOKER,
    RuleViolation,
    check_contract,
    check_contract_text,
    check_feasible,
    describe_options,
    full_deck,
    get_variant,
    hand_from_text,
    price_hand,
    price_text,
    score_deal,
    validate_meld,
)
from rules.arrangement import best_arrangement, minimal_arrangements
from rules.cards import Card, Suit
from rules.cli import main
from rules.notation import MAX_TEXT_LENGTH, parse_cards

RAV = get_variant("ravaytys")
RUT = get_variant("rutupeli")
GIN = get_variant("gin_romi")
TIZ = get_variant("tizlapos_romi")
VARIANTS = {"ravaytys": RAV, "rutupeli": RUT, "gin_romi": GIN, "tizlapos_romi": TIZ}
# 108 cards: two decks and four jokers.
FULL = full_deck(2, 4)
# 52 cards of one deck, for Gin Römi (its hands may hold no copy twice).
ONE_DECK = full_deck(1, 0)


def refusal(call: Callable[[], object]) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        call()
    json.dumps(info.value.to_dict())
    return info.value


def fast(call: Callable[[], object], seconds: float = 0.05) -> RuleViolation:
    start = time.perf_counter()
    err = refusal(call)
    assert time.perf_counter() - start < seconds, "the limit must be checked before the work"
    return err


# -- the limits, as the site reads them -----------------------------------------------------


@pytest.mark.parametrize(
    ("variant_id", "hand", "laydown", "text", "buys"),
    [
        # 12 dealt in deals 3 and 5, the dealer's card, and two cards for each of at most
        # 6 buys recorded (the source sets no limit; see rules.limits.UNCAPPED_BUYS).
        ("ravaytys", 25, 25, 600, 6),
        # 12 dealt, the dealer's card, two cards for each of the source's 3 buys.
        ("rutupeli", 19, 19, 456, 3),
        # 10 dealt and one drawn.
        ("gin_romi", 11, 11, 264, 0),
        # The dealer's 11.
        ("tizlapos_romi", 11, 11, 264, 0),
    ],
)
def test_every_variant_declares_its_limits(
    variant_id: str, hand: int, laydown: int, text: int, buys: int
) -> None:
    v = VARIANTS[variant_id]
    assert v.max_hand_cards == hand
    assert v.max_laydown_cards == laydown
    assert v.max_text_length == text
    assert v.max_buys == buys
    assert v.max_text_length <= MAX_TEXT_LENGTH


def test_limits_follow_the_options() -> None:
    assert get_variant("rutupeli", buy_cap=1).max_hand_cards == 12 + 1 + 2
    assert get_variant("ravaytys", buy_cap=2).max_hand_cards == 12 + 1 + 4
    assert get_variant("ravaytys", deals=[[2, 0]], cards_dealt=[13]).max_hand_cards == 13 + 1 + 12


def test_the_rules_page_states_the_recorded_buys() -> None:
    rows = dict(describe_options(RAV))
    assert rows["Buying a discard"] == "no limit; a score sheet takes up to 6 per player per deal"
    assert dict(describe_options(RUT))["Buying a discard"] == "at most 3 buys per player per deal"


def test_deal_limits() -> None:
    assert RAV.max_deals == 8
    assert RUT.max_deals == 7
    assert GIN.max_deals == TIZ.max_deals == 1000


# -- the largest real hands still go through ------------------------------------------------


def test_the_largest_real_hands_are_accepted() -> None:
    rut = [Card(r, s) for s in (Suit.SPADES, Suit.HEARTS) for r in range(4, 13)]
    assert len(rut) + 1 == RUT.max_hand_cards
    assert price_hand(RUT, [*rut, Card(1, Suit.CLUBS)]) > 0
    rav = [Card(r, Suit.SPADES) for r in range(1, 14)] + [
        Card(r, Suit.HEARTS) for r in range(2, 14)
    ]
    assert len(rav) == RAV.max_hand_cards
    assert price_hand(RAV, rav) > 0
    assert best_arrangement(RAV, rav).deadwood == 0
    gin = [Card(r, Suit.SPADES) for r in range(1, 12)]
    assert best_arrangement(GIN, gin).deadwood == 0


def test_a_rutupeli_deal_with_three_buys_and_a_full_hand() -> None:
    cards = " ".join(f"{r}S {r}H" for r in range(2, 11)) + " AC"  # 19 cards
    assert len(parse_cards(cards)) == RUT.max_hand_cards
    data = {
        "out": 1,
        "players": [
            {"cards": cards, "buys": 3},
            {"cards": "", "buys": 0},
        ],
    }
    assert score_deal(RUT, 3, data).points[1] == 0


# -- every entry point refuses more, fast ---------------------------------------------------


def _hand_refusal(err: RuleViolation, variant_id: str, count: int, field: str | None) -> None:
    v = VARIANTS[variant_id]
    assert err.code == "hand_too_large"
    assert err.field == field
    assert err.params["count"] == count
    assert err.params["limit"] == v.max_hand_cards
    assert err.params["game"] == v.name
    assert str(v.max_hand_cards) in err.message
    assert str(count) in err.message


@pytest.mark.parametrize("variant_id", ["ravaytys", "rutupeli", "tizlapos_romi"])
def test_best_arrangement_refuses_a_full_pack_in_milliseconds(variant_id: str) -> None:
    v = VARIANTS[variant_id]
    _hand_refusal(fast(lambda: best_arrangement(v, FULL)), variant_id, 108, None)
    _hand_refusal(fast(lambda: v.best_arrangement(FULL)), variant_id, 108, None)
    _hand_refusal(fast(lambda: minimal_arrangements(v, FULL)), variant_id, 108, None)


def test_best_arrangement_one_card_over() -> None:
    _hand_refusal(refusal(lambda: best_arrangement(GIN, ONE_DECK[:12])), "gin_romi", 12, None)
    _hand_refusal(refusal(lambda: best_arrangement(GIN, ONE_DECK)), "gin_romi", 52, None)
    rav = [Card(r, s) for s in Suit for r in range(2, 9)][:26]
    _hand_refusal(refusal(lambda: best_arrangement(RAV, rav)), "ravaytys", 26, None)


@pytest.mark.parametrize("variant_id", ["ravaytys", "rutupeli", "gin_romi", "tizlapos_romi"])
def test_price_hand_refuses_more_than_a_hand(variant_id: str) -> None:
    v = VARIANTS[variant_id]
    cards = [c for c in FULL if not c.is_joker][: v.max_hand_cards + 1]
    _hand_refusal(fast(lambda: price_hand(v, cards)), variant_id, len(cards), None)


def test_price_text_refuses_more_than_a_hand() -> None:
    text = "A " * 20  # 20 aces, one more than a Rutupeli hand of 19
    err = refusal(lambda: price_text(RUT, text))
    _hand_refusal(err, "rutupeli", 20, None)
    err = refusal(lambda: hand_from_text(RUT, text))
    _hand_refusal(err, "rutupeli", 20, None)


def test_a_rank_set_or_a_run_counts_every_card() -> None:
    # Short text, many cards: a run of 13 and rank sets expand before they are counted.
    err = refusal(lambda: price_text(GIN, "pata-A-K 7777"))
    _hand_refusal(err, "gin_romi", 17, None)


def test_check_feasible_refuses_a_hand_too_large() -> None:
    cards = [c for c in FULL if not c.is_joker][:30]
    err = fast(lambda: check_feasible(RAV, [[], cards], ["players.0.cards", "players.1.cards"]))
    _hand_refusal(err, "ravaytys", 30, "players.1.cards")


def test_check_contract_refuses_a_laydown_too_large() -> None:
    melds = [[Card(r, s) for r in range(1, 14)] for s in Suit]  # 52 cards in four runs
    err = fast(lambda: check_contract(RAV, 5, melds))
    assert err.code == "laydown_too_large"
    assert err.field == "laydown"
    assert err.params == {"count": 52, "limit": 25, "game": RAV.name}
    assert err.message == "A laydown holds at most 25 cards in Räväytys; this one has 52."
    text = ["pata-A-K", "hertta-A-K", "ruutu-A-K", "risti-A-K"]
    err = fast(lambda: check_contract_text(RAV, 5, text))
    assert err.code == "laydown_too_large"
    assert err.field == "laydown"


def test_validate_meld_refuses_a_meld_too_large() -> None:
    cards = [c for c in FULL if c.rank == 7]  # eight sevens: a set in Räväytys
    assert validate_meld(RAV, cards)
    many = [Card(7, s) for s in Suit] * 2 + [JOKER] * 4 + [Card(7, Suit.HEARTS)] * 20
    err = fast(lambda: validate_meld(RAV, many))
    assert err.code == "meld_too_large"
    assert err.params == {"count": 32, "limit": 25, "game": RAV.name}


def test_text_is_refused_by_its_length_before_it_is_parsed() -> None:
    huge = "AS " * 34_000  # about 100 kB
    for call in (
        lambda: parse_cards(huge),
        lambda: price_text(RAV, huge),
        lambda: hand_from_text(GIN, huge),
        lambda: check_contract_text(RAV, 1, [huge]),
    ):
        err = fast(call, 0.02)
        assert err.code == "text_too_long"
        assert err.params["count"] == len(huge)
    err = refusal(lambda: price_text(GIN, "   " * 100))
    assert err.code == "text_too_long"
    assert err.params == {"count": 300, "limit": GIN.max_text_length}


# -- deal entries ---------------------------------------------------------------------------


def test_contract_entry_refuses_a_hand_too_large() -> None:
    cards = " ".join(c.code for c in FULL[:40])
    data = {"out": 1, "players": [{"cards": cards}, {"cards": ""}, {"cards": "AS"}]}
    err = fast(lambda: score_deal(RAV, 1, data))
    _hand_refusal(err, "ravaytys", 40, "players.0.cards")
    listed = {"out": 1, "players": [{"cards": [c.code for c in FULL[:40]]}, {}, {}]}
    err = fast(lambda: score_deal(RAV, 1, listed))
    _hand_refusal(err, "ravaytys", 40, "players.0.cards")


def test_contract_entry_refuses_long_text_and_a_laydown_too_large() -> None:
    data = {"out": 1, "players": [{"cards": "AS " * 5000}, {"cards": ""}, {"cards": "AS"}]}
    err = fast(lambda: score_deal(RAV, 1, data))
    assert (err.code, err.field) == ("text_too_long", "players.0.cards")
    data = {
        "out": 1,
        "players": [{"cards": "AS"}, {"cards": ""}, {"cards": "AS"}],
        "laydown": ["pata-A-K", "hertta-A-K", "ruutu-A-K"],
    }
    err = fast(lambda: score_deal(RAV, 5, data))
    assert (err.code, err.field) == ("laydown_too_large", "laydown")
    data["laydown"] = ["AS " * 5000]
    err = fast(lambda: score_deal(RAV, 5, data))
    assert (err.code, err.field) == ("text_too_long", "laydown")


def test_gin_and_tizlapos_entries_refuse_long_text() -> None:
    gin = {"ending": "knock", "by": 0, "upper": "7H", "hands": ["AS " * 5000, "2S"]}
    err = fast(lambda: score_deal(GIN, 1, gin))
    assert (err.code, err.field) == ("text_too_long", "hands.0")
    gin = {"ending": "knock", "by": 0, "upper": "7H " * 5000, "deadwood": [1, 2]}
    err = fast(lambda: score_deal(GIN, 1, gin))
    assert (err.code, err.field) == ("text_too_long", "upper")
    tiz = {
        "winner": 0,
        "ending": "romi",
        "players": [{"cards": "AS " * 5000}, {"points": 5}],
    }
    err = fast(lambda: score_deal(TIZ, 1, tiz))
    assert (err.code, err.field) == ("text_too_long", "players.0.cards")


# -- the command line -----------------------------------------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    start = time.perf_counter()
    code = main([*argv, "--json"])
    assert time.perf_counter() - start < 0.5
    out = capsys.readouterr().out.strip().splitlines()[-1]
    data = json.loads(out)
    assert isinstance(data, dict)
    return code, data


@pytest.mark.parametrize("command", ["penalty", "meld", "deadwood"])
def test_cli_refuses_a_full_pack(capsys: pytest.CaptureFixture[str], command: str) -> None:
    cards = [c.code for c in FULL]
    code, data = _cli(capsys, command, "--variant", "ravaytys", *cards)
    assert code == 2
    error = data["error"]
    assert isinstance(error, dict)
    assert error["code"] in {"hand_too_large", "meld_too_large"}
    assert error["params"] == {"count": 108, "limit": 25, "game": "Räväytys"}


def test_cli_refuses_long_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = _cli(capsys, "deadwood", "--variant", "gin_romi", "AS " * 34_000)
    assert code == 2
    error = data["error"]
    assert isinstance(error, dict)
    assert error["code"] == "text_too_long"
    code, data = _cli(capsys, "contract", "--variant", "ravaytys", "--deal", "5", "AS " * 5000)
    assert code == 2
