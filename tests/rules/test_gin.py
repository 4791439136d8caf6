"""Gin Römi, statement by statement from RULES.md (seed 002, first part)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from rules import gin
from rules.errors import RuleViolation
from rules.notation import parse_cards
from rules.results import DealScore
from rules.variants import Variant, get_variant

GIN = get_variant("gin_romi")
SPADES_DOUBLE = get_variant("gin_romi", gin_spade_doubles=True)

# Seat 0 knocks with ♣2 left (2 points): A-2-3♠, 4-5-6♥, 7-8-9♦.
KNOCKER = "AS 2S 3S 4H 5H 6H 7D 8D 9D 2C"
# Seat 1: K-K-K and 10-J-Q♣ melded; ♠5 ♣5 ♥9 ♦3 loose (22); nothing to lay off.
PLAIN = "KS KH KD QC JC 10C 5S 5C 9H 3D"
# Seat 1 again, but ♠4, ♥3 and ♦10 lay off onto the knocker's three runs.
LAYS_ALL = "KS KH KD QC JC 10C 4S 3H 10D 9C"
# Seat 0 with every card melded (7-8-9-10♦).
ROMI = "AS 2S 3S 4H 5H 6H 7D 8D 9D 10D"
# Seat 0 with ♦5 left (5 points).
FIVE_LEFT = "AS 2S 3S 4H 5H 6H 7D 8D 9D 5D"


def entry(**overrides: object) -> dict[str, object]:
    data: dict[str, object] = {
        "ending": "knock",
        "by": 0,
        "upper": "7H",
        "hands": [KNOCKER, PLAIN],
        "deadwood": None,
    }
    data.update(overrides)
    return data


def score(data: Mapping[str, object], variant: Variant = GIN) -> DealScore:
    return gin.score_deal(variant, gin.parse_entry(variant, 1, data))


def refused(data: Mapping[str, object], variant: Variant = GIN) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        score(data, variant)
    return info.value


# -- scoring table: (statement, entry, points per seat) ---------------------------------------

SCORES = [
    # "knocker wins: it scores opponent deadwood − knocker deadwood" (22 - 2)
    ("knock scores the difference", entry(), (20, 0)),
    ("knock by seat 1", entry(by=1, hands=[PLAIN, KNOCKER]), (0, 20)),
    # values: A = 1, J/Q/K = 10, others face value; suits have no value
    ("deadwood counts face values", entry(hands=[KNOCKER, "KS KH KD QC JC 10C AH AC 9H 3D"]), None),
    # "undercut: opponent deadwood ≤ knocker deadwood: the opponent scores the difference + 25"
    ("undercut after lay-offs", entry(hands=[KNOCKER, LAYS_ALL]), (0, 2 - 0 + 25)),
    ("undercut from counts", entry(hands=None, deadwood=[6, 4]), (0, 2 + 25)),
    # "an equal count also goes to the opponent"
    ("equal count is an undercut", entry(hands=None, deadwood=[5, 5]), (0, 25)),
    ("knock from counts", entry(hands=None, deadwood=[3, 40]), (37, 0)),
    # knock limit: deadwood no more than the upper card's value (10 for a face card)
    ("knock at exactly the limit", entry(upper="2D", hands=None, deadwood=[2, 9]), (7, 0)),
    ("face upper card allows ten", entry(upper="QD", hands=None, deadwood=[10, 30]), (20, 0)),
    # römi: 25 + opponent's deadwood
    ("römi", entry(ending="romi", hands=[ROMI, PLAIN]), (25 + 22, 0)),
    ("römi from counts", entry(ending="romi", hands=None, deadwood=[0, 31]), (56, 0)),
    ("römi by seat 1", entry(ending="romi", by=1, hands=[PLAIN, ROMI]), (0, 47)),
    # "The opponent may then only lay down its own melds, no lay-offs": ♠4 ♥3 ♦10 stay.
    (
        "no lay-offs after römi",
        entry(ending="romi", hands=[ROMI, "KS KH KD QC JC 10C 4S 3H JD 9C"]),
        (25 + 4 + 3 + 10, 0),
    ),
    # an ace upper card forbids knocking, not römi
    ("römi under an ace", entry(ending="romi", upper="AC", hands=[ROMI, PLAIN]), (47, 0)),
    ("römi needs no upper card", entry(ending="romi", upper=None, hands=[ROMI, PLAIN]), (47, 0)),
    # "the stock down to its last two cards with no end: the deal is void, nobody scores"
    ("void deal", entry(ending="void", by=None, hands=None), (0, 0)),
    ("void deal with hands", entry(ending="void", by=None), (0, 0)),
]


@pytest.mark.parametrize(("data", "points"), [pytest.param(d, p, id=i) for i, d, p in SCORES])
def test_scores(data: dict[str, object], points: tuple[int, int] | None) -> None:
    result = score(data)
    if points is None:  # the face-value case checks the count itself
        assert result.flags["deadwood"] == [2, 1 + 1 + 9 + 3]
        assert result.points == (12, 0)
    else:
        assert result.points == points


def test_flags_say_who_won_and_how() -> None:
    flags = score(entry(hands=[KNOCKER, LAYS_ALL])).flags
    assert flags["ending"] == "knock"
    assert flags["by"] == 0
    assert flags["winner"] == 1
    assert flags["undercut"] is True
    assert flags["deadwood"] == [2, 0]
    assert flags["layoffs"] == ["4S", "3H", "10D"]
    assert flags["limit"] == 7
    assert flags["upper"] == "7H"


# -- the spade house rule ---------------------------------------------------------------------

SPADES = [
    ("off by default", GIN, entry(upper="7S"), (20, 0), False),
    ("knock doubled", SPADES_DOUBLE, entry(upper="7S"), (40, 0), True),
    (
        "undercut doubled",
        SPADES_DOUBLE,
        entry(upper="7S", hands=[KNOCKER, LAYS_ALL]),
        (0, 54),
        True,
    ),
    (
        "römi doubled",
        SPADES_DOUBLE,
        entry(ending="romi", upper="9S", hands=[ROMI, PLAIN]),
        (94, 0),
        True,
    ),
    ("other suits not doubled", SPADES_DOUBLE, entry(upper="7C"), (20, 0), False),
]


@pytest.mark.parametrize(
    ("variant", "data", "points", "doubled"),
    [pytest.param(v, d, p, x, id=i) for i, v, d, p, x in SPADES],
)
def test_spade_upper_card_doubles_when_agreed(
    variant: Variant, data: dict[str, object], points: tuple[int, int], doubled: bool
) -> None:
    result = score(data, variant)
    assert result.points == points
    assert result.flags["doubled"] is doubled


# -- lay-offs ---------------------------------------------------------------------------------


def test_lay_offs_chain_along_a_run() -> None:
    # ♦10 then ♦J extend 7-8-9♦; ♦Q would too, but it is melded in Q-Q-Q, which is better.
    opponent = "10D JD QD QS QH 4C 6C 8C KS 5D"
    result = score(entry(hands=[KNOCKER, opponent]))
    assert result.flags["layoffs"] == ["10D", "JD"]
    assert result.flags["deadwood"] == [2, 4 + 6 + 8 + 10 + 5]


def test_lay_off_onto_a_set() -> None:
    # The knocker's 7-7-7 takes the opponent's ♣7. (The opponent holds the upper card ♥2,
    # taken at the start.)
    knocker = "7S 7H 7D 2C 3C 4C 9H 10H JH AD"
    opponent = "7C KS KH KD QS JS 5D 6D 8S 2H"
    result = score(entry(upper="2H", hands=[knocker, opponent]))
    assert result.flags["layoffs"] == ["7C"]
    # K-K-K or J-Q-K♠ melds 30 either way; 20 + 5 + 6 + 8 + 2 stay.
    assert result.flags["deadwood"] == [1, 41]
    assert result.points == (40, 0)


def test_opponent_may_prefer_its_own_meld_to_a_lay_off() -> None:
    # ♣8 could lay off onto 5-6-7♣, but in 8-8-8 it saves ♥8 and ♦8 too.
    knocker = "5C 6C 7C AS 2S 3S 4D 5D 6D KH"
    opponent = "8C 8H 8D 9S 9H QS QH JD 4H 2C"
    result = score(entry(upper="KD", hands=[knocker, opponent]))
    assert result.flags["layoffs"] == []
    assert result.flags["deadwood"] == [10, 9 + 9 + 10 + 10 + 10 + 4 + 2]


def test_knocker_lays_down_the_melds_that_leave_the_opponent_most() -> None:
    # A♠ 2♠ 3♠ 2♥ 2♦: the run leaves ♥2 ♦2 (4), the set leaves ♠A ♠3 (4). With the run the
    # opponent would lay off ♠4; with the set only ♣2. The knocker lays the set.
    knocker = "AS 2S 3S 2H 2D 7C 8C 9C 10C JC"
    opponent = "4S 2C KS KH KD QH QD QS 9H 8D"
    result = score(entry(upper="5H", hands=[knocker, opponent]))
    assert result.flags["layoffs"] == ["2C"]
    assert result.flags["deadwood"] == [4, 4 + 9 + 8]
    assert result.points == (17, 0)


def test_lay_off_function_reports_both_sides() -> None:
    outcome = gin.lay_off(GIN, parse_cards(KNOCKER), parse_cards(LAYS_ALL))
    assert outcome.knocker.deadwood == 2
    assert outcome.opponent.deadwood == 0
    assert sorted(c.code for c in outcome.laid_off) == ["10D", "3H", "4S"]


# -- the best arrangement, not the one typed ---------------------------------------------------


def test_engine_finds_the_best_melds_and_notes_a_wrong_count() -> None:
    # ♠7 fits both 7-7-7 and 5-6-7-8♠; the best takes ♥7 ♦7 ♣7 and the whole run, leaving
    # ♥A ♦2 ♣3 (6). The player typed 14.
    knocker = "5S 6S 7S 8S 7H 7D 7C AH 2D 3C"
    opponent = "KS KH KD QC JC 10C 4H 5C 10H 3D"
    result = score(entry(upper="9H", hands=[knocker, opponent], deadwood=[14, 22]))
    assert result.flags["deadwood"] == [6, 22]
    assert result.flags["entered_deadwood"] == [14, 22]
    assert result.points == (16, 0)


# -- refusals ----------------------------------------------------------------------------------

REFUSALS = [
    # knock limit: deadwood no more than the upper card's value
    (
        "over the limit from cards",
        entry(upper="4C", hands=[FIVE_LEFT, PLAIN]),
        "knock_over_limit",
        "hands.0",
    ),
    (
        "over the limit by seat 1",
        entry(by=1, upper="4C", hands=[PLAIN, FIVE_LEFT]),
        "knock_over_limit",
        "hands.1",
    ),
    (
        "over the limit from counts",
        entry(hands=None, deadwood=[8, 20]),
        "knock_over_limit",
        "deadwood.0",
    ),
    # "an ace as upper card forbids knocking"
    ("ace upper card forbids knocking", entry(upper="AD"), "ace_upper", "ending"),
    (
        "ace forbids even from counts",
        entry(upper="AD", hands=None, deadwood=[0, 9]),
        "ace_upper",
        "ending",
    ),
    # "Römi (gin): all 10 cards in melds"
    ("knock with all melded", entry(hands=[ROMI, PLAIN]), "knock_is_romi", "ending"),
    ("knock with zero from counts", entry(hands=None, deadwood=[0, 20]), "knock_is_romi", "ending"),
    ("römi with cards left", entry(ending="romi"), "not_romi", "hands.0"),
    (
        "römi with deadwood",
        entry(ending="romi", hands=None, deadwood=[3, 9]),
        "not_romi",
        "deadwood.0",
    ),
    # the upper card is the 21st card, turned up
    ("no upper card on a knock", entry(upper=None), "upper_missing", "upper"),
    ("two upper cards", entry(upper="7H 8H"), "bad_token", "upper"),
    ("bad upper card", entry(upper="7Z"), "bad_token", "upper"),
    # 52 cards: no jokers, one copy of each card
    ("joker upper card", entry(upper="JK"), "no_jokers", "upper"),
    (
        "a card twice across hands",
        entry(hands=[KNOCKER, "2C KH KD QC JC 10C 5S 5C 9H 3D"]),
        "too_many_copies",
        "hands.1",
    ),
    (
        "a card twice in a hand",
        entry(hands=[KNOCKER, "KS KS KD QC JC 10C 5S 5C 9H 3D"]),
        "too_many_copies",
        "hands.1",
    ),
    (
        "a joker in a hand",
        entry(hands=[KNOCKER, "JK KH KD QC JC 10C 5S 5C 9H 3D"]),
        "no_jokers",
        "hands.1",
    ),
    # 10 cards each
    ("nine cards", entry(hands=[KNOCKER, "KS KH KD QC JC 10C 5S 5C 9H"]), "hand_size", "hands.1"),
    ("eleven cards", entry(hands=[KNOCKER + " KC", PLAIN]), "hand_size", "hands.0"),
    # the shape of an entry
    (
        "bad card text",
        entry(hands=[KNOCKER, "KS KH KD QC JC 10C 5S 5C 9H 3Q"]),
        "bad_token",
        "hands.1",
    ),
    ("bad ending", entry(ending="gin"), "bad_ending", "ending"),
    ("nobody knocked", entry(by=None), "by_missing", "by"),
    ("seat out of range", entry(by=2), "bad_seat", "by"),
    ("seat not a number", entry(by="1"), "bad_seat", "by"),
    ("neither hands nor counts", entry(hands=None), "hands_missing", "hands"),
    ("one hand only", entry(hands=[KNOCKER]), "bad_entry", "hands"),
    ("a hand missing", entry(hands=[KNOCKER, None]), "hands_missing", "hands.1"),
    ("negative deadwood", entry(hands=None, deadwood=[2, -1]), "bad_points", "deadwood.1"),
    ("deadwood not a number", entry(hands=None, deadwood=[2, "x"]), "bad_points", "deadwood.1"),
    # a hand not entered yet is asked for, not called a bad number ("None")
    ("a count missing", entry(hands=None, deadwood=[None, 7]), "deadwood_missing", "deadwood.0"),
    (
        "impossible deadwood",
        entry(hands=None, deadwood=[2, 101]),
        "implausible_points",
        "deadwood.1",
    ),
    ("one deadwood count", entry(hands=None, deadwood=[2]), "bad_entry", "deadwood"),
    ("unknown key", {**entry(), "winner": 0}, "bad_entry", "winner"),
]


@pytest.mark.parametrize(
    ("data", "code", "field"), [pytest.param(d, c, f, id=i) for i, d, c, f in REFUSALS]
)
def test_refusals(data: dict[str, object], code: str, field: str) -> None:
    err = refused(data)
    assert (err.code, err.field) == (code, field)
    # Every refusal reads as a sentence with its placeholders filled.
    assert "%(" not in str(err)


def test_a_hand_not_entered_yet_is_asked_for_by_seat() -> None:
    err = refused(entry(hands=None, deadwood=[4, None]))
    assert str(err) == "Enter seat 2's ten cards or deadwood points."
    assert "None" not in str(err)


def test_upper_card_is_needed_for_a_römi_only_when_spades_double() -> None:
    err = refused(entry(ending="romi", upper=None, hands=[ROMI, PLAIN]), SPADES_DOUBLE)
    assert (err.code, err.field) == ("upper_missing", "upper")


def test_knock_refusal_says_why_in_a_players_words() -> None:
    err = refused(entry(upper="2H", hands=None, deadwood=[7, 20]))
    assert str(err) == "Seat 1 cannot knock with 7 points: the upper card ♥2 allows at most 2."
    err = refused(entry(upper="4C", hands=[FIVE_LEFT, PLAIN]))
    assert str(err) == (
        "Seat 1 cannot knock with 5 points (♦5): the upper card ♣4 allows at most 4."
    )
    assert err.params == {"seat": 1, "points": 5, "cards": "♦5", "upper": "♣4", "limit": 4}


def test_upper_card_may_have_been_taken_into_a_hand() -> None:
    # The non-dealer may take the upper card at the start; it can end in a hand.
    assert score(entry(upper="2C")).points == (20, 0)


def test_cards_may_be_given_as_lists_of_codes() -> None:
    data = entry(hands=[KNOCKER.split(), PLAIN.split()])
    assert score(data).points == (20, 0)


def test_other_notations_are_read() -> None:
    data = entry(hands=["A♠ 2♠ 3♠ ♥4 ♥5 ♥6 7D 8D 9D 2C", PLAIN], upper="♥7")
    assert score(data).points == (20, 0)


# -- the game to 150 and its settlement ----------------------------------------------------------


def deal(points: tuple[int, int], winner: int | None) -> DealScore:
    return DealScore(points=points, flags={"winner": winner})


def test_running_totals_and_ranking_before_the_end() -> None:
    result = gin.standing(GIN, 2, [deal((20, 0), 0), deal((0, 47), 1), deal((0, 0), None)])
    assert result.totals == (20, 47)
    assert result.lower_is_better is False
    assert result.finished is False
    assert result.winner is None
    assert result.ranking == (1, 0)
    assert result.extra["deals_won"] == [1, 1]
    assert result.extra["settlement"] is None


def test_game_ends_at_150_with_the_settlement() -> None:
    deals = [deal((0, 50), 1), deal((80, 0), 0), deal((90, 0), 0)]
    result = gin.standing(GIN, 2, deals)
    assert result.finished is True
    assert result.winner == 0
    assert result.totals == (170, 50)
    settlement = result.extra["settlement"]
    assert settlement == {
        "points": [170, 50],
        "deal_bonus": [50, 25],
        "game_bonus": [150, 0],
        "shutout_bonus": [0, 0],
        "final": [370, 75],
        "winner": 0,
        "result": 295,
    }


def test_shutout_doubles_the_game_bonus() -> None:
    deals = [deal((100, 0), 0), deal((0, 0), None), deal((60, 0), 0)]
    settlement = gin.standing(GIN, 2, deals).extra["settlement"]
    assert isinstance(settlement, dict)
    assert settlement["shutout_bonus"] == [150, 0]
    assert settlement["result"] == 160 + 50 + 150 + 150


def test_reaching_exactly_the_target_ends_the_game() -> None:
    result = gin.standing(GIN, 2, [deal((0, 149), 1), deal((0, 1), 1)])
    assert result.finished and result.winner == 1


def test_no_deal_after_the_game_ended() -> None:
    with pytest.raises(RuleViolation) as info:
        gin.standing(GIN, 2, [deal((150, 0), 0), deal((10, 0), 0)])
    assert info.value.code == "game_over"


def test_target_is_a_club_setting() -> None:
    short = get_variant("gin_romi", gin_target=100)
    assert gin.standing(short, 2, [deal((100, 0), 0)]).finished


def test_only_two_seats() -> None:
    with pytest.raises(RuleViolation) as info:
        gin.standing(GIN, 3, [])
    assert info.value.code == "player_count"


def test_whole_deals_through_the_standing() -> None:
    deals = [
        score(entry()),
        score(entry(hands=[KNOCKER, LAYS_ALL])),
        score(entry(ending="void", by=None)),
    ]
    result = gin.standing(GIN, 2, deals)
    assert result.totals == (20, 27)
    assert result.extra["deals_won"] == [1, 1]


# -- the game's defaults (RULES.md's (D)) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("variant_id", "field", "value"),
    [
        ("gin_romi", "min_run", 3),
        ("gin_romi", "max_set", 4),
        ("gin_romi", "set_suits_distinct", True),
        ("gin_romi", "ace_low", True),
        ("gin_romi", "ace_high", False),
        ("gin_romi", "wild_jokers", False),
        ("gin_romi", "decks", 1),
        ("gin_romi", "jokers", 0),
        ("gin_romi", "max_players", 2),
        ("gin_romi", "gin_target", 150),
        ("gin_romi", "gin_bonus_undercut", 25),
        ("gin_romi", "gin_bonus_romi", 25),
        ("gin_romi", "gin_settle_per_deal", 25),
        ("gin_romi", "gin_settle_game", 150),
        ("gin_romi", "gin_settle_shutout", 150),
        ("gin_romi", "gin_spade_doubles", False),
    ],
)
def test_defaults(variant_id: str, field: str, value: object) -> None:
    assert getattr(get_variant(variant_id), field) == value


@pytest.mark.parametrize(
    ("variant_id", "table"),
    [
        ("gin_romi", {"A": 1, "2": 2, "7": 7, "10": 10, "J": 10, "Q": 10, "K": 10}),
    ],
)
def test_penalty_table(variant_id: str, table: dict[str, int]) -> None:
    v = get_variant(variant_id)
    for key, points in table.items():
        assert v.penalty_table[key] == points
