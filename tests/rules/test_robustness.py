"""``score_deal`` and ``table_standing`` take whatever the site hands them.

An entry is what was posted; deal scores are what the database holds. Either may be of any
shape, so anything wrong is a :class:`RuleViolation` (shown to a person, or to the director
as "deal N cannot be scored: ..."), never a ``TypeError`` or an internal ``RulesError``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import DealScore, RuleViolation, get_variant, score_deal, table_standing
from rules.games import option_names
from rules.variants import VARIANT_IDS, Variant

RAV = get_variant("ravaytys")
RUT = get_variant("rutupeli")
GIN = get_variant("gin_romi")
TIZ = get_variant("tizlapos_romi")
VARIANTS = {"ravaytys": RAV, "rutupeli": RUT, "gin_romi": GIN, "tizlapos_romi": TIZ}
HUGE = 10**5000  # more digits than Python will turn into text
DEEP: list[object] = []
for _ in range(10_000):
    DEEP = [DEEP]

# A valid entry per variant, to be spoilt one field at a time.
GOOD: dict[str, dict[str, Any]] = {
    "ravaytys": {
        "out": 1,
        "players": [
            {"cards": "AS K 7H 7D", "points": None, "buys": 0},
            {"cards": "", "points": None, "buys": 1},
            {"cards": None, "points": 35, "buys": 0},
        ],
    },
    "rutupeli": {
        "out": None,
        "players": [{"cards": "AS", "buys": 0}, {"points": 10, "buys": 3}],
    },
    "gin_romi": {"ending": "knock", "by": 0, "upper": "7H", "deadwood": [5, 20]},
    "tizlapos_romi": {
        "winner": 0,
        "ending": "knock",
        "knock_card": "2H",
        "players": [{}, {"points": 12}, {"cards": "2S 2H 7S 8D KH KD QC 3S 6D 10C"}],
    },
}


def answers(call: Callable[[], object]) -> RuleViolation | None:
    """None if the call answered; the violation if it refused. Anything else fails."""
    try:
        call()
    except RuleViolation as err:
        # The violation itself must be showable and storable.
        assert isinstance(err.message, str)
        json.dumps(err.to_dict())
        assert err.code
        return err
    return None


# -- score_deal: wrong types, one at a time -------------------------------------------------

BAD_NUMBERS: list[object] = [True, False, 1.0, "1", None, [1], {"n": 1}, HUGE, -HUGE, 0, -1, 10**6]


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_a_bad_deal_number_is_refused(variant_id: str) -> None:
    v = VARIANTS[variant_id]
    for number in BAD_NUMBERS:
        err = answers(lambda number=number: score_deal(v, cast(int, number), GOOD[variant_id]))
        assert err is not None, number
        assert (err.code, err.field) == ("bad_deal", "deal"), number


SPOILERS: list[object] = [HUGE, -HUGE, DEEP, {"a": DEEP}, 1.5, float("nan"), "x" * 5000, True, []]


def _spoilt(entry: object, path: tuple[object, ...], value: object) -> object:
    if not path:
        return value
    head, *rest = path
    if isinstance(entry, dict):
        copy = dict(entry)
        copy[head] = _spoilt(entry.get(head), tuple(rest), value)
        return copy
    assert isinstance(entry, list) and isinstance(head, int)
    items = list(entry)
    items[head] = _spoilt(items[head], tuple(rest), value)
    return items


PATHS: dict[str, list[tuple[object, ...]]] = {
    "ravaytys": [
        ("out",),
        ("ravaytys",),
        ("laydown",),
        ("laydown_extra",),
        ("players",),
        ("players", 0),
        ("players", 0, "cards"),
        ("players", 0, "points"),
        ("players", 0, "buys"),
        ("players", 2, "points"),
    ],
    "rutupeli": [("out",), ("players", 1, "buys"), ("players", 1, "points")],
    "gin_romi": [
        ("ending",),
        ("by",),
        ("upper",),
        ("hands",),
        ("deadwood",),
        ("deadwood", 0),
        ("deadwood", 1),
    ],
    "tizlapos_romi": [
        ("winner",),
        ("ending",),
        ("knock_card",),
        ("players", 0),
        ("players", 1, "points"),
        ("players", 1, "special"),
        ("players", 1, "drop_out"),
        ("players", 2, "cards"),
        ("players", 2, "reenter"),
    ],
}


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_a_nested_value_of_any_type_is_refused_or_read(variant_id: str) -> None:
    v = VARIANTS[variant_id]
    for path in PATHS[variant_id]:
        for value in SPOILERS:
            entry = _spoilt(GOOD[variant_id], path, value)
            answers(lambda entry=entry: score_deal(v, 1, cast(Any, entry)))


def test_a_huge_number_is_quoted_shortly() -> None:
    entry = _spoilt(GOOD["ravaytys"], ("players", 2, "points"), HUGE)
    err = answers(lambda: score_deal(RAV, 1, cast(Any, entry)))
    assert err is not None
    assert err.code == "bad_points"
    assert len(str(err.params["token"])) <= 40
    entry = _spoilt(GOOD["ravaytys"], ("out",), "x" * 5000)
    err = answers(lambda: score_deal(RAV, 1, cast(Any, entry)))
    assert err is not None
    assert err.code == "bad_seat"
    assert len(err.message) < 200


# -- table_standing: wrong types ------------------------------------------------------------


BAD_SEATS: list[object] = [True, 2.0, "3", None, [3], HUGE, -HUGE, -1, 0, 1, 7, 100]


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_bad_seats_are_refused(variant_id: str) -> None:
    v = VARIANTS[variant_id]
    for seats in BAD_SEATS:
        err = answers(lambda seats=seats: table_standing(v, cast(int, seats), []))
        assert err is not None, seats
        assert err.field == "seats"
        assert err.code in {"bad_score", "player_count"}


def _deal(points: object = (0, 0, 0), flags: object = None) -> DealScore:
    return DealScore(points=cast(Any, points), flags=cast(Any, {} if flags is None else flags))


BAD_SCORES: list[object] = [
    None,
    "deals",
    b"deals",
    5,
    {"0": _deal()},
    [None],
    [(0, 0, 0)],
    [{"points": [0, 0, 0]}],
    [_deal(points=None)],
    [_deal(points="000")],
    [_deal(points=(0, 0))],
    [_deal(points=(0, 0, 0, 0))],
    [_deal(points=(0, "1", 0))],
    [_deal(points=(0, True, 0))],
    [_deal(points=(0, 1.5, 0))],
    [_deal(points=(0, HUGE, 0))],
    [_deal(points=(0, DEEP, 0))],
    [_deal(flags=None), _deal(flags=[1])],
    [_deal(flags="flags")],
    [_deal(flags=DEEP)],
]


@pytest.mark.parametrize("variant_id", ["ravaytys", "tizlapos_romi"])
@pytest.mark.parametrize("deal_scores", BAD_SCORES, ids=[str(i) for i in range(len(BAD_SCORES))])
def test_bad_deal_scores_are_refused(variant_id: str, deal_scores: object) -> None:
    v = VARIANTS[variant_id]
    err = answers(lambda: table_standing(v, 3, cast(Any, deal_scores)))
    assert err is not None
    assert err.code == "bad_score"


@pytest.mark.parametrize(
    "flags",
    [
        {"winner": None},
        {"winner": 5},
        {"winner": True},
        {"winner": HUGE},
        {"winner": 0, "present": [True]},
        {"winner": 0, "present": "yes"},
        {"winner": 0, "present": [True, None, 1]},
        {"winner": 0, "drop_out": [7]},
        {"winner": 0, "drop_out": "1"},
        {"winner": 0, "reenter": [HUGE]},
        {"winner": 0, "reenter": [True]},
    ],
)
def test_tizlapos_flags_of_the_wrong_shape_are_refused(flags: dict[str, object]) -> None:
    err = answers(lambda: table_standing(TIZ, 3, [_deal(flags=flags)]))
    assert err is not None
    assert (err.code, err.params["number"]) == ("bad_score", 1)


def test_gin_and_contract_flags_of_the_wrong_shape_are_read_or_refused() -> None:
    for flags in ({"winner": HUGE}, {"winner": "0"}, {"went_out": DEEP}, {"ravaytys": HUGE}):
        for variant_id in ("gin_romi", "ravaytys"):
            seats = 2 if variant_id == "gin_romi" else 3
            deal = _deal(points=(0,) * seats, flags=flags)
            answers(lambda v=VARIANTS[variant_id], s=seats, d=deal: table_standing(v, s, [d]))


def test_too_many_deals_are_refused() -> None:
    deals = [_deal(points=(0, 0), flags={})] * (GIN.max_deals + 1)
    err = answers(lambda: table_standing(GIN, 2, deals))
    assert err is not None
    assert (err.code, err.params["number"]) == ("too_many_deals", GIN.max_deals + 1)


# -- deals that do not fit the table name their number --------------------------------------


def _tiz(winner: int, points: list[int | None], **changes: object) -> DealScore:
    flags: dict[str, object] = {
        "winner": winner,
        "ending": "romi",
        "present": [p is not None for p in points],
        "drop_out": [],
        "reenter": [],
    }
    flags.update(changes)
    return DealScore(points=tuple(p or 0 for p in points), flags=flags)


def test_a_deal_that_does_not_fit_the_table_names_its_number() -> None:
    # Tízlapos: a re-entry of a player still in.
    deals = [_tiz(0, [0, 10, 10]), _tiz(0, [0, 10, 10], reenter=[1])]
    err = answers(lambda: table_standing(TIZ, 3, deals))
    assert err is not None
    assert (err.code, err.params["number"]) == ("not_out", 2)
    # Tízlapos: points for a player who is out (seat 1 is out after deal 1 and has no line).
    deals = [_tiz(0, [0, 100, 10]), _tiz(0, [0, None, 10])]
    deals[1] = DealScore(points=(0, 7, 10), flags=deals[1].flags)
    err = answers(lambda: table_standing(TIZ, 3, deals))
    assert err is not None
    assert (err.code, err.field) == ("seat_out", "players.1.points")
    assert (err.params["number"], err.params["seat"]) == (2, 2)
    # Tízlapos: a deal after the buli ended.
    deals = [_tiz(0, [0, 100]), _tiz(0, [0, None])]
    err = answers(lambda: table_standing(TIZ, 2, deals))
    assert err is not None
    assert err.code == "buli_over"
    assert (err.params["number"], err.params["ended"]) == (2, 1)
    # Gin Römi: a deal after the game reached 150.
    gin = [
        DealScore(points=(100, 0), flags={"winner": 0}),
        DealScore(points=(50, 0), flags={"winner": 0}),
        DealScore(points=(10, 0), flags={"winner": 0}),
    ]
    err = answers(lambda: table_standing(GIN, 2, gin))
    assert err is not None
    assert err.code == "game_over"
    assert (err.params["number"], err.params["ended"]) == (3, 2)
    assert err.message == "The game was over after deal 2; deal 3 cannot be scored."


# -- anything at all ------------------------------------------------------------------------


def _huge(digits: int) -> int:
    """A number of more digits than Python turns into text (negative for a negative count)."""
    return 10**digits if digits >= 0 else -(10**-digits)


LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([2**63, -1, 0, 1, 2, 3])
    | st.integers(-5000, 5000).map(_huge)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["AS KD", "JK", "pata-5-8", "QQQ", "2H", "knock", "romi", "void", ""])
)
JSON = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
ENTRY_KEYS = ["out", "players", "laydown", "ravaytys", "ending", "by", "upper", "hands"]
LINE_KEYS = ["deadwood", "winner", "knock_card", "cards", "points", "buys", "special"]
KEYS = st.sampled_from([*ENTRY_KEYS, *LINE_KEYS, "drop_out", "reenter"])
LINE = st.dictionaries(KEYS, JSON, max_size=5)
# Entries with the right keys reach further than arbitrary values do.
ENTRY = JSON | st.dictionaries(
    KEYS, JSON | st.lists(LINE | JSON, min_size=1, max_size=7), max_size=6
)
SCORE = st.builds(
    DealScore,
    points=JSON | st.lists(st.integers(-300, 300) | JSON, max_size=7).map(tuple),
    flags=JSON | st.dictionaries(KEYS | st.sampled_from(["present", "went_out", "ravaytys"]), JSON),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant_id=st.sampled_from(VARIANT_IDS),
    number=JSON | st.integers(0, 9),
    entry=ENTRY,
)
def test_score_deal_answers_anything_with_a_score_or_a_violation(
    variant_id: str, number: object, entry: object
) -> None:
    answers(lambda: score_deal(VARIANTS[variant_id], cast(Any, number), cast(Any, entry)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant_id=st.sampled_from(VARIANT_IDS),
    seats=JSON | st.integers(0, 7),
    deal_scores=JSON | st.lists(SCORE | JSON, max_size=5),
)
def test_table_standing_answers_anything_with_a_standing_or_a_violation(
    variant_id: str, seats: object, deal_scores: object
) -> None:
    answers(lambda: table_standing(VARIANTS[variant_id], cast(Any, seats), cast(Any, deal_scores)))


# Settings a club might type, sensible or not: a game either refuses them, or scores with
# them whatever the entry (nothing a setting allows may crash the scoring later).
# Every game's settings (each game's own ones too: another game's must be refused).
OPTION_NAMES = sorted(option_names())
OPTION_VALUES = (
    st.booleans()
    | st.none()
    | st.integers(-2, 16)
    | st.lists(st.integers(0, 14), max_size=9)
    | st.lists(st.fixed_dictionaries({"sets": st.integers(0, 4), "runs": st.integers(0, 4)}))
    | st.dictionaries(st.sampled_from(["A", "2", "K", "JOKER", "BLACK_TWO"]), st.integers(0, 50))
    | st.lists(st.sampled_from(["last_deal", "deals_won", "seat"]), max_size=3)
    | JSON
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant_id=st.sampled_from(VARIANT_IDS),
    options=st.dictionaries(st.sampled_from(OPTION_NAMES), OPTION_VALUES, max_size=4),
    number=st.integers(1, 8),
    entry=ENTRY | st.sampled_from(list(GOOD.values())),
    deal_scores=st.lists(SCORE, max_size=3),
)
def test_any_settings_are_refused_or_score(
    variant_id: str,
    options: dict[str, object],
    number: int,
    entry: object,
    deal_scores: list[DealScore],
) -> None:
    variant = answers_with(lambda: get_variant(variant_id, **options))
    if variant is None:
        return
    assert Variant.from_dict(json.loads(json.dumps(variant.to_dict()))) == variant
    answers(lambda: score_deal(variant, number, cast(Any, entry)))
    for seats in range(variant.min_players, variant.max_players + 1):
        answers(lambda seats=seats: table_standing(variant, seats, deal_scores))


def answers_with(call: Callable[[], Variant]) -> Variant | None:
    """The variant, or None if the settings were refused (with a showable violation)."""
    try:
        return call()
    except RuleViolation as err:
        json.dumps(err.to_dict())
        assert isinstance(err.message, str)
        return None
