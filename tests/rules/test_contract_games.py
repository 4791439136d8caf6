"""Deal entries, deal scores and table standings for Räväytys and Rutupeli."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rules import (
    DealScore,
    RuleViolation,
    get_variant,
    parse_entry,
    score_deal,
    table_standing,
)
from rules.contract_games import ContractEntry, standing

RAV = get_variant("ravaytys")
RUT = get_variant("rutupeli")


def entry(out: int | None = 1, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "out": out,
        "players": [
            {"cards": "AS K 7H 7D", "points": None, "buys": 0},
            {"cards": "", "points": None, "buys": 1},
            {"cards": None, "points": 35, "buys": 0},
        ],
    }
    data.update(changes)
    return data


def test_one_player_out_everyone_else_scores_its_hand() -> None:
    score = score_deal(RAV, 4, entry())
    assert score.points == (40, 0, 35)
    assert score.flags["went_out"] == 1
    assert score.flags["ravaytys"] is False
    assert score.flags["stock_exhausted"] is False
    assert score.flags["buys"] == [0, 1, 0]
    assert score.flags["contract"] == "2 runs"
    json.dumps(score.flags)


def test_cards_given_as_lists_of_codes() -> None:
    data = entry()
    data["players"][0]["cards"] = ["AS", "KH", "7H", "7D"]
    assert score_deal(RAV, 4, data).points == (40, 0, 35)


def test_ravaytys_is_recorded() -> None:
    score = score_deal(RAV, 4, entry(ravaytys=True, laydown=["H3 H4 JK H6", "S7-10"]))
    assert score.flags["ravaytys"] is True
    assert score.points[1] == 0
    bonus = get_variant("ravaytys", ravaytys_bonus=10)
    assert score_deal(bonus, 4, entry(ravaytys=True)).points[1] == -10


def test_ravaytys_only_in_ravaytys() -> None:
    with pytest.raises(RuleViolation) as info:
        score_deal(RUT, 4, entry(ravaytys=True))
    assert info.value.field == "ravaytys"


def test_rutupeli_stock_exhausted_everyone_scores() -> None:
    data = entry(out=None)
    data["players"][1]["cards"] = "2 3"
    score = score_deal(RUT, 1, data)
    assert score.points == (40, 10, 35)
    assert score.flags["went_out"] is None
    assert score.flags["stock_exhausted"] is True


def test_ravaytys_deal_needs_a_player_out() -> None:
    data = entry(out=None)
    data["players"][1]["cards"] = "2H 3"
    with pytest.raises(RuleViolation) as info:
        score_deal(RAV, 1, data)
    assert info.value.field == "out"
    assert info.value.code == "out_missing"


def mutate(path: str, value: object) -> dict[str, Any]:
    data = copy.deepcopy(entry())
    target: Any = data
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    last = keys[-1]
    if value is KeyError:
        del target[last]
    elif last.isdigit():
        target[int(last)] = value
    else:
        target[last] = value
    return data


REFUSED = [
    # Who went out.
    ("out", 3, "bad_seat", "out"),
    ("out", -1, "bad_seat", "out"),
    ("out", "1", "bad_seat", "out"),
    ("out", True, "bad_seat", "out"),
    ("out", KeyError, "out_missing", "out"),
    # The player out has nothing left.
    ("players.1.cards", "7H", "out_has_cards", "players.1.cards"),
    ("players.1.points", 5, "out_has_cards", "players.1.points"),
    # Everyone else must have something, and a plausible something.
    ("players.0.cards", None, "penalty_missing", "players.0.cards"),
    ("players.0.cards", "", "empty_hand", "players.0.cards"),
    ("players.0.cards", "AS ZZ", "bad_token", "players.0.cards"),
    ("players.0.cards", "AS 2", "bad_token", "players.0.cards"),
    ("players.0.cards", "2S " * 14, "too_many_cards", "players.0.cards"),
    ("players.2.points", -5, "bad_points", "players.2.points"),
    ("players.2.points", 2.5, "bad_points", "players.2.points"),
    ("players.2.points", "35", "bad_points", "players.2.points"),
    ("players.2.points", 0, "implausible_points", "players.2.points"),
    ("players.2.points", 33, "implausible_points", "players.2.points"),
    ("players.2.points", 50 * 13, "implausible_points", "players.2.points"),
    # Buys.
    ("players.0.buys", -1, "bad_buys", "players.0.buys"),
    ("players.0.buys", "two", "bad_buys", "players.0.buys"),
    # Shape.
    ("players", [], "player_count", "players"),
    ("players", "AS", "bad_entry", "players"),
    ("players.0", "AS", "bad_entry", "players.0"),
    ("players.0.colour", "red", "bad_entry", "players.0.colour"),
    ("score", 5, "bad_entry", "score"),
    ("laydown", "H3 H4", "bad_entry", "laydown"),
    # The laydown, when given, is checked against the deal's contract.
    ("laydown", ["♠5-8", "♠9-Q"], "runs_continue", "laydown.1"),
    ("laydown", ["♠5-8"], "contract_count", "laydown"),
    ("laydown", ["♠5-8", "ZZ"], "bad_token", "laydown.1"),
    # ... and its cards count with the hands' cards.
    ("laydown", ["♠5-8", "♥7 ♥8 ♥9 ♥10"], "too_many_copies", "laydown.1"),
]


@pytest.mark.parametrize(("path", "value", "code", "field"), REFUSED)
def test_refusals_point_at_the_field(path: str, value: object, code: str, field: str) -> None:
    data = mutate(path, value)
    if path.startswith("laydown") and code == "too_many_copies":
        data["players"][0]["cards"] = "♥7 ♥7 K"
    with pytest.raises(RuleViolation) as info:
        score_deal(RAV, 4, data)
    assert info.value.code == code
    assert info.value.field == field
    assert "%(" not in str(info.value)


def test_buy_cap_in_rutupeli() -> None:
    data = entry()
    data["players"][0]["buys"] = 3
    data["players"][0]["cards"] = "AS K 7H 7D"
    assert score_deal(RUT, 1, data).flags["buys"] == [3, 1, 0]
    data["players"][0]["buys"] = 4
    with pytest.raises(RuleViolation) as info:
        score_deal(RUT, 1, data)
    assert info.value.code == "too_many_buys"
    assert info.value.field == "players.0.buys"
    # Räväytys has no cap.
    assert score_deal(RAV, 1, data).points[0] == 40


def test_buys_make_room_for_more_cards() -> None:
    data = entry()
    data["players"][0]["cards"] = "2H 3H 4H 5H 6H 7H 8H 9H 2D 3D 4D 5D 6D"
    with pytest.raises(RuleViolation):
        score_deal(RAV, 1, data)
    data["players"][0]["buys"] = 1
    assert score_deal(RAV, 1, data).points[0] == 65


def test_cards_and_points_must_agree() -> None:
    data = entry()
    data["players"][0]["points"] = 40
    assert score_deal(RAV, 4, data).points[0] == 40
    data["players"][0]["points"] = 45
    with pytest.raises(RuleViolation) as info:
        score_deal(RAV, 4, data)
    assert info.value.code == "points_mismatch"
    assert "worth 40, not 45" in str(info.value)


def test_points_entry_can_be_switched_off() -> None:
    strict = get_variant("rutupeli", allow_points_entry=False)
    with pytest.raises(RuleViolation) as info:
        score_deal(strict, 1, entry())
    assert info.value.code == "points_not_allowed"
    assert info.value.field == "players.2.points"


def test_laydown_can_be_required() -> None:
    strict = get_variant("ravaytys", require_laydown=True)
    with pytest.raises(RuleViolation) as info:
        score_deal(strict, 4, entry())
    assert info.value.code == "laydown_required"
    assert score_deal(strict, 4, entry(laydown=["H3 H4 JK H6", "S7 S8 S9 S10"])).points


def test_laydown_without_anyone_out() -> None:
    data = entry(out=None, laydown=["♠5-8", "♥5-8"])
    data["players"][1]["cards"] = "2 3"
    with pytest.raises(RuleViolation) as info:
        score_deal(RUT, 3, data)
    assert info.value.field == "laydown"


def test_deal_number_must_exist() -> None:
    with pytest.raises(RuleViolation) as info:
        score_deal(RUT, 8, entry())
    assert info.value.code == "bad_deal"


def test_parse_entry_returns_the_typed_entry() -> None:
    parsed = parse_entry(RAV, 4, entry())
    assert isinstance(parsed, ContractEntry)
    assert parsed.out == 1
    assert parsed.players[2].points == 35
    hand = parsed.players[0].hand
    assert hand is not None
    assert len(hand) == 4


# -- standings ---------------------------------------------------------------------------------


def deal(points: tuple[int, ...], out: int | None, ravaytys: bool = False) -> DealScore:
    return DealScore(points=points, flags={"went_out": out, "ravaytys": ravaytys})


def test_lowest_total_wins_after_all_deals() -> None:
    deals = [deal((0, 20, 30), 0, ravaytys=True)] * 7 + [deal((10, 0, 5), 1)]
    table = table_standing(RAV, 3, deals)
    assert table.totals == (10, 140, 215)
    assert table.lower_is_better
    assert table.finished
    assert table.ranking == (0, 1, 2)
    assert table.winner == 0
    assert table.extra["deals_won"] == [7, 1, 0]
    assert table.extra["ravaytys"] == [7, 0, 0]
    json.dumps(table.extra)


def test_not_finished_before_the_last_deal() -> None:
    table = table_standing(RUT, 3, [deal((0, 20, 30), 0)] * 6)
    assert not table.finished
    assert table.winner is None
    assert table_standing(RUT, 3, [deal((0, 20, 30), 0)] * 7).finished


def test_too_many_deals() -> None:
    with pytest.raises(RuleViolation) as info:
        table_standing(RUT, 3, [deal((0, 20, 30), 0)] * 8)
    assert info.value.code == "too_many_deals"


def test_tie_fewer_points_in_the_last_game_first() -> None:
    deals = [deal((10, 0, 30), 1)] * 6 + [deal((0, 60, 30), 0)]
    table = standing(RUT, 3, deals)
    assert table.totals[:2] == (60, 60)
    assert table.ranking[:2] == (0, 1)
    assert table.winner == 0
    assert table.extra["tie_unresolved"] == []


def test_tie_then_more_games_won() -> None:
    # Equal totals and equal last game; seat 1 went out more often.
    deals = [deal((10, 0, 40), 1)] * 2 + [deal((0, 20, 40), 0), deal((5, 5, 0), 2)]
    table = standing(RUT, 3, deals)
    assert table.totals[0] == table.totals[1] == 25
    assert table.extra["deals_won"] == [1, 2, 1]
    assert table.ranking[:2] == (1, 0)
    assert table.winner is None  # four games of seven played


def test_tie_unresolved_falls_to_seat_order_and_is_reported() -> None:
    deals = [deal((10, 0, 40), 1), deal((0, 10, 40), 0)] * 3 + [deal((5, 5, 0), 2)]
    table = standing(RUT, 3, deals)
    assert table.totals[0] == table.totals[1]
    assert table.ranking[:2] == (0, 1)
    assert table.extra["tie_unresolved"] == [[0, 1]]
    # Level at the top after the whole tie order: no winner by seat order, the director
    # settles it.
    assert table.finished and table.winner is None


def test_a_tie_below_the_top_leaves_the_winner() -> None:
    deals = [deal((0, 10, 10), 0)] * 7
    table = standing(RUT, 3, deals)
    assert table.extra["tie_unresolved"] == [[1, 2]]
    assert table.winner == 0


def test_tie_order_is_an_option() -> None:
    only_seat = get_variant("rutupeli", tie_order=["seat"])
    deals = [deal((10, 0, 40), 1)] * 2 + [deal((0, 20, 40), 0), deal((5, 5, 0), 2)]
    assert standing(RUT, 3, deals).ranking[:2] == (1, 0)
    table = standing(only_seat, 3, deals)
    assert table.ranking[:2] == (0, 1)
    assert table.extra["tie_unresolved"] == [[0, 1]]


def test_scores_and_standing_together() -> None:
    scores = []
    for number in range(1, 8):
        data = entry(out=number % 3)
        for seat, player in enumerate(data["players"]):
            if seat == number % 3:
                player.update(cards="", points=None)
            else:
                player.update(cards="AS 5H", points=None)
        scores.append(score_deal(RUT, number, data))
    table = table_standing(RUT, 3, scores)
    assert table.finished
    assert sum(table.totals) == 7 * 2 * 25
    assert table.winner == table.ranking[0]


# -- the game's defaults (RULES.md's (D)) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("variant_id", "field", "value"),
    [
        ("ravaytys", "min_run", 4),
        ("rutupeli", "min_run", 4),
        ("ravaytys", "min_set", 3),
        ("rutupeli", "min_set", 3),
        ("ravaytys", "max_set", None),
        ("ravaytys", "set_suits_distinct", False),
        ("ravaytys", "ace_low", True),
        ("ravaytys", "ace_high", True),
        ("rutupeli", "ace_high", True),
        ("ravaytys", "wild_jokers", True),
        ("ravaytys", "wild_black_twos", True),
        ("rutupeli", "wild_jokers", False),
        ("rutupeli", "wild_black_twos", False),
        ("ravaytys", "max_wild_ratio_half", True),
        ("ravaytys", "buy_cap", None),
        ("ravaytys", "runs_must_not_continue", True),
        ("ravaytys", "ravaytys_bonus", 0),
        ("ravaytys", "stock_out_ends_deal", False),
    ],
)
def test_defaults(variant_id: str, field: str, value: object) -> None:
    assert getattr(get_variant(variant_id), field) == value


@pytest.mark.parametrize(
    ("variant_id", "table"),
    [
        ("rutupeli", {"A": 20, "2": 5, "9": 5, "10": 10, "J": 10, "Q": 10, "K": 10}),
        (
            "ravaytys",
            {"A": 20, "2": 5, "5": 5, "9": 5, "10": 10, "K": 10, "JOKER": 50, "BLACK_TWO": 20},
        ),
    ],
)
def test_penalty_table(variant_id: str, table: dict[str, int]) -> None:
    v = get_variant(variant_id)
    for key, points in table.items():
        assert v.penalty_table[key] == points
