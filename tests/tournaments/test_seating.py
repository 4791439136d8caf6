"""Reseated series: repeat avoidance, planning all rounds, seating by standings (no database)."""

from __future__ import annotations

import functools
import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleViolation
from tournaments.engine import seating as seating_module
from tournaments.engine.draw import TableBounds, draw_tables, table_sizes
from tournaments.engine.seating import (
    MOVE_STEPS,
    Seating,
    describe_seating,
    meetings,
    seat_by_standings,
)

# The search stops at its step budget; the clock is only a safety net. These tests judge
# what the budget finds, so a busy CI machine's clock must not cut the search short (a test
# that passes its own deadline keeps it).
reseat = functools.partial(seating_module.reseat, deadline_s=300.0)
plan_series = functools.partial(seating_module.plan_series, deadline_s=300.0)

CONTRACT = TableBounds(min_size=3, max_size=6, preferred=4)
FOURS = TableBounds(min_size=4, max_size=4, preferred=4)
GIN = TableBounds(min_size=2, max_size=2, preferred=2)


def random_rounds(players, bounds, rounds, seed=0):
    """`rounds` random rounds, as a series that did not avoid repeats would have played."""
    return [draw_tables(players, bounds, seed=seed * 1000 + r) for r in range(rounds)]


def history(players, bounds, rounds, seed=0):
    return meetings(random_rounds(players, bounds, rounds, seed))


def assert_valid(tables, players, bounds):
    seated = [player for table in tables for player in table]
    assert sorted(seated, key=repr) == sorted(players, key=repr)  # everyone, exactly once
    assert [len(table) for table in tables] == table_sizes(len(players), bounds)


def total_repeats(rounds):
    """Repeats across rounds counted from scratch: each meeting of a pair after its first."""
    return sum(times - 1 for times in meetings(rounds).values())


# ---- planning a whole series ------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_16_players_at_tables_of_4_for_5_rounds_never_meet_twice(seed):
    players = list(range(1, 17))
    plan = plan_series(players, rounds=5, bounds=FOURS, met={}, seed=seed)
    rounds = [seating.tables for seating in plan.rounds]
    assert plan.repeats == 0
    assert total_repeats(rounds) == 0
    # A perfect schedule: every one of the 120 pairs meets exactly once.
    assert len(meetings(rounds)) == 16 * 15 // 2
    for tables in rounds:
        assert_valid(tables, players, FOURS)
    assert not plan.search.cut_short


@pytest.mark.parametrize(("players", "rounds"), [(40, 6), (100, 8)])
def test_larger_series_with_a_perfect_schedule_find_it(players, rounds):
    names = [f"player {i}" for i in range(players)]
    plan = plan_series(names, rounds=rounds, bounds=FOURS, met={}, seed=players)
    assert plan.repeats == 0
    assert total_repeats([seating.tables for seating in plan.rounds]) == 0
    for seating in plan.rounds:
        assert_valid(seating.tables, names, FOURS)


def test_planning_beats_reseating_round_by_round():
    """Greedy rounds can paint themselves into a corner; planning the rounds together avoids
    it. (Greedy reseating does finish some of these series without a repeat, not most.)"""
    players = list(range(16))
    greedy: list[int] = []
    for series in range(6):
        played: list[list[list[int]]] = []
        for number in range(5):
            seed = series * 10 + number
            played.append(reseat(players, bounds=FOURS, met=meetings(played), seed=seed).tables)
        greedy.append(total_repeats(played))
        assert plan_series(players, rounds=5, bounds=FOURS, met={}, seed=series).repeats == 0
    assert sum(1 for repeats in greedy if repeats > 0) >= 3


def test_replanning_each_round_keeps_a_perfect_series_perfect():
    """The service's way: before each round, plan the rest with the rounds played."""
    players = list(range(16))
    played: list[list[list[int]]] = []
    for number in range(5):
        plan = plan_series(
            players, rounds=5 - number, bounds=FOURS, met=meetings(played), seed=number
        )
        played.append(plan.rounds[0].tables)
    assert total_repeats(played) == 0


def test_replanning_after_a_withdrawal_and_a_late_entry():
    players = [f"p{i}" for i in range(16)]
    first = plan_series(players, rounds=5, bounds=FOURS, met={}, seed=3)
    played = [seating.tables for seating in first.rounds[:2]]
    # p0 withdraws after round 2 and "late" arrives: the late player has no history, and
    # p0's meetings no longer matter. The first plan with "late" in p0's seats has no
    # repeats, so the new plan must find none either.
    now = [*players[1:], "late"]
    plan = plan_series(now, rounds=3, bounds=FOURS, met=meetings(played), seed=4)
    assert plan.repeats == 0
    assert total_repeats([*played, *(s.tables for s in plan.rounds)]) == 0
    for seating in plan.rounds:
        assert_valid(seating.tables, now, FOURS)


