"""The print job on Celery's canvas: the job's task shares its tables out and replaces
itself with a chord of one task per share and a merge (printing.jobs).

The job's task takes the job's id; with a worker it starts an attempt (`print_job_start`)
and replaces itself with `chord(print_share_task × shares, print_merge_task)`, whose merge
runs under the job's own task id, so the job's record (`core.TaskRun`) follows it to the
end. Without a worker (the embedded default) it makes every share itself, one after the
other. Every task is acknowledged only once done (acks_late, and a pool child that dies
puts its message back: reject_on_worker_lost), so a killed worker's shares are made by the
next; a share is stored once and only for the attempt running. Database hiccups are
retried; a share that fails fails the job through the chord's error callback, and the job
says why.

The worker finds this module through `printing.tasks` (Celery's autodiscovery).
"""

from __future__ import annotations

import datetime
import logging
import os
from typing import Any

from celery import chord, group, shared_task
from celery.exceptions import ChordError, TaskRevokedError, WorkerLostError
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import ConnectionError as RedisConnectionError

from core.tasks import TrackedTask, task_run_advance
from printing import jobs as print_jobs
from printing.models import PrintJob

log = logging.getLogger(__name__)

# Retried, not failed: the database was briefly out of reach.
TRANSIENT = (OperationalError, InterfaceError)
RETRIES = {"retry_backoff": True, "retry_backoff_max": 30, "max_retries": 4}
# A merge that finds a share given out again still being made looks again this often, for
# up to MERGE_WAITS times (a share takes seconds).
MERGE_EVERY = 1.0
MERGE_WAITS = 120


# What stops a share without anything being wrong with it: its worker died, or the broker
# went away and the worker cut its running tasks off. Such a job is not failed: its page
# gives the missing shares out again (print_job_watch) once a worker and the queue are back.
INTERRUPTED = (TaskRevokedError, WorkerLostError, KombuOperationalError, RedisConnectionError)


def interrupted(error: BaseException) -> bool:
    if isinstance(error, INTERRUPTED):
        return True
    # A chord reports its header's failure as a ChordError naming it.
    return isinstance(error, ChordError) and any(
        kind.__name__ in str(error) for kind in INTERRUPTED
    )


class PrintJobTask(TrackedTask):
    """The job's task, and the merge that replaces it under the same id: their run is the
    job's state. A failure is recorded with the print job's own reason; one that only cut
    the job off (`interrupted`) is not a failure."""

    def on_failure(
        self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any
    ) -> None:
        if interrupted(exc):
            log.warning("print job %s interrupted (%r): its page gives it out again", args, exc)
            return
        super().on_failure(exc, task_id, args, kwargs, einfo)
        if args:
            print_jobs.print_job_fail(job_id=int(args[0]), error=exc, task_id=task_id)


@shared_task(
    base=PrintJobTask,
    bind=True,
    name="printing.print_job_task",
    autoretry_for=TRANSIENT,
    acks_late=True,
    reject_on_worker_lost=True,
    **RETRIES,
)
def print_job_task(self: PrintJobTask, job_id: int) -> dict[str, Any]:
    if self.request.is_eager:
        job = print_jobs.print_job_run(job_id=job_id, progress=self.progress)
        return {"job_id": job.pk, "file": job.file.name, "pages": job.pages}
    plan = print_jobs.print_job_start(job_id=job_id)
    if plan is None:  # done already, or failed and waiting for a retry
        return {"job_id": job_id, "status": "unchanged"}
    self.progress(0, plan.tables)
    shares = group(
        [
            print_share_task.si(job_id, plan.attempt, index, self.request.id)
            for index in range(plan.shares)
        ]
    )
    merge = print_merge_task.si(job_id, plan.attempt).on_error(print_job_failed.s(job_id))
    raise self.replace(chord(shares, merge))


@shared_task(
    bind=True,
    name="printing.print_share_task",
    autoretry_for=TRANSIENT,
    acks_late=True,
    reject_on_worker_lost=True,
    **RETRIES,
)
def print_share_task(self: Any, job_id: int, attempt: int, index: int, run_id: str) -> int:
    """Make one share of the attempt; the job's record moves on by its tables."""
    made = print_jobs.print_share_make(job_id=job_id, attempt=attempt, index=index)
    # Which process made which share: what a person reading the worker's log looks for.
    log.info("print job %s: share %s made by process %s", job_id, index, os.getpid())
    if made:
        silence = datetime.timedelta(seconds=self.app.conf.task_time_limit or 15 * 60)
        task_run_advance(run_id, made, silence=silence)
    return made


@shared_task(
    base=PrintJobTask,
    bind=True,
    name="printing.print_merge_task",
    autoretry_for=TRANSIENT,
    acks_late=True,
    reject_on_worker_lost=True,
    **RETRIES,
)
def print_merge_task(self: PrintJobTask, job_id: int, attempt: int) -> dict[str, Any]:
    """Merge the shares into the job's file, once every one is stored."""
    try:
        job = print_jobs.print_job_merge(job_id=job_id, attempt=attempt)
    except print_jobs.SharesMissing as missing:
        raise self.retry(exc=missing, countdown=MERGE_EVERY, max_retries=MERGE_WAITS) from None
    return {"job_id": job.pk, "file": job.file.name, "pages": job.pages}


@shared_task(name="printing.print_job_failed")
def print_job_failed(request: Any, exc: BaseException, traceback: Any, job_id: int) -> None:
    """The chord's error callback: a share failed, so the job did (its run says why);
    a share cut off (`interrupted`) is made again instead."""
    if interrupted(exc):
        log.warning("print job %s: a share was cut off (%r); given out again", job_id, exc)
        return
    print_jobs.print_job_fail(job_id=job_id, error=exc)


def print_job_watch(*, job: PrintJob) -> bool | None:
    """Give a stalled job out again (`print_job_stalled`: a killed worker's shares, or the
    ones a restarted broker lost): its missing shares and a merge, under the job's own task
    id so its record follows. Safe to repeat: a share is stored once, a merge finds the job
    done. Called by the job's page as it polls, and by the print button pressed again.
    False when nothing was sent (not stalled, or another page sent it); None when the queue
    is unreachable (the page then says it waits for the job queue)."""
    since = job.moved_at
    if job.run is None or not print_jobs.print_job_stalled(job):
        return False
    if not print_jobs.print_job_moved(job=job, since=since):
        return False
    task_id = job.run.task_id
    try:
        for index in print_jobs.print_job_missing_shares(job=job):
            print_share_task.apply_async((job.pk, job.attempts, index, task_id))
        print_merge_task.apply_async((job.pk, job.attempts), task_id=task_id)
    except Exception as error:
        # The broker refused or the result store gave up reconnecting (a RuntimeError from
        # Celery's Redis backend): never a server error for the page that polls. Tried
        # again at the next poll, not a STALL later: the queue may be back by then.
        PrintJob.objects.filter(pk=job.pk).update(moved_at=since)
        log.warning(
            "print job %s: not given out again, the queue is unreachable: %r", job.pk, error
        )
        return None
    log.info("print job %s: stalled, given out again", job.pk)
    return True
