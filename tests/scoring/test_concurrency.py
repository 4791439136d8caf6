"""Two phones saving the same table at the same moment, in real concurrent transactions.

PostgreSQL only: SQLite serialises whole-database writes, which proves nothing about locks.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from rules import RuleViolation
from scoring.models import Deal, DealVersion
from scoring.services import Actor, StaleDeal, TableClosed, _locked_table, deal_record
from tests.support.entry import ENTRY_A
from tests.support.events import seated_event
from tournaments.models import Stage
from tournaments.services import stage_draw

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

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


def _hold_table_lock(table, locked: threading.Event, release: threading.Event) -> None:
    """Hold table's row lock the way a save in progress does, until told to let go."""
    try:
        with transaction.atomic():
            _locked_table(table)
            locked.set()
            release.wait(timeout=20)
    finally:
        connection.close()


def test_a_save_at_one_table_does_not_wait_for_another_tables_lock():
    _event, (first, second) = seated_event(variant_id="rutupeli", players=8)
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_table_lock, args=(first, locked, release))
    holder.start()
    try:
        assert locked.wait(timeout=10)
        started = time.monotonic()
        deal_record(
            table=second,
            number=1,
            entry=ENTRY_A,
            by=Actor(device="phone-c", seat=0),
            expected_version=0,
            request_id="c",
        )
        waited = time.monotonic() - started
    finally:
        release.set()
        holder.join(timeout=30)
    print(f"save at table 2 while table 1 was locked: {waited * 1000:.0f} ms")
    # The lock timeout is 5 s; a save that waited on the other table would take that long.
    assert waited < 1.0
    assert Deal.objects.filter(table=second).count() == 1


def _redraw_race_round(seed: int) -> tuple[object, object]:
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    barrier = threading.Barrier(2)
    outcomes: dict[str, object] = {}

    def redraw():
        try:
            barrier.wait()
            outcomes["draw"] = stage_draw(event=event, seed=seed)
        except Exception as error:
            outcomes["draw"] = error
        finally:
            connection.close()

    def first_submit():
        try:
            barrier.wait()
            outcomes["deal"] = deal_record(
                table=table,
                number=1,
                entry=ENTRY_A,
                by=Actor(device="phone-a", seat=0),
                expected_version=0,
                request_id=f"first-{seed}",
            )
        except Exception as error:
            outcomes["deal"] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=redraw), threading.Thread(target=first_submit)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes["draw"], outcomes["deal"]


def test_a_redraw_racing_a_first_submit_never_errors_and_loses_nothing():
    counts = {"deal won": 0, "redraw won": 0}
    for seed in range(12):
        draw, deal = _redraw_race_round(seed)
        if isinstance(deal, Deal):
            # The deal came first: the redraw is refused and the deal is still there.
            assert isinstance(draw, RuleViolation) and draw.code == "draw_has_scores", draw
            assert Deal.objects.filter(pk=deal.pk).exists()
            counts["deal won"] += 1
        else:
            # The redraw came first: the phone is told its link changed; nothing half-saved.
            assert isinstance(deal, TableClosed), deal
            assert isinstance(draw, Stage), draw
            assert not Deal.objects.filter(table__stage=draw).exists()
            counts["redraw won"] += 1
    print(f"redraw racing a first submit, 12 rounds: {counts}")