def test_a_late_entry_that_changes_the_table_sizes():
    players = list(range(16))
    played = [s.tables for s in plan_series(players, rounds=2, bounds=FOURS, met={}, seed=1).rounds]
    now = [*players, 16]  # 17 players: tables of 5, 4, 4, 4
    plan = plan_series(now, rounds=3, bounds=CONTRACT, met=meetings(played), seed=2)
    for seating in plan.rounds:
        assert_valid(seating.tables, now, CONTRACT)
    # The repeats it reports are the ones a recount of the whole series finds.
    everything = [*played, *(s.tables for s in plan.rounds)]
    assert plan.repeats == total_repeats(everything) - total_repeats(played)


def test_a_plans_repeats_count_earlier_rounds_of_the_plan():
    # 8 players at tables of 4 for 3 rounds cannot avoid repeats: each player has 7 others
    # and meets 3 a round.
    plan = plan_series(list(range(8)), rounds=3, bounds=FOURS, met={}, seed=0)
    rounds = [seating.tables for seating in plan.rounds]
    assert plan.repeats == total_repeats(rounds) > 0
    assert plan.rounds[0].repeats == 0  # nobody had met before the first round
    for number, seating in enumerate(plan.rounds):
        before = meetings(rounds[:number])
        assert seating.repeated_pairs == [p for p in _pairs(seating.tables) if p in before]


def test_unavoidable_repeats_are_spread_over_pairs():
    """8 players at tables of 4 for 5 rounds: 60 meetings over 28 pairs. The best spread
    (found by trying every schedule) has no pair meeting more than three times."""
    plan = plan_series(list(range(8)), rounds=5, bounds=FOURS, met={}, seed=0)
    counts = meetings(seating.tables for seating in plan.rounds)
    assert plan.repeats == 60 - 28
    assert max(counts.values()) == 3
    assert len(counts) == 28  # and everyone met everyone


# ---- reseating one round ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("bounds", "players", "rounds_played"),
    [
        (CONTRACT, 7, 2),
        (CONTRACT, 9, 3),
        (CONTRACT, 11, 4),
        (CONTRACT, 16, 3),
        (CONTRACT, 17, 4),
        (CONTRACT, 25, 5),
        (CONTRACT, 40, 8),
        (FOURS, 12, 6),
        (FOURS, 20, 4),
        (GIN, 10, 5),
        (TableBounds(3, 6, 5), 31, 6),
    ],
)
def test_reseat_is_never_worse_than_the_best_of_100_random_draws(bounds, players, rounds_played):
    names = list(range(players))
    met = history(names, bounds, rounds_played, seed=players)
    best_random = min(
        describe_seating(draw_tables(names, bounds, seed=seed), met=met).repeats
        for seed in range(100)
    )
    seating = reseat(names, bounds=bounds, met=met, seed=rounds_played)
    assert_valid(seating.tables, names, bounds)
    assert seating.repeats <= best_random
    assert seating.repeated_pairs == [p for p in _pairs(seating.tables) if met.get(p, 0) > 0]


def test_a_thousand_players_after_three_rounds_meet_nobody_again():
    names = list(range(1000))
    met = history(names, CONTRACT, 3)
    assert describe_seating(draw_tables(names, CONTRACT, seed=9), met=met).repeats > 0
    seating = reseat(names, bounds=CONTRACT, met=met, seed=9)
    assert seating.repeats == 0
    assert_valid(seating.tables, names, CONTRACT)


def test_without_history_reseat_is_the_plain_draw():
    names = list(range(23))
    seating = reseat(names, bounds=CONTRACT, met={}, seed=5)
    assert seating.tables == draw_tables(names, CONTRACT, seed=5)
    assert seating.repeats == 0
    assert seating.search is not None and seating.search.steps == 0


def test_meetings_of_players_no_longer_playing_are_ignored():
    met = {frozenset(("gone", 1)): 3, frozenset((1, 2)): 1}
    seating = reseat([1, 2, 3], bounds=CONTRACT, met=met, seed=0)
    assert seating.repeated_pairs == [frozenset((1, 2))]  # one table: no choice


