"""The director's manage page reads a stage in the same number of queries whatever its
size: a 60-table stage costs no more queries than a 10-table one (issue 34: the page of a
250-table stage took seconds around the close)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.services import Actor, deal_confirm, deal_record
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role

pytestmark = pytest.mark.django_db

HANDS = ["", "AS KD", "7H 7C 2D", "QS"]
ENTRY = {"out": 0, "players": [{"cards": h or None, "points": None, "buys": 0} for h in HANDS]}


def _stage(tables: int):
    """A stage of `tables` tables of four: deals at most tables, every third one confirmed,
    the last few untouched (as a stage looks mid-evening)."""
    event, seated = seated_event(variant_id="rutupeli", players=tables * 4)
    assert len(seated) == tables
    for index, table in enumerate(seated[: tables - 2]):
        deal = deal_record(
            table=table, number=1, entry=ENTRY, by=Actor(device="a", seat=0),
            expected_version=0, request_id=f"q{index}",
        )  # fmt: skip
        if index % 3 == 0:
            deal_confirm(
                deal=deal, by=Actor(device="b", seat=1), expected_version=deal.version,
                request_id=f"c{index}",
            )  # fmt: skip
    return event


def _manage_queries(tables: int, client, django_assert_max_num_queries) -> int:
    event = _stage(tables)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    url = reverse("event_manage", args=[event.club.slug, event.pk])
    client.get(url)  # the session and the caches as a director's second look finds them
    with django_assert_max_num_queries(40) as captured:
        response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    # Every table is on the page (its heading and history link): the count covers them all.
    assert page.count("<h3>Table ") == tables
    assert page.count("/history/") >= tables
    return len(captured.captured_queries)


def test_the_manage_page_takes_the_same_queries_for_10_tables_as_for_60(
    client, django_assert_max_num_queries
):
    ten = _manage_queries(10, client, django_assert_max_num_queries)
    sixty = _manage_queries(60, client, django_assert_max_num_queries)
    assert ten == sixty
