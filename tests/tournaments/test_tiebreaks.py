"""An event's tie-break precedence: the names, each game's default, checking a director's
list, and the order it gives players equal on the total, shared places included.

Pure functions: no database. A table row is (player, total, last deal, deals won,
räväytys, table, place at the table); the expected standings are "place:player:decided".
"""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import RuleViolation
from tournaments.engine import tiebreaks
from tournaments.engine.tiebreaks import (
    Contender,
    TieBreakName,
    allowed_tie_breaks,
    default_tie_breaks,
    rank_by_precedence,
    tie_break_label,
    tie_break_precedence,
    tie_break_short_label,
)


def contenders(*rows: tuple[str, int, int, int, int, int | None, int]) -> list[Contender[str]]:
    return [
        Contender(
            player=name,
            score=(total,),
            last_deal=last,
            deals_won=won,
            ravaytys=rav,
            table=table,
            table_place=table_place,
        )
        for name, total, last, won, rav, table, table_place in rows
    ]


def standings(rows, precedence, orders=()) -> list[str]:
    return [
        f"{p.place_label}:{p.contender.player}:{p.decided_by or '-'}"
        for p in rank_by_precedence(contenders(*rows), precedence, orders)
    ]


ALL = ("total", "last_deal", "deals_won", "ravaytys", "director", "head_to_head")

# fmt: off
CASES = [
    pytest.param(
        [("A", 40, 0, 1, 0, 1, 1), ("B", 30, 5, 0, 0, 2, 1)], ALL, (),
        ["1:B:-", "2:A:total"], id="the-total-first",
    ),
    pytest.param(
        [("A", 30, 10, 2, 0, 1, 1), ("B", 30, 5, 0, 0, 2, 1)], ALL, (),
        ["1:B:-", "2:A:last_deal"], id="fewer-in-the-last-deal",
    ),
    pytest.param(
        [("A", 30, 10, 2, 0, 1, 1), ("B", 30, 5, 0, 0, 2, 1)],
        ("total", "deals_won", "last_deal"), (),
        ["1:A:-", "2:B:deals_won"], id="the-director-puts-deals-won-first",
    ),
    pytest.param(
        [("A", 30, 5, 1, 0, 1, 1), ("B", 30, 5, 2, 0, 2, 1)], ALL, (),
        ["1:B:-", "2:A:deals_won"], id="more-deals-won",
    ),
    pytest.param(
        [("A", 30, 5, 2, 0, 1, 1), ("B", 30, 5, 2, 1, 2, 1)], ALL, (),
        ["1:B:-", "2:A:ravaytys"], id="more-ravaytys",
    ),
    pytest.param(
        [("A", 30, 5, 2, 1, 1, 2), ("B", 30, 5, 2, 1, 1, 1)], ALL, (),
        ["1:B:-", "2:A:head_to_head"], id="head-to-head-at-one-table",
    ),
    pytest.param(
        [("A", 30, 5, 2, 1, 1, 2), ("B", 30, 5, 2, 1, 2, 1)], ALL, (),
        ["=1:A:-", "=1:B:-"], id="players-who-never-met-share",
    ),
    pytest.param(
        [("A", 30, 5, 2, 1, 1, 2), ("B", 30, 5, 2, 1, 2, 1)], ALL, (("B", "A"),),
        ["1:B:-", "2:A:director"], id="the-directors-tie-break",
    ),
    pytest.param(
        [("A", 30, 5, 2, 1, 1, 2), ("B", 30, 5, 2, 1, 1, 1)],
        ("total", "director", "head_to_head"), (("A", "B"),),
        ["1:A:-", "2:B:director"], id="the-director-before-the-seat-order",
    ),
    pytest.param(
        [("A", 30, 5, 2, 1, 1, 2), ("B", 30, 5, 2, 1, 2, 1), ("C", 30, 5, 2, 1, 3, 1)],
        ALL, (("B", "A"),),
        ["=1:A:-", "=1:B:-", "=1:C:-"], id="a-tie-break-naming-only-some-decides-nothing",
    ),
    pytest.param(
        [("A", 30, 5, 2, 1, 1, 2), ("B", 30, 5, 2, 1, 2, 1)], ALL, (("A", "B"), ("B", "A")),
        ["1:B:-", "2:A:director"], id="the-latest-tie-break-counts",
    ),
    pytest.param(
        [("A", 30, 0, 0, 0, 1, 1), ("B", 30, 0, 0, 0, 1, 2),
         ("C", 30, 0, 0, 0, 2, 1), ("D", 30, 0, 0, 0, 2, 2)], ALL, (),
        ["=1:A:-", "=1:C:-", "=3:B:head_to_head", "=3:D:-"],
        id="head-to-head-ranks-within-each-table",
    ),
    pytest.param(
        [("A", 10, 0, 0, 0, 1, 1), ("B", 20, 3, 0, 0, 2, 1), ("C", 20, 3, 0, 0, 3, 1),
         ("D", 20, 1, 0, 0, 4, 1), ("E", 25, 0, 0, 0, 1, 2)], ALL, (),
        ["1:A:-", "2:D:total", "=3:B:last_deal", "=3:C:-", "5:E:total"],
        id="a-shared-place-and-the-next-place-skips",
    ),
    pytest.param(
        [("A", 30, 10, 0, 0, 1, 1), ("B", 30, 5, 0, 0, 2, 1)], ("total",), (),
        ["=1:A:-", "=1:B:-"], id="total-alone-shares-every-tie",
    ),
]
# fmt: on


