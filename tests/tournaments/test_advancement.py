"""The table-winner championship's advancement: who goes on, why, and the final ranking.

Pure functions: no database. Players are ints named by NAMES, so a message can be checked
for the names it must carry.
"""

from __future__ import annotations

from collections import Counter

import pytest
from django.utils import translation

from core.i18n import violation_text
from rules import DealScore, get_variant, table_standing
from rules.errors import RulesError, RuleViolation
from rules.results import TableStanding
from tests.support.championship import check_championship
from tournaments.engine.advancement import (
    DEFAULT_BOUNDS,
    Reason,
    StageTable,
    TablePlayer,
    TieBreak,
    TieBreakMethod,
    advance,
    draw_stage,
    final_ranking,
    lucky_loser_target,
    next_stage,
    pending_ties,
    simulate_championship,
    stage_sizes,
)
from tournaments.engine.draw import TableBounds

NAMES = {
    1: "Aino",
    2: "Bertta",
    3: "Cecilia",
    4: "Dan",
    5: "Eero",
    6: "Fanni",
    7: "Gustav",
    8: "Helmi",
    9: "Ilona",
    10: "Jussi",
    11: "Kaarlo",
    12: "Lumi",
}


def tp(player: int, total: int) -> TablePlayer[int]:
    return TablePlayer(player, NAMES.get(player, f"P{player}"), (total,))


def table(number: int, *groups: list[tuple[int, int]], tie_breaks=()) -> StageTable[int]:
    """A table from its places, each a list of (player, total); a list of two or more is a
    shared place."""
    return StageTable(number, tuple(tuple(tp(*e) for e in g) for g in groups), tuple(tie_breaks))


def two_tables(tie_breaks_1=(), tie_breaks_2=()) -> list[StageTable[int]]:
    return [
        table(1, [(1, 10)], [(2, 20)], [(3, 30)], [(4, 40)], tie_breaks=tie_breaks_1),
        table(2, [(5, 15)], [(6, 25)], [(7, 35)], [(8, 45)], tie_breaks=tie_breaks_2),
    ]


# -- who goes on ----------------------------------------------------------------------------


def test_each_tables_winner_goes_on() -> None:
    result = advance(two_tables())
    assert result.players == (1, 5)
    assert [o.reason for o in result.advancers] == [Reason.WON_TABLE, Reason.WON_TABLE]
    assert {o.player for o in result.eliminated} == {2, 3, 4, 6, 7, 8}
    assert all(o.reason is Reason.KNOCKED_OUT for o in result.eliminated)
    assert result.next_sizes == (2,)  # a final of two
    assert not result.over and result.champion is None
    assert result.advancers[0].text.text() == "Won table 1."


def test_top_two_go_on_with_their_places() -> None:
    result = advance(two_tables(), top_k=2)
    assert set(result.players) == {1, 2, 5, 6}
    assert result.outcome(2).reason is Reason.PLACED
    assert result.outcome(2).text.text() == "Place 2 at table 1."
    assert result.outcome(3).text.text() == "Place 3 at table 1: out."
    assert result.next_sizes == (4,)


def test_advancers_are_in_stage_ranking_order() -> None:
    # Both winners are first at their tables; the lower total ranks first.
    tables = [table(1, [(1, 30)], [(2, 40)], [(3, 50)]), table(2, [(4, 10)], [(5, 20)], [(6, 60)])]
    assert advance(tables).players == (4, 1)
    assert [o.player for o in advance(tables).eliminated] == [5, 2, 3, 6]


def test_an_unresolved_tie_names_the_table_and_the_players() -> None:
    tables = [
        table(1, [(1, 10)], [(2, 20)], [(3, 30)]),
        table(2, [(4, 15), (5, 15)], [(6, 25)]),
    ]
    with pytest.raises(RuleViolation) as info:
        advance(tables)
    error = info.value
    assert error.code == "tie_unresolved"
    assert error.params["table"] == 2
    assert "Table 2" in error.message
    assert "Dan" in error.message and "Eero" in error.message
    assert "Fanni" not in error.message
    assert "place 1" in error.message


