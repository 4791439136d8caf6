"""The four variants as data: RULES.md's defaults, options and serialisation."""

from __future__ import annotations

import json

import pytest

from rules import VARIANT_IDS, Contract, RuleViolation, describe_options, get_variant
from rules.cards import Card, Suit
from rules.variants import PENALTY_KEYS, Variant

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def contracts(text: str) -> tuple[Contract, ...]:
    """ "2s 3s 1r1s" -> contracts."""
    out = []
    for item in text.split():
        sets = runs = 0
        for count, kind in zip(item[::2], item[1::2], strict=True):
            if kind == "s":
                sets = int(count)
            else:
                runs = int(count)
        out.append(Contract(sets=sets, runs=runs))
    return tuple(out)


def test_ravaytys_deals_contracts_and_cards() -> None:
    v = get_variant("ravaytys")
    assert v.deals == contracts("2s 3s 4s 2r 3r 1r1s 2r1s 2s1r")
    assert v.cards_dealt == (11, 11, 12, 11, 12, 11, 11, 11)
    assert (v.min_players, v.max_players) == (3, 6)
    assert (v.decks, v.jokers) == (2, 4)


def test_rutupeli_games_contracts_and_cards() -> None:
    v = get_variant("rutupeli")
    assert v.deals == contracts("2s 1r1s 2r 2s1r 2r1s 3s 3r")
    assert v.cards_dealt == (12,) * 7
    assert (v.decks, v.jokers) == (2, 0)
    assert v.buy_cap == 3
    assert v.stock_out_ends_deal


# Each game's defaults (RULES.md's (D)) are asserted in that game's own test module
# (test_contract_games, test_gin, test_tizlapos), next to its rules: a new default there
# touches the game's module and its tests only.


def test_every_penalty_table_prices_every_card() -> None:
    for variant_id in VARIANT_IDS:
        assert set(get_variant(variant_id).penalty_table) == set(PENALTY_KEYS)


@pytest.mark.parametrize(
    ("variant_id", "card", "wild"),
    [
        ("ravaytys", Card(0, None), True),
        ("ravaytys", Card(2, S), True),
        ("ravaytys", Card(2, C), True),
        ("ravaytys", Card(2, H), False),
        ("ravaytys", Card(3, S), False),
        ("tizlapos_romi", Card(0, None), True),
        ("tizlapos_romi", Card(2, S), False),
        ("rutupeli", Card(2, S), False),
        ("gin_romi", Card(2, C), False),
    ],
)
def test_which_cards_are_wild(variant_id: str, card: Card, wild: bool) -> None:
    assert get_variant(variant_id).is_wild(card) is wild


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_round_trip_through_json(variant_id: str) -> None:
    v = get_variant(variant_id)
    stored = json.loads(json.dumps(v.to_dict()))
    assert Variant.from_dict(stored) == v
    hash(v)


def test_options_change_defaults_and_survive_storage() -> None:
    v = get_variant(
        "ravaytys",
        buy_cap=2,
        ace_high=False,
        penalty_table={"JOKER": 25},
        deals=[{"sets": 2}, [0, 2]],
        cards_dealt=[10, 10],
        tie_order=["deals_won", "seat"],
    )
    assert v.buy_cap == 2
    assert not v.ace_high
    assert v.penalty_table["JOKER"] == 25
    assert v.penalty_table["A"] == 20
    assert v.deals == (Contract(2, 0), Contract(0, 2))
    assert Variant.from_dict(json.loads(json.dumps(v.to_dict()))) == v
    assert v != get_variant("ravaytys")


def test_stored_variant_keeps_its_values_and_fills_new_settings() -> None:
    stored = get_variant("rutupeli", buy_cap=5).to_dict()
    del stored["tie_order"]  # a setting added after the event was stored
    v = Variant.from_dict(stored)
    assert v.buy_cap == 5
    assert v.tie_order == get_variant("rutupeli").tie_order


