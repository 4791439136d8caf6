"""Räväytys is counted by one function (scoring.judge.ravaytys_counts) over the deals a
standing counts: the ranking's badge, the tie-break and the player's record agree."""

from __future__ import annotations

import pytest

from records.selectors import player_record
from rules import DealScore
from scoring.judge import ravaytys_counts, ravaytys_out
from scoring.selectors import event_sheets
from standings.selectors import event_ranking
from tests.support.events import seated_event
from tests.support.records import contract, store

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("flags", "out"),
    [
        ({"went_out": 2, "ravaytys": True}, 2),
        ({"went_out": 2}, None),
        ({"went_out": True, "ravaytys": True}, None),  # a bool is no seat
        ({"went_out": None, "ravaytys": True}, None),
        ("not flags", None),
    ],
)
def test_the_one_reading_of_a_deals_flags(flags, out):
    assert ravaytys_out(flags) == out


def test_counts_only_the_rows_given():
    rows = [
        (1, DealScore(points=(0, 5), flags={"went_out": 0, "ravaytys": True})),
        (2, DealScore(points=(5, 0), flags={"went_out": 1})),
        (3, DealScore(points=(0, 5), flags={"went_out": 0, "ravaytys": True})),
    ]
    assert ravaytys_counts(rows, 2) == [2, 0]
    assert ravaytys_counts(rows[:2], 2) == [1, 0]


def test_the_ranking_and_the_record_agree():
    event, (table,) = seated_event(variant_id="ravaytys", players=4)
    seats = list(table.seats.order_by("position"))
    a, b, c, d = (seat.player for seat in seats)
    store(
        table,
        [
            contract(table, a, {b: 15, c: 40, d: 5}, ravaytys=True),
            contract(table, c, {a: 15, b: 10, d: 5}, ravaytys=True),
            contract(table, a, {b: 5, c: 10, d: 5}),
        ],
    )
    rows = {
        row.player_id: row for row in event_ranking(event=event, sheets=event_sheets(event=event))
    }
    assert (rows[a.pk].ravaytys, rows[c.pk].ravaytys, rows[b.pk].ravaytys) == (1, 1, 0)
    for player, expected in ((a, 1), (c, 1), (b, 0)):
        (row,) = player_record(player=player).rows
        assert row.ravaytys == expected, player