def test_several_unresolved_tables_are_listed_in_one_message() -> None:
    tables = [
        table(1, [(1, 10), (2, 10)], [(3, 30)]),
        table(2, [(4, 15)], [(5, 25)], [(6, 35)]),
        table(3, [(7, 5), (8, 5), (9, 5)]),
    ]
    with pytest.raises(RuleViolation) as info:
        advance(tables)
    error = info.value
    assert error.code == "tie_unresolved"
    assert error.params["tables"] == [1, 3]
    assert error.message.startswith("2 tables have ties")
    for name in ("Aino", "Bertta", "Gustav", "Helmi", "Ilona"):
        assert name in error.message
    assert "table 1: Aino, Bertta; table 3: Gustav, Helmi, Ilona" in error.message
    assert "Dan" not in error.message


def test_the_tie_list_is_translated_with_the_message() -> None:
    tables = [table(1, [(1, 10), (2, 10)], [(3, 30)]), table(2, [(4, 1), (5, 1)], [(6, 3)])]
    with pytest.raises(RuleViolation) as info:
        advance(tables)
    # In English the Phrase renders as the message does; in Finnish the words change and the
    # tables' numbers stay.
    with translation.override("en"):
        assert violation_text(info.value) == info.value.message
    with translation.override("fi"):
        finnish = violation_text(info.value)
    assert finnish != info.value.message
    assert "1" in finnish and "2" in finnish


def test_a_tie_behind_the_cut_needs_no_tie_break_and_stays_shared() -> None:
    tables = [
        table(1, [(1, 10)], [(2, 20), (3, 20)], [(4, 40)]),
        table(2, [(5, 15)], [(6, 25)], [(7, 35)]),
    ]
    result = advance(tables)
    assert result.players == (1, 5)
    second = result.outcome(2).placing
    assert (second.place, second.shared, second.place_label) == (2, True, "=2")
    assert result.outcome(4).placing.place == 4  # two ahead of it share place 2
    assert result.outcome(3).reason is Reason.KNOCKED_OUT
    assert result.outcome(2).text.text() == "Place =2 at table 1: out."


def test_a_recorded_tie_break_decides() -> None:
    coin = TieBreak(TieBreakMethod.CARD_DRAW, (5, 4), note="")
    tables = [
        table(1, [(1, 10)], [(2, 20)], [(3, 30)]),
        table(2, [(4, 15), (5, 15)], [(6, 25)], tie_breaks=[coin]),
    ]
    result = advance(tables)
    assert result.players == (1, 5)
    winner = result.outcome(5)
    assert winner.reason is Reason.TIE_BREAK
    assert winner.tie_break == coin
    assert (winner.placing.place, winner.placing.shared) == (1, False)
    assert winner.text.text() == "Won table 2. Decided by a tie-break: card draw."
    loser = result.outcome(4)
    assert loser.reason is Reason.LOST_TIE_BREAK
    assert loser.placing.place == 2
    assert loser.tie_break == coin
    assert pending_ties(tables) == ()


def test_other_tie_break_shows_its_note() -> None:
    other = TieBreak(TieBreakMethod.OTHER, (2,), note="highest card cut")
    tables = [table(1, [(1, 10), (2, 10)], [(3, 30)], tie_breaks=[other])]
    result = advance(tables)
    assert result.champion == 2
    assert result.advancers[0].text.text() == (
        "Won table 1. Decided by a tie-break: other: highest card cut."
    )


def test_a_tie_break_among_players_who_all_go_on_decides_nothing() -> None:
    coin = TieBreak(TieBreakMethod.COIN_TOSS, (2, 1))
    tables = [
        table(1, [(1, 10), (2, 10)], [(3, 30)], [(4, 40)], tie_breaks=[coin]),
        table(2, [(5, 15)], [(6, 25)], [(7, 35)], [(8, 45)]),
    ]
    result = advance(tables, top_k=2)
    assert result.outcome(2).reason is Reason.WON_TABLE
    assert result.outcome(1).reason is Reason.PLACED
    assert result.outcome(1).tie_break is None
    # The place itself was still set by the coin, which the final ranking uses.
    assert result.outcome(1).placing.tie_break == coin


