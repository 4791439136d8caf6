"""Queueing slow jobs and telling how they are doing.

`enqueue_on_commit` queues a task once the current transaction commits and keeps a
`TaskRun` for it; a task built on `TrackedTask` keeps that record up to date from the worker;
`task_run_status` reads it for the progress page: that record is a job's one state (Celery's
result store is never asked).

When Redis is down the queueing fails within a second or two (the settings' timeouts): a
caller outside a transaction gets `QueueUnavailable` and tells the person at once; inside
one the failure can only be recorded, and the progress page says the job was never queued.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from celery import Task, current_app, uuid
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded, WorkerLostError
from django.core.exceptions import ObjectDoesNotExist
from django.db import DatabaseError, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils import formats, timezone
from django.utils.translation import gettext, gettext_lazy
from kombu.exceptions import OperationalError as KombuOperationalError

from core.models import TaskRun
from rules import RuleViolation

try:
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover - redis is installed wherever Redis is used
    RedisError = OSError  # type: ignore[assignment,misc]

log = logging.getLogger(__name__)

# A queued job that no worker has started within this is lost (the queue is stopped, or its
# message was dropped). Jobs take minutes at most, so a healthy queue starts one well within.
START_WITHIN = datetime.timedelta(minutes=10)
# A running job reports when it starts and as it goes; silent for longer than the hard time
# limit plus this, the worker would have stopped it already, so it is lost.
GRACE = datetime.timedelta(minutes=1)
# A job whose worker died under it this many times is not given out again.
MAX_WORKER_LOSSES = 2
# Records of finished jobs are kept this long (for the admin), then pruned.
KEEP = datetime.timedelta(days=30)

QUEUE_UNAVAILABLE = gettext_lazy(
    "The job queue cannot be reached right now; nothing was changed. Try again in a minute."
)


class QueueUnavailable(Exception):
    """The broker or the result store could not be reached: the job was not queued (its
    run, `task_id`, says so)."""

    message = QUEUE_UNAVAILABLE

    def __init__(self, *args: object, task_id: str = "") -> None:
        super().__init__(*args)
        self.task_id = task_id


class WorkerKeptDying(Exception):
    """The job was given out again after its worker died, too many times."""


def _queue_unreachable(error: BaseException | None) -> bool:
    """A connection error of the broker or the result store (Celery wraps the result store's
    as a RuntimeError "Retry limit exceeded while trying to reconnect")."""
    if error is None:
        return False
    if isinstance(error, (KombuOperationalError, RedisError, OSError)):
        return True
    return isinstance(error, RuntimeError) and _queue_unreachable(error.__cause__)


def enqueue_on_commit(task: Task, *args: Any) -> str:
    """Queue `task(*args)` once the current transaction commits; return the id to poll.

    Outside a transaction the job is sent now, and `QueueUnavailable` is raised when the
    queue cannot be reached. Inside one, a failure at commit is recorded on the run (the
    progress page then says the job was never queued), since the caller has returned.
    """
    task_id = uuid()
    now = timezone.now()
    TaskRun.objects.create(
        task_id=task_id,
        name=task.name,
        args=list(args),
        queued_at=now,
        lost_after=now + START_WITHIN,
    )
    deferred = transaction.get_connection().in_atomic_block

    def send() -> None:
        try:
            task.apply_async(args=list(args), task_id=task_id)
        except Exception as error:
            # An eager task's own errors come through here too; only a real queue fails so.
            if task.app.conf.task_always_eager or not _queue_unreachable(error):
                raise
            log.warning("could not queue %s[%s]: %r", task.name, task_id, error)
            _update(task_id, state=TaskRun.State.NOT_QUEUED, finished_at=timezone.now(),
                    detail=_describe(error))  # fmt: skip
            if not deferred:
                raise QueueUnavailable(str(error), task_id=task_id) from error

    transaction.on_commit(send)
    return task_id


def task_run_advance(task_id: str, steps: int, *, silence: datetime.timedelta) -> None:
    """`steps` more of a job's steps are done (by one of the tasks it was shared out to):
    a sign of life too, heard again within `silence`."""
    now = timezone.now()
    _update(task_id, done=F("done") + steps, heard_at=now, lost_after=now + silence)


def task_run_failed(task_id: str, error: BaseException, *, code: str = "") -> None:
    """A job ended with `error` outside its own task (one of the tasks it was shared out
    to failed): recorded as its own failure would be. `code`: the job's own word for what
    went wrong (its page words it), instead of the general one."""
    now = timezone.now()
    _update(task_id, state=TaskRun.State.FAILED, finished_at=now, heard_at=now,
            error=code or _error_code(error), detail=_describe(error))  # fmt: skip


def _update(task_id: str, **fields: Any) -> None:
    """Write to the run's record; a database hiccup must not fail the job it describes."""
    try:
        TaskRun.objects.filter(task_id=task_id).update(**fields)
    except DatabaseError:
        log.warning("could not update the record of task %s", task_id, exc_info=True)


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:2000]


