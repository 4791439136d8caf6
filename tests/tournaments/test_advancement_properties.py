"""Properties of the championship's advancement, for any stage and any championship.

Two kinds: whole simulated championships of any size and option (nobody advances twice,
nobody disappears, every stage balanced within its bounds, one champion, a final ranking
that is a permutation sharing places only between equal results); and single stages of
random tables with many ties, checked against the rules stated directly.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RuleViolation
from tests.support.championship import check_championship
from tournaments.engine.advancement import (
    Advancement,
    PendingTie,
    Reason,
    StageTable,
    TablePlayer,
    TieBreak,
    TieBreakMethod,
    advance,
    lucky_loser_target,
    pending_ties,
    simulate_championship,
)
from tournaments.engine.draw import TableBounds

BOUNDS = [
    TableBounds(3, 6, 4),
    TableBounds(3, 5, 4),
    TableBounds(4, 6, 5),
    TableBounds(3, 6, 3),
    TableBounds(3, 4, 3),
]


@settings(max_examples=150, deadline=None)
@given(
    entrants=st.integers(min_value=2, max_value=300),
    top_k=st.sampled_from([1, 2]),
    bounds=st.sampled_from(BOUNDS),
    lucky_losers=st.booleans(),
    no_show_rate=st.sampled_from([0.0, 0.2, 0.6]),
    seed=st.integers(0, 2**32),
)
def test_any_championship_ends_with_one_champion_and_loses_nobody(
    entrants: int,
    top_k: int,
    bounds: TableBounds,
    lucky_losers: bool,
    no_show_rate: float,
    seed: int,
) -> None:
    try:
        championship = simulate_championship(
            entrants,
            top_k=top_k,
            bounds=bounds,
            seed=seed,
            lucky_losers=lucky_losers,
            no_show_rate=no_show_rate,
        )
    except RuleViolation as error:
        # Only when no balanced split seats the entrants, or later those going on (5 at
        # tables of 3 to 4): never for a count that fits.
        assert error.code in {"draw_impossible", "stage_unseatable"}
        players = error.params["players"]
        assert isinstance(players, int) and players > bounds.max_size
        assert not any(
            bounds.min_size * t <= players <= bounds.max_size * t for t in range(1, players + 1)
        )
        return
    check_championship(championship, top_k, bounds)


# -- single stages ----------------------------------------------------------------------------


@st.composite
def stages(draw: st.DrawFn) -> tuple[list[StageTable[int]], int, TableBounds, bool, set[int]]:
    bounds = draw(st.sampled_from(BOUNDS))
    top_k = draw(st.sampled_from([1, 2]))
    count = draw(st.integers(min_value=1, max_value=12))
    tables: list[StageTable[int]] = []
    player = 0
    for number in range(1, count + 1):
        size = draw(st.integers(bounds.min_size, bounds.max_size))
        # Keys from very few values: ties at the tables and between them are the rule.
        keys = sorted(draw(st.lists(st.integers(0, 3), min_size=size, max_size=size)))
        order = [TablePlayer(player + i, f"P{player + i}", (key,)) for i, key in enumerate(keys)]
        player += size
        tables.append(StageTable.from_order(number, order))
    absent = draw(st.sets(st.integers(0, player - 1), max_size=player // 3))
    return tables, top_k, bounds, draw(st.booleans()), absent


def straddles(tie: PendingTie[int], table: StageTable[int], cut: int, absent: set[int]) -> bool:
    """The rule said directly: the cut runs through the shared place."""
    tied = {p.player for p in tie.players}
    ahead = 0
    for group in table.places:
        playing = [e.player for e in group if e.player not in absent]
        if tied <= set(playing):
            return ahead < cut < ahead + len(playing) and set(playing) == tied
        ahead += len(playing)
    return False


def settle(tables: list[StageTable[int]], ties: tuple[PendingTie[int], ...], stage: list) -> None:
    """Record a tie-break for every pending tie, as a director would (worst first here)."""
    for tie in ties:
        order = tuple(p.player for p in reversed(tie.players))
        record = TieBreak(TieBreakMethod.PLAYOFF_DEAL, order)
        if tie.table is None:
            stage.append(record)
        else:
            old = tables[tie.table - 1]
            tables[tie.table - 1] = StageTable(old.number, old.places, (*old.tie_breaks, record))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=stages())
def test_a_stage_follows_the_rules_or_names_what_is_missing(case) -> None:
    tables, top_k, bounds, lucky, absent = case
    final = len(tables) == 1
    cut = 1 if final else top_k
    playing_absent = set() if final else absent
    options = {"top_k": top_k, "bounds": bounds, "lucky_losers": lucky, "no_shows": absent}
    stage_tie_breaks: list[TieBreak[int]] = []
    for _round in range(3):
        try:
            ties = pending_ties(tables, stage_tie_breaks=stage_tie_breaks, **options)
        except RuleViolation as error:
            assert error.code == "top_k_too_large"
            assert any(len(t) <= top_k for t in tables) and not final
            return
        if not ties:
            break
        with pytest.raises(RuleViolation) as info:
            advance(tables, stage_tie_breaks=stage_tie_breaks, **options)
        if ties[0].lucky_losers:
            assert info.value.code == "lucky_loser_tie_unresolved"
            (tie,) = ties
            assert 0 < tie.going_on < len(tie.players)
            assert len({(p.place, p.key) for p in tie.players}) == 1
        else:
            assert info.value.code == "tie_unresolved"
            assert info.value.params["tables"] == [t.table for t in ties]
            for tie in ties[:10]:
                assert tie.names in info.value.message
                assert straddles(tie, tables[tie.table - 1], cut, playing_absent)
        settle(tables, ties, stage_tie_breaks)
    else:
        pytest.fail("recording the pending tie-breaks did not settle the stage")
    try:
        result = advance(tables, stage_tie_breaks=stage_tie_breaks, **options)
    except RuleViolation as error:
        assert error.code in {"nobody_advances", "stage_unseatable"}
        return
    check_stage(result, tables, cut, bounds, lucky, playing_absent)


def check_stage(
    result: Advancement[int],
    tables: list[StageTable[int]],
    cut: int,
    bounds: TableBounds,
    lucky: bool,
    absent: set[int],
) -> None:
    everyone = [e.player for t in tables for e in t.players]
    going_on = list(result.players)
    assert len(going_on) == len(set(going_on))
    assert sorted(going_on + [o.player for o in result.eliminated]) == sorted(everyone)
    assert not set(going_on) & absent
    qualifiers = [o for o in result.advancers if o.reason is not Reason.LUCKY_LOSER]
    for table in tables:
        playing = [e.player for e in table.players if e.player not in absent]
        mine = [o for o in qualifiers if o.placing.table == table.number]
        assert len(mine) == min(cut, len(playing))
        if not mine:
            continue
        # The table's qualifiers are its best players who are coming, by their places.
        worst_in = max(o.placing.place for o in mine)
        for other in (result.outcome(p) for p in playing):
            if not other.advances or other.reason is Reason.LUCKY_LOSER:
                assert other.placing.place > worst_in
    lucky_ones = [o for o in result.advancers if o.reason is Reason.LUCKY_LOSER]
    assert result.lucky_losers == len(lucky_ones)
    if not lucky or len(tables) == 1:
        assert not lucky_ones
    elif lucky_ones:
        target = lucky_loser_target(len(qualifiers), len(everyone), bounds)
        assert len(qualifiers) + len(lucky_ones) == target
        passed_over = [
            o
            for o in result.eliminated
            if o.player not in absent and o.reason is not Reason.NO_SHOW
        ]
        for chosen in lucky_ones:
            for other in passed_over:
                assert (chosen.placing.place, chosen.placing.key) <= (
                    other.placing.place,
                    other.placing.key,
                )
    if len(going_on) == 1:
        assert result.over and result.champion == going_on[0] and result.next_sizes == ()
    else:
        assert not result.over
        assert sum(result.next_sizes) == len(going_on)
        sizes = result.next_sizes
        if len(sizes) > 1:
            assert max(sizes) - min(sizes) <= 1
            assert all(bounds.min_size <= s <= bounds.max_size for s in sizes)
        else:
            assert sizes[0] <= bounds.max_size
