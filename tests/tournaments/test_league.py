"""The season league table: schemes, best-N, minimum events, scaling and tie order.

Pure functions: no database. Players are names, events numbers, one date per event.
"""

from __future__ import annotations

import doctest
import itertools
import json
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError, RuleViolation
from tournaments.engine import league
from tournaments.engine.league import (
    EventResult,
    LeagueKind,
    LeagueScheme,
    TieOrder,
    decider_label,
    event_points,
    league_table,
)

START = date(2026, 1, 1)


def results(*rows: tuple[int, str, int, int, int, int]) -> list[EventResult[str]]:
    """(event, player, place, table size, total, games) rows, event n on day n."""
    return [
        EventResult(
            event,
            START + timedelta(days=event),
            player,
            place=place,
            table_size=size,
            total=total,
            games=games,
        )
        for event, player, place, size, total, games in rows
    ]


def summary(rows: list[league.LeagueRow[str]]) -> list[tuple[str, str, float]]:
    return [(row.player, row.place_label, row.points) for row in rows]


def test_doctests() -> None:
    outcome = doctest.testmod(league)
    assert outcome.attempted > 0 and outcome.failed == 0


def test_placement_best_n_drops_the_worst_events() -> None:
    season = results(
        (1, "Aino", 1, 4, 0, 1),
        (2, "Aino", 4, 4, 0, 1),
        (3, "Aino", 2, 4, 0, 1),
        (1, "Bertta", 2, 4, 0, 1),
        (2, "Bertta", 1, 4, 0, 1),
        (3, "Bertta", 1, 4, 0, 1),
    )
    scheme = LeagueScheme(points=(10, 7, 5, 3), best_n=2)
    table = league_table(season, scheme)
    assert summary(table) == [("Bertta", "1", 20.0), ("Aino", "2", 17.0)]
    aino = table[1]
    assert [(c.result.event, c.score, c.counted) for c in aino.cells] == [
        (1, 10.0, True),
        (2, 3.0, False),
        (3, 7.0, True),
    ]
    assert aino.events == 3 and aino.counted_events == 2
    assert aino.decided_by == "score"


def test_best_n_between_equal_events_keeps_the_earlier() -> None:
    season = results((1, "Aino", 1, 4, 0, 1), (2, "Aino", 1, 4, 0, 1))
    (row,) = league_table(season, LeagueScheme(best_n=1))
    assert [c.counted for c in row.cells] == [True, False]


def test_min_events_lists_the_unranked_after_the_ranked() -> None:
    season = results(
        (1, "Aino", 1, 3, 0, 1),
        (1, "Bertta", 2, 3, 0, 1),
        (2, "Bertta", 2, 3, 0, 1),
        (1, "Cecilia", 3, 3, 0, 1),
        (2, "Cecilia", 1, 3, 0, 1),
    )
    table = league_table(season, LeagueScheme(points=(3, 2, 1), min_events=2))
    assert [(r.player, r.place_label, r.ranked) for r in table] == [
        ("Cecilia", "1", True),
        ("Bertta", "2", True),
        ("Aino", "", False),
    ]
    assert table[2].place is None and table[2].decided_by is None


@pytest.mark.parametrize(
    ("points", "place", "size", "expected"),
    [
        ((10, 7, 5, 3), 1, 4, 10.0),  # a full-length table: unscaled
        ((10, 7, 5, 3), 1, 2, 7.35),  # 10 × 6.25 / 8.5
        ((10, 7, 5, 3), 2, 2, 5.15),  # 7 × 6.25 / 8.5
        ((10, 7, 5, 3), 1, 5, 12.5),  # a fifth seat scores 0: mean 5
        ((10, 7, 5, 3), 5, 5, 0.0),
        ((0, 0), 1, 1, 0.0),  # nothing to scale
    ],
)
def test_table_size_scaling(
    points: tuple[int, ...], place: int, size: int, expected: float
) -> None:
    scheme = LeagueScheme(points=points, scale_by_table=True)
    assert event_points(scheme, place, size) == expected


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6])
def test_scaling_gives_every_table_size_the_same_average(size: int) -> None:
    scheme = LeagueScheme(points=(10, 7, 5, 3), scale_by_table=True)
    average = sum(event_points(scheme, p, size) for p in range(1, size + 1)) / size
    assert average == pytest.approx(6.25, abs=0.01)


def test_without_scaling_places_past_the_table_score_nothing() -> None:
    assert event_points(LeagueScheme(points=(3, 1)), 3, 4) == 0.0


