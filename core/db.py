"""Transactions for writes that lock rows: a bounded wait, and a retry instead of a 500.

Lock order, in every service that takes more than one lock: event → stage → table(s), each
kind in primary-key order. A service that needs only a table locks only that row
(`select_for_update(of=("self",))`), so a phone's save never waits on, or deadlocks with, a
director's work elsewhere in the event.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from django.db import OperationalError, connection, transaction

from rules import RuleViolation
from rules.i18n import _

P = ParamSpec("P")
R = TypeVar("R")

log = logging.getLogger(__name__)

ATTEMPTS = 3
# How long one statement may wait for a row lock on PostgreSQL before it gives up and the
# write is tried again; SQLite waits on its own busy timeout (settings).
LOCK_TIMEOUT_MS = 5000

# PostgreSQL's SQLSTATEs for a lock we may simply try again: deadlock, lock timeout,
# serialization failure. SQLite says "database is locked" when its busy timeout runs out.
_RETRY_SQLSTATES = {"40P01", "55P03", "40001"}


def _is_lock_conflict(error: OperationalError) -> bool:
    cause = error.__cause__
    sqlstate = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if sqlstate in _RETRY_SQLSTATES:
        return True
    return "database is locked" in str(error) or "database table is locked" in str(error)


def busy() -> RuleViolation:
    return RuleViolation(
        _("The table is busy with another save. Nothing was lost: tap the button again."),
        code="busy",
    )


@dataclass(frozen=True)
class Refusal:
    """Returned (not raised) by a locked write that refuses but must keep what it wrote on
    the way: a wrong PIN is refused, and counted. `locked_write` commits, then raises
    `violation`."""

    violation: RuleViolation


def locked_write(func: Callable[P, R | Refusal]) -> Callable[P, R]:
    """Run `func` in its own transaction with a bounded lock wait; retry on a lock conflict.

    Inside an outer transaction (a test, or a caller that already holds the locks) the retry
    runs in a savepoint, which PostgreSQL rolls back cleanly after a deadlock. When every
    attempt meets a conflict the person is told to try again (RuleViolation "busy"): nothing
    was saved and the page keeps what they typed. A `Refusal` returned by `func` is raised
    once its transaction has committed.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                with transaction.atomic():
                    if connection.vendor == "postgresql":
                        with connection.cursor() as cursor:
                            cursor.execute(f"SET LOCAL lock_timeout = {LOCK_TIMEOUT_MS}")
                    outcome = func(*args, **kwargs)
            except OperationalError as error:
                if not _is_lock_conflict(error):
                    raise
                log.warning("%s: lock conflict (attempt %d): %s", func.__name__, attempt, error)
                if attempt == ATTEMPTS:
                    raise busy() from error
                time.sleep(0.05 * attempt)
                continue
            if isinstance(outcome, Refusal):
                raise outcome.violation
            return outcome
        raise AssertionError("unreachable")

    return wrapper
