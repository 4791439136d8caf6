"""Two phones saving the same table at the same moment, in real concurrent transactions.

PostgreSQL only: SQLite serialises whole-database writes, which proves nothing about locks.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from scoring.models import Deal, DealVersion
from scoring.services import Actor, StaleDeal, deal_record
from tests.scoring.conftest import seated_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ENTRY_A = {"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "AS", "7H", "QS")]}
ENTRY_B = {"out": 1, "players": [{"cards": c, "buys": 0} for c in ("KD", None, "7H", "QS")]}


def race(table, calls):
    """Run each (entry, actor, request_id) in its own thread and connection, all at once."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(index, entry, actor, request_id):
        try:
            barrier.wait()
            outcomes[index] = deal_record(
                table=table,
                number=1,
                entry=entry,
                by=actor,
                expected_version=0,
                request_id=request_id,
            )
        except Exception as error:
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, *call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


def test_two_phones_one_deal_exactly_one_wins():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    outcomes = race(
        table,
        [
            (ENTRY_A, Actor(device="phone-a", seat=0), "a"),
            (ENTRY_B, Actor(device="phone-b", seat=1), "b"),
        ],
    )
    saved = [o for o in outcomes if isinstance(o, Deal)]
    refused = [o for o in outcomes if isinstance(o, StaleDeal)]
    assert len(saved) == 1 and len(refused) == 1, outcomes
    assert refused[0].current.pk == saved[0].pk
    deal = Deal.objects.get()
    assert deal.version == 1
    assert DealVersion.objects.count() == 1
    assert deal.entry == (ENTRY_A if saved[0].submitted_device == "phone-a" else ENTRY_B)


def test_double_tap_racing_itself_records_once():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    actor = Actor(device="phone-a", seat=0)
    outcomes = race(table, [(ENTRY_A, actor, "same"), (ENTRY_A, actor, "same")])
    assert all(isinstance(o, Deal) for o in outcomes), outcomes
    assert DealVersion.objects.count() == 1
    assert Deal.objects.get().version == 1