def test_penalty_totals_lower_first() -> None:
    season = results(
        (1, "Aino", 2, 3, 120, 5),
        (2, "Aino", 1, 3, 30, 5),
        (1, "Bertta", 1, 3, 80, 5),
        (2, "Bertta", 2, 3, 60, 5),
    )
    table = league_table(season, LeagueScheme(kind=LeagueKind.PENALTY_TOTAL))
    assert summary(table) == [("Bertta", "1", 140.0), ("Aino", "2", 150.0)]
    best_one = league_table(season, LeagueScheme(kind=LeagueKind.PENALTY_TOTAL, best_n=1))
    assert summary(best_one) == [("Aino", "1", 30.0), ("Bertta", "2", 60.0)]


def test_average_per_game_over_the_counted_games() -> None:
    season = results(
        (1, "Aino", 1, 3, 100, 10),  # 10 a game over 10 games
        (2, "Aino", 2, 3, 40, 2),  # 20 a game
        (1, "Bertta", 2, 3, 66, 5),  # 13.2 a game
    )
    table = league_table(season, LeagueScheme(kind=LeagueKind.AVERAGE))
    assert summary(table) == [("Aino", "1", 11.67), ("Bertta", "2", 13.2)]
    assert [c.score for c in table[0].cells] == [10.0, 20.0]


# Both players score 10 + 7 + 0 = 17 from a (10, 7, 0) table; A won once, B twice.
TIED = results(
    (1, "A", 1, 4, 0, 1),
    (2, "A", 2, 4, 0, 1),
    (1, "B", 2, 4, 0, 1),
    (2, "B", 1, 4, 0, 1),
    (3, "B", 3, 4, 0, 1),
    (3, "C", 2, 4, 0, 1),
    (4, "C", 2, 4, 0, 1),
    (5, "C", 1, 4, 0, 1),
)


@pytest.mark.parametrize(
    ("tie_order", "expected"),
    [
        # C: 7 + 7 + 10 = 24 leads on the score whatever the tie order.
        ((), [("C", "1", None), ("A", "=2", "score"), ("B", "=2", None)]),
        ((TieOrder.EVENTS_WON,), [("C", "1", None), ("A", "=2", "score"), ("B", "=2", None)]),
        ((TieOrder.BEST_RESULT,), [("C", "1", None), ("A", "=2", "score"), ("B", "=2", None)]),
        (
            (TieOrder.MORE_EVENTS,),
            [("C", "1", None), ("B", "2", "score"), ("A", "3", "more_events")],
        ),
        (
            (TieOrder.EVENTS_WON, TieOrder.MORE_EVENTS),
            [("C", "1", None), ("B", "2", "score"), ("A", "3", "more_events")],
        ),
    ],
)
def test_tie_order_precedence_and_shared_places(
    tie_order: tuple[TieOrder, ...], expected: list[tuple[str, str, str | None]]
) -> None:
    table = league_table(TIED, LeagueScheme(points=(10, 7, 0), tie_order=tie_order))
    got = [(r.player, r.place_label, r.decided_by) for r in table]
    # The first row has nothing above it; the rest name what set them apart from the row
    # above, and the second of a shared place nothing.
    assert got == expected
    assert [r.points for r in table] == [24.0, 17.0, 17.0]


@pytest.mark.parametrize(
    ("tie_order", "decider", "first"),
    [
        ((TieOrder.EVENTS_WON, TieOrder.BEST_RESULT), "events_won", "W"),
        ((TieOrder.BEST_RESULT, TieOrder.EVENTS_WON), "best_result", "W"),
        ((TieOrder.MORE_EVENTS, TieOrder.EVENTS_WON), "more_events", "M"),
    ],
)
def test_first_differing_tie_break_decides(
    tie_order: tuple[TieOrder, ...], decider: str, first: str
) -> None:
    # From a (5, 4, 1) table W wins twice (5 + 5), M plays four times (4 + 4 + 1 + 1): 10 each.
    season = results(
        (1, "W", 1, 3, 0, 1),
        (2, "W", 1, 3, 0, 1),
        (1, "M", 2, 3, 0, 1),
        (2, "M", 2, 3, 0, 1),
        (3, "M", 3, 3, 0, 1),
        (4, "M", 3, 3, 0, 1),
    )
    table = league_table(season, LeagueScheme(points=(5, 4, 1), tie_order=tie_order))
    assert [r.points for r in table] == [10.0, 10.0]
    assert table[0].player == first
    assert table[1].decided_by == decider
    assert [r.place_label for r in table] == ["1", "2"]


def test_two_results_of_one_player_at_one_event_are_a_bug() -> None:
    with pytest.raises(RulesError):
        league_table(results((1, "A", 1, 3, 0, 1), (1, "A", 2, 3, 0, 1)), LeagueScheme())


@pytest.mark.parametrize(
    ("row", "ok"),
    [((1, "A", 1, 3, 0, 1), True), ((1, "A", 4, 3, 0, 1), False), ((1, "A", 1, 3, 0, 0), False)],
)
def test_event_result_checks(row: tuple[int, str, int, int, int, int], ok: bool) -> None:
    if ok:
        assert results(row)[0].place == 1
    else:
        with pytest.raises(RulesError):
            results(row)


