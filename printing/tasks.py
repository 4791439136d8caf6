"""The print job as a Celery task: it takes the job's id and makes its file.

The job's task shares the tables out to `print_help_task`s on the other pool processes.
Safe to run twice (a done job is left alone, a job whose worker died starts over); retried
when the database is briefly unreachable; acknowledged only once done (acks_late, and a
pool child that dies puts the message back: reject_on_worker_lost), so a killed worker's
job is run again by the next. When it gives up, the job is marked failed with the reason.

The worker finds this module through `printing.tasks` (Celery's autodiscovery).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError

from core.tasks import TrackedTask
from printing import jobs as print_jobs


class PrintJobTask(TrackedTask):
    """Keeps the job's own record in step with the task's end."""

    def on_failure(
        self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any
    ) -> None:
        super().on_failure(exc, task_id, args, kwargs, einfo)
        if args:
            print_jobs.print_job_fail(job_id=int(args[0]), error=exc)


@shared_task(
    base=PrintJobTask,
    bind=True,
    name="scoring.print_job_task",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=4,
    acks_late=True,
    reject_on_worker_lost=True,
)
def print_job_task(self: PrintJobTask, job_id: int) -> dict[str, Any]:
    job = print_jobs.print_job_run(job_id=job_id)
    return {"job_id": job.pk, "status": job.status, "pages": job.pages}


@shared_task(name="scoring.print_help_task", ignore_result=True)
def print_help_task(job_id: int, attempt: int) -> int:
    """Take shares of a running print job's attempt (print_jobs.print_job_help): nothing
    to do once the job's own task has made them all. Never fails the job: a share it could
    not make is handed back to the job's task."""
    return print_jobs.print_job_help(job_id=job_id, attempt=attempt)
