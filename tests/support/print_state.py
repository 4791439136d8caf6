"""A print job's state as its pages read it (its task's run, the one state), for tests."""

from __future__ import annotations

import datetime
from typing import Any

from django.utils import timezone

from core.models import TaskRun
from printing.jobs import print_job_state
from printing.models import PrintJob


def state_of(job: PrintJob) -> str:
    """The job's state as its page reads it now: "done", "working", "failed" or "unknown"."""
    return print_job_state(PrintJob.objects.select_related("run").get(pk=job.pk)).kind


def run_of(job: PrintJob) -> TaskRun:
    """The job's run (its state), read now."""
    run = PrintJob.objects.select_related("run").get(pk=job.pk).run
    assert run is not None, f"print job {job.pk} has no run"
    return run


def with_run(job: PrintJob, **fields: Any) -> TaskRun:
    """Give `job` a run of its task in the state `fields` say (queued by default)."""
    now = timezone.now()
    fields.setdefault("task_id", f"test-run-{job.pk}-{now.timestamp()}")
    fields.setdefault("lost_after", now + datetime.timedelta(minutes=10))
    run = TaskRun.objects.create(name="printing.print_job_task", args=[job.pk], **fields)
    PrintJob.objects.filter(pk=job.pk).update(run=run)
    job.run = run
    return run