@pytest.mark.parametrize(
    "scheme",
    [
        LeagueScheme(),
        LeagueScheme(kind=LeagueKind.PENALTY_TOTAL, points=(), best_n=5, min_events=3),
        LeagueScheme(points=(25, 18, 15), scale_by_table=True, tie_order=()),
        LeagueScheme(kind=LeagueKind.AVERAGE, tie_order=(TieOrder.MORE_EVENTS,)),
    ],
)
def test_json_round_trip(scheme: LeagueScheme) -> None:
    assert LeagueScheme.from_dict(json.loads(json.dumps(scheme.to_dict()))) == scheme


def test_from_dict_fills_defaults() -> None:
    assert LeagueScheme.from_dict({"best_n": 3}) == LeagueScheme(best_n=3)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "golf"}, "kind"),
        ({"points": [10, 12]}, "points"),
        ({"points": [10, -1]}, "points"),
        ({"points": [10, 1.5]}, "points"),
        ({"points": "10,7"}, "points"),
        ({"points": []}, "points"),
        ({"points": [True]}, "points"),
        ({"scale_by_table": "yes"}, "scale_by_table"),
        ({"best_n": 0}, "best_n"),
        ({"best_n": "3"}, "best_n"),
        ({"min_events": -1}, "min_events"),
        ({"tie_order": ["coin"]}, "tie_order"),
        ({"tie_order": ["events_won", "events_won"]}, "tie_order"),
        ({"tie_order": "events_won"}, "tie_order"),
        ({"colour": "red"}, "scheme"),
    ],
)
def test_scheme_validation(data: dict[str, object], field: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        LeagueScheme.from_dict(data)
    assert caught.value.field == field
    assert caught.value.code == "bad_league_scheme"


def test_a_long_bad_value_is_quoted_short() -> None:
    with pytest.raises(RuleViolation) as caught:
        LeagueScheme.from_dict({"kind": "x" * 10_000})
    assert len(caught.value.message) < 100


def test_every_decider_has_a_label() -> None:
    assert decider_label("score") == "score"
    assert [label for _, label in TieOrder.choices()] == [
        "events won",
        "best result",
        "more events",
    ]


def test_from_dict_refuses_a_non_mapping() -> None:
    with pytest.raises(RuleViolation):
        LeagueScheme.from_dict([1, 2])  # type: ignore[arg-type]


@st.composite
def seasons(draw: st.DrawFn) -> list[EventResult[int]]:
    rows: list[EventResult[int]] = []
    for event in range(draw(st.integers(1, 6))):
        players = draw(st.lists(st.integers(0, 9), min_size=1, max_size=6, unique=True))
        places = draw(
            st.lists(st.integers(1, len(players)), min_size=len(players), max_size=len(players))
        )
        for player, place in zip(players, places, strict=True):
            rows.append(
                EventResult(
                    event,
                    START + timedelta(days=event),
                    player,
                    place=place,
                    table_size=len(players),
                    total=draw(st.integers(0, 300)),
                    games=draw(st.integers(1, 8)),
                )
            )
    return rows


schemes = st.builds(
    LeagueScheme,
    kind=st.sampled_from(list(LeagueKind)),
    points=st.lists(st.integers(0, 20), min_size=1, max_size=6).map(
        lambda p: tuple(sorted(p, reverse=True))
    ),
    scale_by_table=st.booleans(),
    best_n=st.none() | st.integers(1, 4),
    min_events=st.integers(0, 3),
    tie_order=st.permutations(list(TieOrder)).flatmap(
        lambda order: st.integers(0, len(order)).map(lambda n: tuple(order[:n]))
    ),
)


@settings(max_examples=200, deadline=None)
@given(seasons(), schemes)
def test_table_properties(season: list[EventResult[int]], scheme: LeagueScheme) -> None:
    table = league_table(season, scheme)
    players = [row.player for row in table]
    assert sorted(players) == sorted({r.player for r in season})
    ranked = [row for row in table if row.ranked]
    assert table[: len(ranked)] == ranked  # the unranked come last
    for row in table:
        assert row.ranked == (row.events >= scheme.min_events)
        if scheme.best_n is not None:
            assert row.counted_events == min(scheme.best_n, row.events)
        else:
            assert row.counted_events == row.events
    for above, below in itertools.pairwise(ranked):
        assert above.place is not None and below.place is not None
        if below.place == above.place:
            assert above.shared and below.shared and below.decided_by is None
            assert above.points == below.points
        else:
            assert below.place > above.place and below.decided_by is not None
    for index, row in enumerate(ranked):
        assert row.place is not None and row.place <= index + 1
        if not row.shared:
            assert row.place == index + 1
