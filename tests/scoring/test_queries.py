"""Query counts stay constant as events grow (the Saturday with forty tables)."""

from __future__ import annotations

import pytest

from scoring.services import Actor, deal_record
from tests.support.events import seated_event

pytestmark = pytest.mark.django_db

SIX_HANDS = ["", "AS KD", "7H 7C", "QS", "2D 3D 4D", "10C"]


def six_player_entry():
    return {
        "out": 0,
        "players": [{"cards": hand or None, "points": None, "buys": 0} for hand in SIX_HANDS],
    }


@pytest.mark.parametrize("players", [6, 60])
def test_submitting_a_six_player_deal_takes_at_most_15_queries(
    players, django_assert_max_num_queries
):
    _event, tables = seated_event(variant_id="ravaytys", players=players, preferred=6)
    table = tables[-1]
    assert table.seats.count() == 6
    with django_assert_max_num_queries(15):
        deal_record(
            table=table,
            number=1,
            entry=six_player_entry(),
            by=Actor(device="d", seat=0),
            expected_version=0,
            request_id="q",
        )


def _page_queries(client, event, django_assert_max_num_queries, limit):
    with django_assert_max_num_queries(limit) as captured:
        response = client.get(event.get_absolute_url())
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_ranking_page_queries_do_not_grow_with_players(client, django_assert_max_num_queries):
    small, small_tables = seated_event(variant_id="rutupeli", players=8)
    large, large_tables = seated_event(variant_id="rutupeli", players=1000)
    for tables in (small_tables, large_tables):
        for table in tables[:2]:
            seats = table.seats.count()
            deal_record(
                table=table,
                number=1,
                entry={
                    "out": 0,
                    "players": [{"cards": SIX_HANDS[s] or None, "buys": 0} for s in range(seats)],
                },
                by=Actor(device="d", seat=0),
                expected_version=0,
                request_id=f"r{table.pk}",
            )
    few = _page_queries(client, small, django_assert_max_num_queries, 12)
    many = _page_queries(client, large, django_assert_max_num_queries, 12)
    assert few == many
    assert "Player 1000" in client.get(large.get_absolute_url()).content.decode()