def _error_code(error: object) -> str:
    """What went wrong, as a code the progress page words in the reader's language."""
    if isinstance(error, WorkerKeptDying | WorkerLostError):
        return "worker_lost"
    if isinstance(error, SoftTimeLimitExceeded | TimeLimitExceeded):
        return "timeout"
    if isinstance(error, RuleViolation):
        return "refused"
    if isinstance(error, ObjectDoesNotExist):
        return "missing"
    if isinstance(error, DatabaseError | KombuOperationalError | RedisError | OSError):
        return "unavailable"
    return "error"


class TrackedTask(Task):
    """Base for the site's jobs: keeps the job's `TaskRun` up to date from the worker.

    Use `self.progress(done, total)` (bind=True) to report progress; every report is also a
    sign of life. Override `may_retry` to let the people allowed to start the job retry it.
    """

    def may_retry(self, user: Any, args: Sequence[Any]) -> bool:
        return False

    def _silence_limit(self) -> datetime.timedelta:
        limit = self.time_limit or self.app.conf.task_time_limit or 15 * 60
        return datetime.timedelta(seconds=limit) + GRACE

    def progress(self, done: int, total: int) -> None:
        now = timezone.now()
        _update(self.request.id, done=done, total=total, heard_at=now,
                lost_after=now + self._silence_limit())  # fmt: skip

    def before_start(self, task_id: str, args: Any, kwargs: Any) -> None:
        now = timezone.now()
        _update(
            task_id,
            state=TaskRun.State.RUNNING,
            attempts=F("attempts") + 1,
            started_at=Coalesce("started_at", Value(now)),
            heard_at=now,
            lost_after=now + self._silence_limit(),
        )
        attempts = (
            TaskRun.objects.filter(task_id=task_id).values_list("attempts", flat=True).first()
        )
        # Every attempt starts here; those that neither ended nor asked to be retried died
        # with their worker (the message came back, task_reject_on_worker_lost).
        if attempts is not None and attempts - 1 - (self.request.retries or 0) > MAX_WORKER_LOSSES:
            raise WorkerKeptDying(f"the worker died under this job {attempts - 1} times")

    def retry(  # type: ignore[override]
        self,
        args: Any = None,
        kwargs: Any = None,
        exc: BaseException | None = None,
        throw: bool = True,
        eta: datetime.datetime | None = None,
        countdown: float | None = None,
        max_retries: int | None = None,
        **options: Any,
    ) -> Any:
        now = timezone.now()
        if eta is not None:
            delay = max((eta - now).total_seconds(), 0.0)
        else:
            delay = float(countdown if countdown is not None else self.default_retry_delay or 0)
        _update(self.request.id, state=TaskRun.State.RETRYING, heard_at=now,
                lost_after=now + datetime.timedelta(seconds=delay) + START_WITHIN)  # fmt: skip
        return super().retry(
            args=args, kwargs=kwargs, exc=exc, throw=throw, eta=eta, countdown=countdown,
            max_retries=max_retries, **options,
        )  # fmt: skip

    def on_success(self, retval: Any, task_id: str, args: Any, kwargs: Any) -> None:
        now = timezone.now()
        _update(task_id, state=TaskRun.State.SUCCEEDED, finished_at=now, heard_at=now,
                error="", message="", detail="")  # fmt: skip
        try:
            TaskRun.objects.filter(queued_at__lt=now - KEEP).delete()
        except DatabaseError:
            log.warning("could not prune old task records", exc_info=True)

    def on_failure(
        self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any
    ) -> None:
        now = timezone.now()
        _update(
            task_id,
            state=TaskRun.State.FAILED,
            finished_at=now,
            heard_at=now,
            error=_error_code(exc),
            message=exc.message if isinstance(exc, RuleViolation) else "",
            detail=_describe(exc),
        )