def test_a_partial_tie_break_leaves_the_rest_tied() -> None:
    draw = TieBreak(TieBreakMethod.CARD_DRAW, (3,))
    tables = [table(1, [(1, 10), (2, 10), (3, 10)], [(4, 40)], tie_breaks=[draw])]
    result = advance(tables)
    assert result.champion == 3
    assert [(o.player, o.placing.place_label) for o in result.eliminated] == [
        (1, "=2"),
        (2, "=2"),
        (4, "4"),
    ]


def test_a_partial_tie_break_that_does_not_reach_the_cut_still_blocks() -> None:
    draw = TieBreak(TieBreakMethod.CARD_DRAW, (3,))
    tables = [
        table(1, [(1, 10), (2, 10), (3, 10)], [(4, 40)], tie_breaks=[draw]),
        table(2, [(5, 15)], [(6, 25)], [(7, 35)], [(8, 45)]),
    ]
    with pytest.raises(RuleViolation) as info:
        advance(tables, top_k=2)
    assert info.value.code == "tie_unresolved"
    assert "Aino, Bertta" in info.value.message and "Cecilia" not in info.value.message
    (tie,) = pending_ties(tables, top_k=2)
    assert (tie.table, tie.place, tie.going_on) == (1, 2, 1)


def test_a_tie_break_that_matches_no_tie_is_refused() -> None:
    stale = TieBreak(TieBreakMethod.COIN_TOSS, (2, 1))  # 1 and 2 are not tied
    with pytest.raises(RuleViolation) as info:
        advance(two_tables(tie_breaks_1=[stale]))
    assert info.value.code == "tie_break_stale"
    assert "Table 1" in info.value.message and "Bertta, Aino" in info.value.message


def test_two_tie_breaks_for_one_tie_are_refused() -> None:
    tables = [
        table(
            1,
            [(1, 10), (2, 10)],
            [(3, 30)],
            tie_breaks=[
                TieBreak(TieBreakMethod.COIN_TOSS, (1, 2)),
                TieBreak(TieBreakMethod.CARD_DRAW, (2, 1)),
            ],
        )
    ]
    with pytest.raises(RuleViolation) as info:
        advance(tables)
    assert info.value.code == "tie_break_twice"


def test_a_table_no_bigger_than_the_cut_is_refused() -> None:
    tables = [table(1, [(1, 1)], [(2, 2)], [(3, 3)]), table(2, [(4, 1)], [(5, 2)], [(6, 3)])]
    with pytest.raises(RuleViolation) as info:
        advance(tables, top_k=3)
    assert info.value.code == "top_k_too_large"
    assert "Table 1 seats 3 players" in info.value.message


# -- lucky losers --------------------------------------------------------------------------------


def three_tables() -> list[StageTable[int]]:
    return [
        table(1, [(1, 10)], [(2, 50)], [(3, 60)], [(4, 70)]),
        table(2, [(5, 10)], [(6, 30)], [(7, 20)], [(8, 90)]),  # 7 is third with fewer points
        table(3, [(9, 10)], [(10, 40)], [(11, 80)], [(12, 95)]),
    ]


def test_lucky_losers_fill_the_next_stage_by_the_stage_ranking() -> None:
    result = advance(three_tables(), lucky_losers=True)
    # Three winners fill one table of the preferred four: the best second goes on.
    assert result.players == (1, 5, 9, 6)
    lucky = result.outcome(6)
    assert lucky.reason is Reason.LUCKY_LOSER and lucky.advances
    assert lucky.text.text() == (
        "Lucky loser: place 2 at table 2, among the best of those not going on."
    )
    assert result.lucky_losers == 1
    assert result.next_sizes == (4,)
    # A third with fewer points does not beat a second: the place at the table comes first.
    assert result.outcome(7).reason is Reason.KNOCKED_OUT


def test_lucky_losers_are_off_by_default() -> None:
    result = advance(three_tables())
    assert result.players == (1, 5, 9)
    assert result.next_sizes == (3,)
    assert result.lucky_losers == 0


