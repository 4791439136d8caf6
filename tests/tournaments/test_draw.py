from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleViolation
from tournaments.engine.draw import TableBounds, draw_tables, table_sizes

CONTRACT = TableBounds(min_size=3, max_size=6, preferred=4)
GIN = TableBounds(min_size=2, max_size=2, preferred=2)


@pytest.mark.parametrize(
    ("players", "bounds", "sizes"),
    [
        (4, CONTRACT, [4]),
        (8, CONTRACT, [4, 4]),
        (9, CONTRACT, [5, 4]),
        (10, CONTRACT, [4, 3, 3]),  # 3.33 is nearer 4 than 5 is
        (7, CONTRACT, [4, 3]),
        (3, CONTRACT, [3]),
        (5, CONTRACT, [5]),
        (6, CONTRACT, [3, 3]),  # two tables of 3 are nearer the preferred 4 than one of 6
        (160, CONTRACT, [4] * 40),
        (6, GIN, [2, 2, 2]),
        (12, TableBounds(3, 6, preferred=6), [6, 6]),
    ],
)
def test_sizes(players, bounds, sizes):
    assert table_sizes(players, bounds) == sizes


@pytest.mark.parametrize(
    ("players", "bounds", "code"),
    [(2, CONTRACT, "draw_too_few"), (0, CONTRACT, "draw_too_few"), (7, GIN, "draw_impossible")],
)
def test_impossible_draws_say_why(players, bounds, code):
    with pytest.raises(RuleViolation) as info:
        table_sizes(players, bounds)
    assert info.value.code == code
    assert str(players) in str(info.value)


bounds_strategy = st.sampled_from(
    [CONTRACT, GIN, TableBounds(3, 6, 5), TableBounds(2, 6, 4), TableBounds(4, 4, 4)]
)


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=500),
    bounds=bounds_strategy,
    seed=st.integers(0, 2**32),
)
def test_every_player_seated_once_on_balanced_tables(players, bounds, seed):
    ids = list(range(1000, 1000 + players))
    try:
        tables = draw_tables(ids, bounds, seed=seed)
    except RuleViolation:
        # Only when no balanced split exists: then no number of tables fits the bounds.
        assert all(
            not (bounds.min_size * t <= players <= bounds.max_size * t)
            for t in range(1, players + 1)
        )
        return
    seated = [player for table in tables for player in table]
    assert sorted(seated) == ids
    sizes = [len(table) for table in tables]
    assert max(sizes) - min(sizes) <= 1
    assert all(bounds.min_size <= size <= bounds.max_size for size in sizes)


@settings(max_examples=100, deadline=None)
@given(players=st.integers(min_value=3, max_value=500), seed=st.integers(0, 2**32), data=st.data())
def test_same_seed_same_draw_whatever_the_input_order(players, seed, data):
    ids = list(range(players))
    shuffled = data.draw(st.permutations(ids))
    assert draw_tables(ids, CONTRACT, seed=seed) == draw_tables(shuffled, CONTRACT, seed=seed)


def test_different_seeds_usually_differ():
    ids = list(range(40))
    draws = {tuple(map(tuple, draw_tables(ids, CONTRACT, seed=seed))) for seed in range(20)}
    assert len(draws) > 15


def test_a_stage_keeps_the_format_it_was_drawn_with(db):
    from tests.support.events import seated_event
    from tournaments.services import stage_bounds

    event, tables = seated_event(variant_id="rutupeli", players=10, preferred=5)
    stage = tables[0].stage
    assert stage.format == {"table_sizes": {"min": 3, "max": 6, "preferred": 5}}
    # A later change of the event's preference does not change the stage's draw rules.
    event.preferred_table_size = 3
    event.save()
    stage.refresh_from_db()
    bounds = stage_bounds(stage=stage)
    assert (bounds.min_size, bounds.max_size, bounds.preferred) == (3, 6, 5)
    assert sorted(t.seats.count() for t in tables) == [5, 5]