@pytest.mark.parametrize(("rows", "precedence", "orders", "expected"), CASES)
def test_the_precedence_orders_tied_players(rows, precedence, orders, expected):
    assert standings(rows, precedence, orders) == expected


def test_the_directors_tie_breaks_are_read_only_when_a_tie_reaches_them():
    calls = []

    def orders():
        calls.append(1)
        return [("B", "A")]

    untied = [("A", 10, 0, 0, 0, 1, 1), ("B", 20, 0, 0, 0, 2, 1)]
    assert standings(untied, ALL, orders) == ["1:A:-", "2:B:total"]
    assert calls == []
    tied = [("A", 20, 0, 0, 0, 1, 1), ("B", 20, 0, 0, 0, 2, 1), ("C", 20, 0, 0, 0, 3, 1)]
    assert standings(tied, ALL, orders) == ["=1:A:-", "=1:B:-", "=1:C:-"]
    assert calls == [1]


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("ravaytys", ("total", "last_deal", "deals_won", "ravaytys", "director", "head_to_head")),
        ("rutupeli", ("total", "last_deal", "deals_won", "director", "head_to_head")),
        ("tizlapos_romi", ("total", "last_deal", "deals_won", "director", "head_to_head")),
    ],
)
def test_each_game_has_its_default(game, expected):
    assert default_tie_breaks(game) == expected
    assert tie_break_precedence([], game=game) == expected
    assert tie_break_precedence(None, game=game) == expected
    assert rules.game_spec(game).default_tie_breaks == expected[1:]


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        (["deals_won"], ("total", "deals_won")),
        (["total", "director", "last_deal"], ("total", "director", "last_deal")),
        (("head_to_head",), ("total", "head_to_head")),
        (["total"], ("total",)),
    ],
)
def test_a_directors_list_is_taken_with_the_total_first(order, expected):
    assert tie_break_precedence(order, game="rutupeli") == expected


@pytest.mark.parametrize(
    ("order", "game", "words"),
    [
        (["coin"], "rutupeli", "Unknown tie-break: coin."),
        ([3], "rutupeli", "Unknown tie-break: 3."),
        ("last_deal", "rutupeli", "The tie-breaks must be a list of their names, in order."),
        (["last_deal", "last_deal"], "rutupeli", "A tie-break is listed twice: last_deal."),
        (["last_deal", "total"], "rutupeli", "The total comes first; the tie-breaks follow it."),
        (
            ["ravaytys"],
            "rutupeli",
            "ravaytys is not a tie-break of this game (it records no räväytys).",
        ),
    ],
)
def test_a_bad_list_is_refused_with_its_reason(order, game, words):
    with pytest.raises(RuleViolation) as caught:
        tie_break_precedence(order, game=game)
    assert caught.value.code == "tie_breaks" and caught.value.field == "tie_breaks"
    assert caught.value.message == words


def test_the_ravaytys_is_offered_only_where_the_game_records_it():
    assert "ravaytys" in allowed_tie_breaks("ravaytys")
    assert "ravaytys" not in allowed_tie_breaks("rutupeli")
    assert tie_break_precedence(["ravaytys"], game="ravaytys") == ("total", "ravaytys")


def test_every_name_has_its_words():
    for name in TieBreakName:
        assert tie_break_label(name.value) == name.label and name.label
        assert tie_break_short_label(name.value) == name.short_label and name.short_label


def test_a_precedence_must_start_with_the_total():
    with pytest.raises(rules.RulesError):
        rank_by_precedence(contenders(("A", 1, 0, 0, 0, 1, 1)), ("last_deal",))


def test_the_examples_in_the_module_hold():
    assert doctest.testmod(tiebreaks).failed == 0


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 3),  # total
            st.one_of(st.none(), st.integers(1, 4)),  # table (None: sat at none)
            st.integers(1, 5),  # place at the table
        ),
        max_size=14,
    )
)
def test_head_to_head_ranks_each_player_by_whom_they_beat_at_their_own_table(rows):
    """Counted table by table (a hall-wide tie is a thousand players), it is still what
    the rule says: among the tied, how many from one's own table placed above one."""
    group = contenders(
        *((f"P{i}", total, 0, 0, 0, table, place) for i, (total, table, place) in enumerate(rows))
    )
    keys = tiebreaks._keys("head_to_head", group, lambda: ())
    assert keys == [
        sum(
            1
            for other in group
            if other.table is not None
            and other.table == c.table
            and other.table_place < c.table_place
        )
        for c in group
    ]
