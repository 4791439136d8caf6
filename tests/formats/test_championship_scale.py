"""Closing a championship stage runs the same queries whatever the stage's size (issue 10).

The stages are built as the bench builds them (tests/bench/bench_championship.py,
`finished_stage`): four tables play their games through deal_record / deal_confirm, the
others get copies of those tables' deals and history.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from formats.championship import championship_stage_close
from scoring.models import Deal, DealStatus, DealVersion
from scoring.selectors import stage_sheets
from tests.bench.bench_championship import DEALS, SEATS, finished_stage
from tournaments.models import Seat, StageStatus

pytestmark = pytest.mark.django_db


def winners(stage) -> list[int]:
    """Who wins each table, as the built games say: at table n, the seat (n - 1) mod 4."""
    return [
        seat.player_id
        for seat in Seat.objects.filter(table__stage=stage).order_by("table__number")
        if seat.position == (seat.table.number - 1) % SEATS
    ]


def test_the_built_stage_is_finished_and_confirmed_everywhere():
    stage, _director = finished_stage(10, name="Built")
    sheets = stage_sheets(stage=stage)
    assert len(sheets) == 10
    assert all(sheet.standing.finished and not sheet.unconfirmed for sheet in sheets)
    assert all(sheet.problem is None for sheet in sheets)
    assert [sheet.standing.ranking[0] for sheet in sheets] == [
        (number - 1) % SEATS for number in range(1, 11)
    ]
    assert Deal.objects.filter(table__stage=stage, status=DealStatus.CONFIRMED).count() == 70
    # Every deal has its history: entered, then confirmed.
    assert DealVersion.objects.filter(deal__table__stage=stage).count() == 10 * DEALS * 2


def test_closing_a_stage_of_60_tables_takes_the_queries_of_one_of_10(
    django_assert_num_queries,
):
    small, small_director = finished_stage(10, name="Small")
    with CaptureQueriesContext(connection) as measured:
        following = championship_stage_close(stage=small, by=small_director, seed=3)
    assert following.tables.count() == 3  # the 10 table winners, at 4 + 3 + 3

    large, director = finished_stage(60, name="Large")
    expected = winners(large)
    with django_assert_num_queries(len(measured.captured_queries)):
        following = championship_stage_close(stage=large, by=director, seed=3)

    large.refresh_from_db()
    assert large.status == StageStatus.FINISHED
    assert [row["player"] for row in large.outcome["advancers"]] == expected
    assert following.number == 2 and following.status == StageStatus.PREVIEW
    assert following.tables.count() == 15
    assert sorted(
        Seat.objects.filter(table__stage=following).values_list("player_id", flat=True)
    ) == sorted(expected)
