"""The league table's recomputation as a Celery job, queued when a transaction commits.

The job takes the season's id, is safe to run twice (it stores a whole table computed from
the results as they are), skips a table already current, and retries when the database is
briefly unreachable. Queueing never fails the write that asked for it: with the broker
down the table simply stays marked out of date, and the next read recomputes it.

A night in play changes its season's table with every deal, so the job runs a few seconds
after the change that queued it (``DELAY``), and a season has at most one job queued at
a time (a key in the cache, shared by every process when the cache is Redis): the deals
saved meanwhile are all counted by that one run, since each marks the table out of date
and a run that started before a mark leaves it marked (see
:func:`leagues.services.league_recompute`).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from celery import Task, shared_task
from django.core.cache import cache
from django.db import InterfaceError, OperationalError, transaction

from leagues.services import league_recompute

log = logging.getLogger(__name__)

# Seconds from the change to the recomputation: the deals of a busy minute share one run.
DELAY = 5


def _queued_key(season_id: int) -> str:
    return f"league-queued:{season_id}"


@shared_task(
    bind=True,
    name="leagues.league_recompute_task",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def league_recompute_task(self: Task, season_id: int) -> dict[str, Any] | None:
    """Recompute season `season_id`'s league table (if still out of date); a summary."""
    _forget(season_id)  # a change from now on queues a run of its own
    season = league_recompute(season_id=season_id, only_if_stale=True)
    if season is None:
        return None
    rows = season.league_rows or {}
    return {
        "season_id": season_id,
        "rows": len(rows.get("rows", [])),
        "computed_at": rows.get("computed_at"),
    }


def _forget(season_id: int) -> None:
    try:
        cache.delete(_queued_key(season_id))
    except Exception:  # the cache is down: the key expires by itself
        log.warning("could not clear the league queue key of season %s", season_id)


def _first_in_queue(season_id: int) -> bool:
    """Whether no run is queued for the season yet (and from now on one is)."""
    try:
        return bool(cache.add(_queued_key(season_id), 1, timeout=DELAY + 60))
    except Exception:  # the cache is down: queue anyway, runs are safe to repeat
        return True


def _send(season_id: int) -> None:
    if not _first_in_queue(season_id):
        return
    try:
        league_recompute_task.apply_async(args=[season_id], countdown=DELAY)
    except Exception:  # the broker is down, or (eager) the job failed: the mark stays
        _forget(season_id)
        log.warning("could not recompute the league table of season %s", season_id, exc_info=True)


def league_recompute_queue(*, season_id: int) -> None:
    """Queue the recomputation once the current transaction commits (at once outside one).
    Never raises: a queue that cannot be reached leaves the table marked out of date."""
    transaction.on_commit(partial(_send, season_id), robust=True)