def test_a_tie_for_the_last_lucky_loser_must_be_settled() -> None:
    tables = three_tables()
    tables[2] = table(3, [(9, 10)], [(10, 30)], [(11, 80)], [(12, 95)])  # 10 equals 6
    with pytest.raises(RuleViolation) as info:
        advance(tables, lucky_losers=True)
    assert info.value.code == "lucky_loser_tie_unresolved"
    assert "Fanni, Jussi" in info.value.message
    (tie,) = pending_ties(tables, lucky_losers=True)
    assert (tie.table, tie.lucky_losers, tie.going_on) == (None, True, 1)

    draw = TieBreak(TieBreakMethod.CARD_DRAW, (10, 6))
    result = advance(tables, lucky_losers=True, stage_tie_breaks=[draw])
    assert result.players[-1] == 10
    assert result.outcome(10).reason is Reason.LUCKY_LOSER
    assert result.outcome(10).tie_break == draw
    assert result.outcome(6).reason is Reason.LOST_TIE_BREAK
    assert "card draw" in result.outcome(10).text.text()


def test_a_stage_tie_break_that_matches_nothing_is_refused() -> None:
    stale = TieBreak(TieBreakMethod.COIN_TOSS, (6, 10))  # 40 and 30: not tied
    with pytest.raises(RuleViolation) as info:
        advance(three_tables(), lucky_losers=True, stage_tie_breaks=[stale])
    assert info.value.code == "tie_break_stale"


@pytest.mark.parametrize(
    ("advancers", "entrants", "expected"),
    [
        (7, 28, 8),  # two tables of four
        (9, 36, 12),  # three tables of four
        (2, 8, 4),  # a final of four, not of two
        (3, 12, 4),
        (4, 16, 4),
        (5, 20, 5),  # fits one table of at least four: the final as it is
        (6, 24, 6),
        (1, 4, 1),  # the champion
        (10, 12, 10),  # twelve would bring back everyone: nobody added
        (13, 60, 16),
    ],
)
def test_lucky_loser_target(advancers: int, entrants: int, expected: int) -> None:
    assert lucky_loser_target(advancers, entrants, DEFAULT_BOUNDS) == expected


def test_too_few_left_for_lucky_losers_adds_none() -> None:
    tables = [
        table(1, [(1, 1)], [(2, 2)], [(3, 3)]),
        table(2, [(4, 1)], [(5, 2)], [(6, 3)]),
    ]
    # Two winners would be filled to four, but the two best seconds do not show.
    result = advance(tables, lucky_losers=True, no_shows=frozenset({2, 5, 3}))
    assert result.players == (1, 4)
    assert result.lucky_losers == 0


# -- no-shows --------------------------------------------------------------------------------


def test_a_no_show_is_replaced_by_the_next_at_the_table() -> None:
    result = advance(two_tables(), no_shows=frozenset({1}))
    assert result.players == (5, 2)
    replacement = result.outcome(2)
    assert replacement.reason is Reason.REPLACES_NO_SHOW
    assert [e.player for e in replacement.replaces] == [1]
    assert replacement.text.text() == (
        "Place 2 at table 1; goes on in place of Aino, who will not play."
    )
    assert result.outcome(1).reason is Reason.NO_SHOW
    assert not result.outcome(1).advances


def test_with_top_two_the_replacement_is_the_third() -> None:
    result = advance(two_tables(), top_k=2, no_shows=frozenset({1}))
    assert set(result.players) == {2, 3, 5, 6}
    assert result.outcome(2).reason is Reason.PLACED
    assert result.outcome(3).reason is Reason.REPLACES_NO_SHOW


def test_a_no_show_whose_replacements_are_tied_needs_a_tie_break() -> None:
    tables = [
        table(1, [(1, 10)], [(2, 20), (3, 20)], [(4, 40)]),
        table(2, [(5, 15)], [(6, 25)], [(7, 35)]),
    ]
    with pytest.raises(RuleViolation) as info:
        advance(tables, no_shows=frozenset({1}))
    assert "Table 1" in info.value.message and "Bertta, Cecilia" in info.value.message
    assert "Aino" not in info.value.message
    settled = [
        table(
            1,
            [(1, 10)],
            [(2, 20), (3, 20)],
            [(4, 40)],
            tie_breaks=[TieBreak(TieBreakMethod.PLAYOFF_DEAL, (3, 2))],
        ),
        tables[1],
    ]
    result = advance(settled, no_shows=frozenset({1}))
    assert result.outcome(3).reason is Reason.REPLACES_NO_SHOW
    assert result.outcome(2).reason is Reason.LOST_TIE_BREAK