def test_joker_penalty_is_one_setting_in_tizlapos() -> None:
    v = get_variant("tizlapos_romi", tiz_joker_penalty=15)
    assert v.penalty_table["JOKER"] == 15
    w = get_variant("tizlapos_romi", penalty_table={"JOKER": 30})
    assert w.tiz_joker_penalty == 30


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"colour": "red"}, "colour"),
        ({"id": "gin_romi"}, "id"),
        ({"decks": "2"}, "decks"),
        ({"decks": True}, "decks"),
        ({"decks": -1}, "decks"),
        ({"decks": 0}, "decks"),
        ({"wild_jokers": 1}, "wild_jokers"),
        ({"buy_cap": 2.5}, "buy_cap"),
        ({"penalty_table": {"Z": 3}}, "penalty_table"),
        ({"penalty_table": {"A": -3}}, "penalty_table"),
        ({"penalty_table": [1, 2]}, "penalty_table"),
        ({"deals": [{"sets": 2, "pairs": 1}]}, "deals"),
        ({"deals": [{"sets": 0, "runs": 0}]}, "deals"),
        ({"deals": [[2, 0]]}, "cards_dealt"),
        ({"tie_order": ["coin"]}, "tie_order"),
        ({"ace_low": False, "ace_high": False}, "ace_high"),
        ({"min_players": 7}, "min_players"),
        ({"max_set": 2}, "max_set"),
        ({"tiz_knock_cards": [2, 14]}, "tiz_knock_cards"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], field: str) -> None:
    with pytest.raises(RuleViolation) as info:
        get_variant("ravaytys", **options)
    assert info.value.code == "bad_option"
    assert info.value.field == field


def test_unknown_variant() -> None:
    with pytest.raises(RuleViolation) as info:
        get_variant("canasta")
    assert info.value.code == "bad_variant"
    assert "canasta" in str(info.value)


def test_from_dict_needs_an_id() -> None:
    with pytest.raises(RuleViolation):
        Variant.from_dict({"decks": 2})


def test_contract_lookup() -> None:
    v = get_variant("ravaytys")
    assert v.contract(6) == Contract(sets=1, runs=1)
    assert v.contract(8).describe() == "2 sets + 1 run"
    assert v.contract(7).describe() == "2 runs + 1 set"
    assert v.contract(1).describe() == "2 sets"
    assert v.contract(6).describe() == "1 run + 1 set"
    for bad in (0, 9):
        with pytest.raises(RuleViolation) as info:
            v.contract(bad)
        assert info.value.code == "bad_deal"


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_rules_page_describes_every_option_in_words(variant_id: str) -> None:
    rows = describe_options(get_variant(variant_id))
    assert all(label and value for label, value in rows)
    text = "\n".join(f"{label}: {value}" for label, value in rows)
    assert "Card values" in text
    if variant_id == "ravaytys":
        assert "Deal 3: 4 sets, 12 cards each" in text
        assert "jokers and black twos" in text
        assert "may not continue each other" in text
    if variant_id == "rutupeli":
        assert "at most 3 buys" in text
    if variant_id == "gin_romi":
        assert "low only" in text
        assert "all suits different" in text
    changed = describe_options(get_variant(variant_id, min_run=5))
    assert changed != rows


@pytest.mark.parametrize(
    ("variant_id", "expected"),
    [
        ("ravaytys", ["Players: 3 to 6", "Cards: 2 decks and 4 jokers", "(A-2-3-4 or J-Q-K-A)"]),
        (
            "rutupeli",
            [
                "Cards: 2 decks, no jokers",
                "(A-2-3-4 or J-Q-K-A)",
                "Stock used up: after going through twice, the deal ends",
            ],
        ),
        ("gin_romi", ["Players: 2\n", "Cards: 1 deck, no jokers", "low only (A-2-3)"]),
        ("tizlapos_romi", ["Players: 2 to 6", "(A-2-3 or Q-K-A)"]),
    ],
)
def test_the_rules_list_reads_as_a_director_would_say_it(variant_id, expected) -> None:
    """No "2 to 2" players, no "0 jokers", an ace example as long as the game's shortest run
    (a contract game's run is 4 cards), and Rutupeli's stock ends a deal only after going
    through twice (docs/rules.md, the digest)."""
    rows = describe_options(get_variant(variant_id))
    text = "\n".join(f"{label}: {value}" for label, value in rows) + "\n"
    for words in expected:
        assert words in text
    assert "0 jokers" not in text


def test_best_arrangement_delegates_to_the_solver() -> None:
    from rules.notation import parse_cards

    v = get_variant("gin_romi")
    best = v.best_arrangement(parse_cards("AS 2S 3S 4H 5H 6H 7D 8D 9C KC"))
    assert best.deadwood == 7 + 8 + 9 + 10
    assert len(best.melds) == 2


# -- impossible options (each of these was accepted, or crashed, before) --------------------

HUGE = 10**5000  # more digits than Python turns into text