# ---- same seed, same draw ----------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(players=st.integers(4, 60), seed=st.integers(0, 2**32), data=st.data())
def test_same_seed_same_seating_whatever_the_input_order(players, seed, data):
    names = list(range(players))
    met = history(names, CONTRACT, 3, seed=seed % 7)
    shuffled = data.draw(st.permutations(names))
    first = reseat(names, bounds=CONTRACT, met=met, seed=seed, budget=20_000)
    again = reseat(shuffled, bounds=CONTRACT, met=met, seed=seed, budget=20_000)
    assert first.tables == again.tables
    assert first.repeated_pairs == again.repeated_pairs


def test_same_seed_same_plan():
    names = [f"p{i}" for i in range(16)]
    plans = [plan_series(names, rounds=5, bounds=FOURS, met={}, seed=11) for _ in range(2)]
    assert [s.tables for s in plans[0].rounds] == [s.tables for s in plans[1].rounds]
    other = plan_series(names, rounds=5, bounds=FOURS, met={}, seed=12)
    assert [s.tables for s in other.rounds] != [s.tables for s in plans[0].rounds]


def test_the_budget_not_the_clock_decides_where_the_search_stops():
    # 9 players at tables of 5 and 4 after 6 rounds: repeats are unavoidable, so the search
    # runs until its budget, and stops there whatever the deadline (when not reached).
    names = list(range(9))
    met = history(names, CONTRACT, 6)
    runs = [
        reseat(names, bounds=CONTRACT, met=met, seed=1, budget=3_000, deadline_s=deadline)
        for deadline in (30.0, 60.0)
    ]
    assert runs[0].tables == runs[1].tables
    for run in runs:
        assert run.search is not None and not run.search.cut_short
        assert 3_000 <= run.search.steps <= 3_000 + 5 + MOVE_STEPS  # one move past, at most


# ---- the time box ------------------------------------------------------------------------


def test_a_tiny_deadline_still_seats_everyone():
    names = list(range(200))
    met = history(names, CONTRACT, 5)
    seating = reseat(names, bounds=CONTRACT, met=met, seed=2, deadline_s=0.0)
    assert_valid(seating.tables, names, CONTRACT)
    assert seating.search is not None and seating.search.cut_short
    assert seating.repeats == describe_seating(seating.tables, met=met).repeats
    plan = plan_series(names, rounds=4, bounds=CONTRACT, met=met, seed=2, deadline_s=0.0)
    assert plan.search.cut_short
    for round_ in plan.rounds:
        assert_valid(round_.tables, names, CONTRACT)


def test_a_one_table_round_has_nothing_to_search():
    seating = reseat([1, 2, 3, 4], bounds=FOURS, met={frozenset((1, 2)): 1}, seed=0)
    assert seating.repeats == 1
    assert seating.search is not None and seating.search.steps == 0


# ---- players of one club apart ----------------------------------------------------------


def club_of(player: str) -> str:
    return player.split("-")[0]


def same_club(a: str, b: str) -> float:
    return 1.0 if club_of(a) == club_of(b) else 0.0


def test_players_of_one_club_are_seated_apart():
    # 4 clubs of 4 at 4 tables of 4: every table can have one of each club.
    names = [f"{club}-{i}" for club in "ABCD" for i in range(4)]
    assert describe_seating(
        draw_tables(names, FOURS, seed=0), met={}, pair_cost=same_club
    ).extra_cost
    seating = reseat(names, bounds=FOURS, met={}, seed=0, pair_cost=same_club)
    assert seating.extra_cost == 0
    for table in seating.tables:
        assert sorted(club_of(p) for p in table) == ["A", "B", "C", "D"]


def test_clubs_apart_as_far_as_the_numbers_allow():
    # 6 of club A and 2 of B at two tables of 4: A must put 3 at each table (3 + 3 pairs).
    names = [f"A-{i}" for i in range(6)] + ["B-0", "B-1"]
    seating = reseat(names, bounds=FOURS, met={}, seed=1, pair_cost=same_club)
    assert seating.extra_cost == 6
    assert sorted(Counter(club_of(p) for p in t)["B"] for t in seating.tables) == [1, 1]


def test_clubs_apart_with_a_history_and_a_thousand_players():
    names = [f"{club:02d}-{i}" for club in range(20) for i in range(50)]
    met = history(names, CONTRACT, 3)
    seating = reseat(names, bounds=CONTRACT, met=met, seed=3, pair_cost=same_club)
    assert seating.extra_cost == 0
    assert seating.repeats == 0


