"""The ratings' computation as a Celery job, queued when a transaction commits.

The job takes the club's id, the game and the point of the club's history to replay from
(JSON: ``[date, event id, stage number, table number]``, or None for everything), and
calls :func:`ratings.services.ratings_update`: safe to run twice (a replay from a point
gives the same numbers as the one before it), retried while the database is briefly
unreachable, acknowledged only once done (late acks; a worker killed mid-way leaves the last
finished computation, whole, and the job is given out again). Queueing never fails the
write that asked: with the broker down the ratings stay as they were, marked as being
updated, and the next change's job (or `ratings_recompute`) brings them up to date.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError, transaction

from ratings.games import GameKey, key_from_json, key_to_json
from ratings.services import ratings_ask, ratings_update

log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="ratings.ratings_update_task",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def ratings_update_task(
    self: Task, club_id: int, game: str, since: list[Any] | None = None
) -> dict[str, Any]:
    """Replay club `club_id`'s ratings in `game` from `since` (see the module); a summary."""
    run = ratings_update(club_id=club_id, game=game, since=key_from_json(since))
    return {"club_id": club_id, "game": game, "version": run.version, "games": run.games}


def _send(club_id: int, game: str, since: list[Any] | None) -> None:
    try:
        ratings_ask(club_id=club_id, game=game)
        ratings_update_task.apply_async(args=[club_id, game, since])
    except Exception:  # the broker is down, or (eager) the job failed: the ask stays
        log.warning("could not update the ratings of club %s in %s", club_id, game, exc_info=True)


def ratings_update_queue(*, club_id: int, game: str, since: GameKey | None) -> None:
    """Queue a replay from `since` once the current transaction commits (at once outside
    one). Never raises."""
    transaction.on_commit(partial(_send, club_id, game, key_to_json(since)), robust=True)