# -- reading a job's state -------------------------------------------------------------------

# UNKNOWN is never read from the record (always readable): it is for a page that finds the job
# queue unreachable as it acts on the job (the print job's, giving a stalled job out again).
DONE, WORKING, FAILED, LOST, NOT_QUEUED, UNKNOWN = (
    "done", "working", "failed", "lost", "not_queued", "unknown",
)  # fmt: skip


@dataclass(frozen=True)
class TaskStatus:
    """What the progress page says about one job. `kind` is one of the names above."""

    run: TaskRun
    kind: str
    reason: str = ""
    done: int = 0
    total: int = 0

    @property
    def finished(self) -> bool:
        """Nothing more will happen by itself: the page stops polling."""
        return self.kind in {DONE, FAILED, LOST, NOT_QUEUED}

    @property
    def retryable(self) -> bool:
        return self.kind in {FAILED, LOST, NOT_QUEUED}

    @property
    def waiting(self) -> bool:
        """Queued (or queued again to retry) and not started yet."""
        return self.kind == WORKING and (
            self.run.started_at is None or self.run.state == TaskRun.State.RETRYING
        )


def _failure_reason(code: str, message: str = "") -> str:
    if code == "refused" and message:
        return message
    reasons = {
        "timeout": gettext("It took longer than a job may, and was stopped."),
        "worker_lost": gettext("The worker doing it stopped in the middle, again and again."),
        "unavailable": gettext(
            "Something it needs (the database or the job queue) could not be reached, "
            "even after several tries."
        ),
        "missing": gettext("What it was about no longer exists; it may have been deleted."),
        "revoked": gettext("It was cancelled."),
    }
    return reasons.get(
        code,
        gettext(
            "An unexpected error stopped it; it has been logged for the site's administrators."
        ),
    )


def _when(moment: datetime.datetime | None) -> str:
    return formats.time_format(timezone.localtime(moment)) if moment else ""


def task_run_status(*, task_id: str) -> TaskStatus | None:
    """The state of a job queued through `enqueue_on_commit`; None for any other id.

    Our record is the job's one state: the task's own hooks keep it (started, progress,
    retried, succeeded, failed), and an end no worker could record (it died, its queue lost
    the message) is told by its time running out (`lost_after`: LOST). Celery's result store
    is never read, so a Redis that is down changes nothing here: never a server error.
    """
    run = TaskRun.objects.filter(task_id=task_id).first()
    return None if run is None else task_run_state(run=run)


def task_run_state(*, run: TaskRun) -> TaskStatus:
    """The state of a job from its run, read already (a job's row that links its run)."""
    if run.state == TaskRun.State.SUCCEEDED:
        return TaskStatus(run, DONE, done=run.done, total=run.total)
    if run.state == TaskRun.State.FAILED:
        return TaskStatus(run, FAILED, reason=_failure_reason(run.error, run.message))
    if run.state == TaskRun.State.NOT_QUEUED:
        reason = gettext(
            "The job queue could not be reached, so the job was never started. Nothing was changed."
        )
        return TaskStatus(run, NOT_QUEUED, reason=reason)
    if timezone.now() > run.lost_after:
        if run.started_at is None:
            reason = gettext(
                "It was queued at %(time)s and no worker has started it; "
                "the job queue may be stopped."
            ) % {"time": _when(run.queued_at)}
        else:
            reason = gettext(
                "It started at %(time)s and nothing has been heard of it since %(heard)s; "
                "the worker doing it has probably stopped."
            ) % {"time": _when(run.started_at), "heard": _when(run.heard_at)}
        return TaskStatus(run, LOST, reason=reason)
    return TaskStatus(run, WORKING, done=run.done, total=run.total)


def task_may_retry(*, status: TaskStatus, user: Any) -> bool:
    """Whether `user` may queue this job again: it ended badly, and the task lets them."""
    if not status.retryable or not getattr(user, "is_authenticated", False):
        return False
    task = current_app.tasks.get(status.run.name)
    return isinstance(task, TrackedTask) and task.may_retry(user, status.run.args)


def task_run_retry(*, run: TaskRun) -> str:
    """Queue the job again with the same arguments (jobs are safe to run twice): a new run."""
    return enqueue_on_commit(current_app.tasks[run.name], *run.args)