def test_a_negative_pair_cost_is_refused():
    with pytest.raises(ValueError, match="pair_cost"):
        reseat(list(range(8)), bounds=FOURS, met={}, seed=0, pair_cost=lambda a, b: -1.0)


# ---- always a valid seating --------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 90),
    bounds=st.sampled_from([CONTRACT, FOURS, GIN, TableBounds(3, 6, 5), TableBounds(2, 6, 4)]),
    rounds_played=st.integers(0, 6),
    rounds=st.integers(1, 4),
    clubs=st.integers(0, 5),
    seed=st.integers(0, 2**32),
)
def test_every_player_seated_once_on_tables_within_bounds(
    players, bounds, rounds_played, rounds, clubs, seed
):
    names = [f"{i % clubs if clubs else i}-{i}" for i in range(players)]
    try:
        sizes = table_sizes(players, bounds)
    except RuleViolation:
        with pytest.raises(RuleViolation):
            reseat(names, bounds=bounds, met={}, seed=seed)
        return
    played = random_rounds(names, bounds, rounds_played, seed=seed % 5)
    met = meetings(played)
    cost = same_club if clubs else None
    plan = plan_series(
        names, rounds=rounds, bounds=bounds, met=met, seed=seed, pair_cost=cost, budget=5_000
    )
    assert len(plan.rounds) == rounds
    for seating in plan.rounds:
        assert_valid(seating.tables, names, bounds)
        assert all(bounds.min_size <= len(t) <= bounds.max_size for t in seating.tables)
        assert [len(t) for t in seating.tables] == sizes
    assert plan.repeats == total_repeats(
        [*played, *(s.tables for s in plan.rounds)]
    ) - total_repeats(played)


# ---- seating by standings ----------------------------------------------------------------


def test_by_standings_the_leaders_share_table_one():
    standing = [f"#{place}" for place in range(1, 11)]  # 10 players: tables of 4, 3, 3
    tables = seat_by_standings(standing, bounds=CONTRACT)
    assert tables == [["#1", "#2", "#3", "#4"], ["#5", "#6", "#7"], ["#8", "#9", "#10"]]


def test_by_standings_with_a_seed_shuffles_seats_not_tables():
    standing = list(range(1, 18))  # 17 players: tables of 5, 4, 4, 4
    tables = seat_by_standings(standing, bounds=CONTRACT, seed=4)
    assert [sorted(t) for t in tables] == [
        [1, 2, 3, 4, 5],
        [6, 7, 8, 9],
        [10, 11, 12, 13],
        [14, 15, 16, 17],
    ]
    assert tables == seat_by_standings(standing, bounds=CONTRACT, seed=4)
    orders = {
        tuple(t[0] for t in seat_by_standings(standing, bounds=CONTRACT, seed=s)) for s in range(10)
    }
    assert len(orders) > 1  # the first dealer varies with the seed


def test_by_standings_refuses_what_cannot_be_seated():
    with pytest.raises(RuleViolation) as info:
        seat_by_standings([1, 2], bounds=CONTRACT)
    assert info.value.code == "draw_too_few"


# ---- the small helpers -------------------------------------------------------------------


def test_meetings_count_every_shared_table():
    rounds = [[[1, 2, 3], [4, 5, 6]], [[1, 2, 4], [3, 5, 6]]]
    met = meetings(rounds)
    assert met[frozenset((1, 2))] == 2
    assert met[frozenset((5, 6))] == 2
    assert met[frozenset((1, 4))] == 1
    assert frozenset((1, 5)) not in met
    assert sum(met.values()) == 12


def test_describe_names_who_meets_again_table_by_table():
    met = {frozenset((1, 2)): 1, frozenset((5, 6)): 2, frozenset((1, 5)): 0}
    seating = describe_seating([[1, 2, 3], [4, 5, 6]], met=met)
    assert isinstance(seating, Seating)
    assert seating.repeated_pairs == [frozenset((1, 2)), frozenset((5, 6))]
    assert seating.repeats == 2
    assert seating.search is None


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: plan_series([1, 2, 3, 4], rounds=0, bounds=FOURS, met={}, seed=0), "round"),
        (lambda: reseat([1, 1, 2, 3], bounds=FOURS, met={}, seed=0), "twice"),
    ],
)
def test_programming_mistakes_are_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_too_few_players_say_why():
    with pytest.raises(RuleViolation) as info:
        plan_series([1, 2], rounds=3, bounds=CONTRACT, met={}, seed=0)
    assert info.value.code == "draw_too_few"


def _pairs(tables):
    return [frozenset(p) for table in tables for p in itertools.combinations(table, 2)]