def test_no_shows_at_the_final_change_nothing() -> None:
    result = advance([table(1, [(1, 10)], [(2, 20)])], no_shows=frozenset({1}))
    assert result.champion == 1


def test_nobody_left_to_go_on_is_refused() -> None:
    tables = [table(1, [(1, 1)], [(2, 2)], [(3, 3)]), table(2, [(4, 1)], [(5, 2)], [(6, 3)])]
    with pytest.raises(RuleViolation) as info:
        advance(tables, no_shows=frozenset(range(1, 7)))
    assert info.value.code == "nobody_advances"


def test_a_single_player_left_is_the_champion() -> None:
    tables = [table(1, [(1, 1)], [(2, 2)], [(3, 3)]), table(2, [(4, 1)], [(5, 2)], [(6, 3)])]
    result = advance(tables, no_shows=frozenset({4, 5, 6}))
    assert result.champion == 1 and result.over
    assert result.next_sizes == ()


# -- the final and the seating -------------------------------------------------------------------


def test_a_stage_of_one_table_crowns_its_winner_whatever_k() -> None:
    result = advance([table(1, [(1, 10)], [(2, 20)], [(3, 30)], [(4, 40)])], top_k=2)
    assert result.over and result.champion == 1
    assert result.players == (1,)
    assert result.outcome(2).reason is Reason.KNOCKED_OUT


def test_two_entrants_play_one_table_of_two() -> None:
    (seating,) = draw_stage([1, 2], bounds=DEFAULT_BOUNDS, seed=5)
    assert sorted(seating) == [1, 2]
    result = advance([table(1, [(2, 30)], [(1, 45)])])
    assert result.champion == 2
    championship = simulate_championship(2, seed=1)
    assert len(championship.stages) == 1
    assert [len(t) for t in championship.stages[0].seating] == [2]
    assert championship.ranking[0].champion


def test_one_entrant_is_no_championship() -> None:
    with pytest.raises(RuleViolation) as info:
        draw_stage([1], bounds=DEFAULT_BOUNDS, seed=1)
    assert info.value.code == "championship_too_few"
    assert info.value.message == "1 player checked in; a championship needs at least 2."
    with pytest.raises(RuleViolation):
        simulate_championship(1)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (2, [2]),
        (3, [3]),
        (5, [5]),
        (6, [6]),  # one table fits: the final, not two tables of three
        (7, [4, 3]),
        (9, [5, 4]),
        (25, [5, 4, 4, 4, 4, 4]),
        (250, [4] * 61 + [3] * 2),
    ],
)
def test_stage_sizes(players: int, sizes: list[int]) -> None:
    assert stage_sizes(players, DEFAULT_BOUNDS) == sizes


def test_a_final_of_two_below_the_minimum_is_allowed() -> None:
    assert stage_sizes(2, TableBounds(4, 6, 4)) == [2]
    assert stage_sizes(3, TableBounds(4, 6, 4)) == [3]


def test_the_next_stage_is_drawn_reproducibly() -> None:
    players = list(range(1, 41))
    tables = [
        StageTable.from_order(n + 1, [tp(p, (p * 7) % 40) for p in players[4 * n : 4 * n + 4]])
        for n in range(10)
    ]
    result = advance(tables, top_k=2)
    assert len(result.players) == 20
    first = next_stage(result, bounds=DEFAULT_BOUNDS, seed=11)
    assert next_stage(result, bounds=DEFAULT_BOUNDS, seed=11) == first
    assert next_stage(result, bounds=DEFAULT_BOUNDS, seed=12) != first
    assert tuple(len(t) for t in first) == result.next_sizes == (4, 4, 4, 4, 4)
    assert sorted(p for t in first for p in t) == sorted(result.players)


def test_no_next_stage_after_the_final() -> None:
    result = advance([table(1, [(1, 10)], [(2, 20)])])
    with pytest.raises(RulesError):
        next_stage(result, bounds=DEFAULT_BOUNDS, seed=1)


def test_advancers_who_cannot_be_seated_are_refused_before_the_stage_closes() -> None:
    fours = TableBounds(4, 4, 4)
    tables = [
        StageTable.from_order(n + 1, [tp(4 * n + s, 10 * s + n) for s in range(1, 5)])
        for n in range(7)
    ]
    with pytest.raises(RuleViolation) as info:
        advance(tables, bounds=fours)
    assert info.value.code == "stage_unseatable"
    assert "7 players going on" in info.value.message
    # Lucky losers make it eight: two tables of four.
    assert advance(tables, bounds=fours, lucky_losers=True).next_sizes == (4, 4)


