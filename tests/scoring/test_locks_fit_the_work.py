"""A save locks its table and nothing the other tables share: not the event's row, which a
director's redraw or stage close holds while it waits for the tables. Real concurrent
transactions, PostgreSQL only (SQLite locks the whole database)."""

from __future__ import annotations

import logging
import threading
import time
from unittest import mock

import pytest
from django.db import connection, transaction

from rules import RuleViolation
from scoring import services
from scoring.models import Deal
from scoring.services import Actor, deal_confirm, deal_record
from tests.support.events import seated_event
from tests.support.locks import wait_until_blocking_another
from tournaments.models import Event, Table
from tournaments.services import stage_draw

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ENTRY = {"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "AS", "7H", "QS")]}


def _save(table: Table, request_id: str, seat: int = 0) -> Deal:
    return deal_record(
        table=table,
        number=1,
        entry=ENTRY,
        by=Actor(device=f"phone-{request_id}", seat=seat),
        expected_version=0,
        request_id=request_id,
    )


def test_saves_and_confirmations_go_through_while_the_event_row_is_locked():
    """Ten tables saving at once no longer queue on one row: with the event's row held by
    another transaction (as a redraw holds it), a save and a confirmation do not wait."""
    event, tables = seated_event(variant_id="rutupeli", players=8)
    locked, release = threading.Event(), threading.Event()

    def hold_event() -> None:
        try:
            with transaction.atomic():
                Event.objects.select_for_update().get(pk=event.pk)
                locked.set()
                release.wait(timeout=20)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_event)
    holder.start()
    try:
        assert locked.wait(timeout=10)
        started = time.monotonic()
        deal = _save(tables[0], "a")
        deal_confirm(
            deal=deal, by=Actor(device="phone-b", seat=1), expected_version=1, request_id="b"
        )
        _save(tables[1], "c")
        waited = time.monotonic() - started
    finally:
        release.set()
        holder.join(timeout=30)
    print(f"two saves and a confirmation with the event row locked: {waited * 1000:.0f} ms")
    # A save that needed the event's row would wait for the 5 s lock timeout, then retry.
    assert waited < 1.0
    tables[0].refresh_from_db()
    assert tables[0].results_changed_at is not None


def _round(number: int) -> tuple[object, object]:
    """One save that holds its table while a redraw takes the event and waits for it."""
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    real_judge = services.deal_judge
    saving = threading.Event()
    outcomes: dict[str, object] = {}

    def slow_judge(**kwargs):
        saving.set()  # the table is locked now
        # The redraw takes the event's lock meanwhile and waits for this table.
        wait_until_blocking_another(what="the redraw waiting for the table this save holds")
        return real_judge(**kwargs)

    def save() -> None:
        try:
            with mock.patch.object(services, "deal_judge", slow_judge):
                outcomes["deal"] = _save(table, f"round-{number}")
        except Exception as error:
            outcomes["deal"] = error
        finally:
            connection.close()

    def redraw() -> None:
        try:
            assert saving.wait(timeout=10)
            outcomes["draw"] = stage_draw(event=event, seed=3)
        except Exception as error:
            outcomes["draw"] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=save), threading.Thread(target=redraw)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes["deal"], outcomes["draw"]


def test_a_save_holding_its_table_while_a_redraw_holds_the_event_never_deadlocks(caplog):
    """The interleaving that deadlocked: the save has its table, the redraw takes the event
    and waits for that table; the save then must not need the event. Ten rounds, each
    ending with the save kept and the redraw refused, and no lock conflict at all."""
    with caplog.at_level(logging.WARNING, logger="core.db"):
        for number in range(10):
            deal, draw = _round(number)
            assert isinstance(deal, Deal), deal
            assert isinstance(draw, RuleViolation) and draw.code == "draw_has_scores", draw
    conflicts = [r.getMessage() for r in caplog.records if "lock conflict" in r.getMessage()]
    assert not conflicts, f"{len(conflicts)} deadlocks or lock timeouts in 10 rounds: {conflicts}"