@pytest.mark.parametrize(
    ("variant_id", "options", "field"),
    [
        # A contract game needs its contracts.
        ("ravaytys", {"deals": []}, "deals"),
        ("rutupeli", {"deals": ()}, "deals"),
        ("ravaytys", {"deals": [], "cards_dealt": []}, "deals"),
        # A contract no hand of the deal could lay down: 10 sets of 3 in a hand of 25.
        ("ravaytys", {"deals": [{"sets": 10}], "cards_dealt": [11]}, "deals"),
        ("rutupeli", {"deals": [[0, 5]], "cards_dealt": [12]}, "deals"),
        ("ravaytys", {"deals": [{"sets": HUGE}], "cards_dealt": [11]}, "deals"),
        ("ravaytys", {"deals": [[1, 0]] * 21, "cards_dealt": [11] * 21}, "deals"),
        # Contracts belong to the contract games.
        ("gin_romi", {"deals": [{"sets": 2}], "cards_dealt": [10]}, "deals"),
        ("tizlapos_romi", {"deals": [{"sets": 2}], "cards_dealt": [10]}, "deals"),
        # The hand the entries read is ten cards.
        ("gin_romi", {"cards_dealt": [7]}, "cards_dealt"),
        ("tizlapos_romi", {"cards_dealt": [10, 10]}, "cards_dealt"),
        ("ravaytys", {"cards_dealt": [HUGE] * 8}, "cards_dealt"),
        # Targets and limits of zero or less.
        ("gin_romi", {"gin_target": 0}, "gin_target"),
        ("gin_romi", {"gin_target": HUGE}, "gin_target"),
        ("tizlapos_romi", {"tiz_elimination": 0}, "tiz_elimination"),
        ("tizlapos_romi", {"tiz_kis_buli_limit": 0}, "tiz_kis_buli_limit"),
        ("tizlapos_romi", {"tiz_kis_buli": True, "tiz_kis_buli_limit": 100}, "tiz_kis_buli_limit"),
        ("tizlapos_romi", {"tiz_knock_cards": []}, "tiz_knock_cards"),
        ("tizlapos_romi", {"tiz_knock_cards": [HUGE]}, "tiz_knock_cards"),
        # Negative or absurd penalties and counts.
        ("ravaytys", {"penalty_table": {"A": HUGE}}, "penalty_table"),
        ("ravaytys", {"penalty_table": {"JOKER": 10**9}}, "penalty_table"),
        ("ravaytys", {"ravaytys_bonus": HUGE}, "ravaytys_bonus"),
        ("tizlapos_romi", {"tiz_joker_penalty": 10**9}, "tiz_joker_penalty"),
        ("rutupeli", {"buy_cap": 1000}, "buy_cap"),
        ("ravaytys", {"decks": 1000}, "decks"),
        ("ravaytys", {"decks": HUGE}, "decks"),
        ("ravaytys", {"jokers": 1000}, "jokers"),
        ("ravaytys", {"max_players": 1000}, "max_players"),
        ("ravaytys", {"name": "x" * 1000}, "name"),
        # Gin Römi is a game for two.
        ("gin_romi", {"min_players": 3, "max_players": 3}, "min_players"),
        ("gin_romi", {"max_players": 4}, "max_players"),
        # One setting with two names must not say two things.
        (
            "tizlapos_romi",
            {"tiz_joker_penalty": 15, "penalty_table": {"JOKER": 30}},
            "tiz_joker_penalty",
        ),
        # Each game's settings are its own.
        ("ravaytys", {"tiz_joker_penalty": 5}, "tiz_joker_penalty"),
        ("rutupeli", {"gin_target": 100}, "gin_target"),
        ("gin_romi", {"tiz_elimination": 50}, "tiz_elimination"),
        ("tizlapos_romi", {"gin_spade_doubles": True}, "gin_spade_doubles"),
    ],
    ids=lambda v: "+".join(v) if isinstance(v, dict) else str(v),
)
def test_impossible_options_are_refused(
    variant_id: str, options: dict[str, object], field: str
) -> None:
    with pytest.raises(RuleViolation) as info:
        get_variant(variant_id, **options)
    assert info.value.code == "bad_option"
    assert info.value.field == field
    json.dumps(info.value.to_dict())
    assert len(info.value.message) < 300


def test_a_tizlapos_option_leaves_the_ravaytys_joker_alone() -> None:
    # The joker price of Tízlapos had two names, and the second one was read for every game.
    with pytest.raises(RuleViolation) as info:
        get_variant("ravaytys", tiz_joker_penalty=5)
    assert (info.value.code, info.value.field) == ("bad_option", "tiz_joker_penalty")
    # A variant stored with every setting (to_dict writes them all) keeps its own price.
    stored = get_variant("ravaytys").to_dict()
    stored["tiz_joker_penalty"] = 5
    del stored["penalty_table"]
    assert Variant.from_dict(stored).penalty_table["JOKER"] == 50
    assert Variant.from_dict(stored) == get_variant("ravaytys")
    # In Tízlapos the two names still are one setting.
    tiz = get_variant("tizlapos_romi", tiz_joker_penalty=15, penalty_table={"A": 11})
    assert (tiz.penalty_table["JOKER"], tiz.penalty_table["A"]) == (15, 11)
    assert Variant.from_dict(tiz.to_dict()) == tiz
