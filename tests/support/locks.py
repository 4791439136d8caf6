"""Asking PostgreSQL who waits for a lock: the events the concurrency tests wait on."""

from __future__ import annotations

from django.db import connection

from tests.support.waiting import wait_until


def _someone_waits_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        # pg_stat_activity is read once per transaction: clear that copy to see the others now.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return bool(cursor.fetchone()[0])


def waiting_for_a_lock() -> bool:
    """True once another session of this database waits for a lock (fails after 10 s)."""
    return wait_until(_someone_waits_for_a_lock, timeout=10, what="a session waiting for a lock")


def _someone_waits_for_mine() -> bool:
    with connection.cursor() as cursor:
        # pg_locks is read live; pg_blocking_pids names who holds what a waiter wants.
        cursor.execute(
            "SELECT count(*) FROM pg_locks"
            " WHERE NOT granted AND pg_backend_pid() = ANY(pg_blocking_pids(pid))"
        )
        return bool(cursor.fetchone()[0])


def wait_until_blocking_another(*, what: str, timeout: float = 10) -> None:
    """Return once another session waits for a lock this connection holds."""
    wait_until(_someone_waits_for_mine, timeout=timeout, what=what)