# -- the final ranking -----------------------------------------------------------------------------


def test_final_ranking_champion_then_stage_reached_then_result() -> None:
    stage1 = advance(
        [
            table(1, [(1, 10)], [(2, 20)], [(3, 30)]),
            table(2, [(4, 12)], [(5, 20)], [(6, 30)]),  # 5 and 2: same place, same total
            table(3, [(7, 11)], [(8, 25)], [(9, 35)]),
        ]
    )
    assert stage1.players == (1, 7, 4)
    stage2 = advance([table(1, [(7, 5)], [(4, 9), (1, 9)])])
    rows = final_ranking([stage1, stage2])
    assert [(r.label, r.name, r.stage) for r in rows] == [
        ("1", "Gustav", 2),
        ("=2", "Dan", 2),  # tied at the final: a shared place, never an arbitrary order
        ("=2", "Aino", 2),
        ("=4", "Bertta", 1),
        ("=4", "Eero", 1),
        ("6", "Helmi", 1),
        ("=7", "Cecilia", 1),
        ("=7", "Fanni", 1),
        ("9", "Ilona", 1),
    ]
    assert rows[0].champion and not any(r.champion for r in rows[1:])


def test_final_ranking_respects_a_tie_break_at_the_final() -> None:
    stage1 = advance(two_tables())
    final = advance(
        [table(1, [(1, 10), (5, 10)], tie_breaks=[TieBreak(TieBreakMethod.COIN_TOSS, (5, 1))])]
    )
    rows = final_ranking([stage1, final])
    assert [(r.label, r.player) for r in rows[:2]] == [("1", 5), ("2", 1)]


def test_final_ranking_needs_a_finished_championship() -> None:
    with pytest.raises(RulesError):
        final_ranking([advance(two_tables())])


# -- building a stage from the engine's standing ----------------------------------------------


def deal(points: tuple[int, ...], out: int | None) -> DealScore:
    return DealScore(points=points, flags={"went_out": out, "ravaytys": False})


def test_a_table_from_a_rutupeli_standing_keeps_its_unsettled_tie() -> None:
    from tournaments.engine.advancement import table_from_standing

    # Seats 0 and 1 level on total, last game and games won: the game cannot tell them apart.
    deals = [deal((10, 0, 40), 1), deal((0, 10, 40), 0)] * 3 + [deal((5, 5, 0), 2)]
    standing = table_standing(get_variant("rutupeli"), 3, deals)
    stage_table = table_from_standing(
        number=4, players=[31, 32, 33], names=["Aino", "Bertta", "Cecilia"], standing=standing
    )
    assert [[e.player for e in group] for group in stage_table.places] == [[31, 32], [33]]
    with pytest.raises(RuleViolation) as info:
        advance([stage_table, table(5, [(1, 1)], [(2, 2)], [(3, 3)])])
    assert "Table 4: Aino, Bertta" in info.value.message


def test_a_table_from_a_standing_that_is_not_finished_is_refused() -> None:
    from tournaments.engine.advancement import table_from_standing

    standing = TableStanding(
        totals=(10, 20, 30), lower_is_better=True, finished=False, ranking=(0, 1, 2), winner=None
    )
    with pytest.raises(RuleViolation) as info:
        table_from_standing(number=2, players=[1, 2, 3], names=["a", "b", "c"], standing=standing)
    assert info.value.code == "table_not_finished"


def test_a_table_from_a_standing_where_higher_is_better() -> None:
    from tournaments.engine.advancement import table_from_standing

    standing = TableStanding(
        totals=(150, 40), lower_is_better=False, finished=True, ranking=(0, 1), winner=0
    )
    stage_table = table_from_standing(number=1, players=[7, 8], names=["a", "b"], standing=standing)
    assert [e.key for e in stage_table.players] == [(-150,), (-40,)]


# -- small pieces -------------------------------------------------------------------------------


def test_the_reason_texts_go_through_the_translation() -> None:
    catalogue = {"Won table %(table)d.": "Voitti pöydän %(table)d.", "card draw": "kortin veto"}
    draw = TieBreak(TieBreakMethod.CARD_DRAW, (2, 1))
    result = advance([table(1, [(1, 10), (2, 10)], tie_breaks=[draw])])
    text = result.advancers[0].text.text(lambda s: catalogue.get(s, s))
    assert text == "Voitti pöydän 1. Decided by a tie-break: kortin veto."


def test_tie_break_methods_are_a_fixed_list() -> None:
    assert [value for value, _label in TieBreakMethod.choices()] == [
        "playoff_deal",
        "card_draw",
        "coin_toss",
        "other",
    ]
    assert TieBreak("coin_toss", (1, 2)).method is TieBreakMethod.COIN_TOSS  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        TieBreak("dice", (1, 2))  # type: ignore[arg-type]


def test_bad_input_is_a_bug_not_a_players_mistake() -> None:
    with pytest.raises(RulesError):
        StageTable(1, ((tp(1, 1), tp(2, 2)),))  # tied players with different keys
    with pytest.raises(RulesError):
        StageTable(1, ((tp(1, 1),), (tp(1, 2),)))  # a player twice
    with pytest.raises(RulesError):
        advance([table(1, [(1, 1)], [(2, 2)]), table(1, [(3, 1)], [(4, 2)])])  # table twice
    with pytest.raises(RulesError):
        advance([table(1, [(1, 1)], [(2, 2)], [(3, 3)]), table(2, [(1, 1)], [(4, 2)], [(5, 3)])])
    with pytest.raises(RulesError):
        advance(two_tables(), top_k=0)


# -- whole championships -------------------------------------------------------------------------


@pytest.mark.parametrize("entrants", [2, 3, 5, 7, 24, 100, 1000])
@pytest.mark.parametrize("top_k", [1, 2])
def test_whole_championships(entrants: int, top_k: int) -> None:
    championship = simulate_championship(entrants, top_k=top_k, seed=entrants * 10 + top_k)
    check_championship(championship, top_k, DEFAULT_BOUNDS)


@pytest.mark.parametrize("entrants", [5, 7, 24, 100, 1000])
@pytest.mark.parametrize("top_k", [1, 2])
def test_whole_championships_with_lucky_losers_and_no_shows(entrants: int, top_k: int) -> None:
    championship = simulate_championship(
        entrants, top_k=top_k, seed=entrants, lucky_losers=True, no_show_rate=0.2
    )
    check_championship(championship, top_k, DEFAULT_BOUNDS)
    reasons = Counter(o.reason for s in championship.stages for o in s.advancement.advancers)
    if entrants >= 100:
        assert reasons[Reason.LUCKY_LOSER] and reasons[Reason.REPLACES_NO_SHOW]


def test_the_simulator_is_reproducible() -> None:
    one = simulate_championship(100, top_k=2, seed=9, lucky_losers=True, no_show_rate=0.1)
    two = simulate_championship(100, top_k=2, seed=9, lucky_losers=True, no_show_rate=0.1)
    assert [r.player for r in one.ranking] == [r.player for r in two.ranking]
    assert one.champion == two.champion


def test_a_tie_at_the_final_is_a_tie_for_the_championship() -> None:
    with pytest.raises(RuleViolation) as info:
        advance([table(1, [(1, 10), (2, 10)], [(3, 30)])])
    assert info.value.code == "tie_unresolved"
    assert info.value.message.startswith("The final: Aino, Bertta are tied for the win.")


def test_a_long_list_of_ties_names_the_first_tables_and_counts_the_rest() -> None:
    tables = [
        StageTable.from_order(n, [tp(3 * n, 1), tp(3 * n + 1, 1), tp(3 * n + 2, 2)])
        for n in range(1, 15)
    ]
    with pytest.raises(RuleViolation) as info:
        advance(tables)
    message = info.value.message
    assert message.startswith("14 tables have ties")
    assert "table 10: P30, P31" in message and "table 11" not in message
    assert "and 4 more" in message
    assert info.value.params["tables"] == list(range(1, 15))


def test_the_modules_example_runs() -> None:
    import doctest

    import tournaments.engine.advancement

    failed, tried = doctest.testmod(tournaments.engine.advancement)
    assert tried and not failed
