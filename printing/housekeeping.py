"""Old print files go: a round's sheets are printed on the night and kept a while in case one
is lost (`PRINT_FILES_KEEP_DAYS`, 30 by default), then the job and its file are deleted so
the media disk does not grow with every Saturday. Run daily by Celery beat."""

from __future__ import annotations

import datetime

from celery import shared_task
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from core.models import TaskRun
from printing.models import PrintJob


def print_files_prune(*, now: datetime.datetime | None = None) -> int:
    """Delete the finished or failed print jobs older than the kept days, with their files;
    a job still waiting or printing is left to finish. Returns how many went."""
    cutoff = (now or timezone.now()) - datetime.timedelta(days=settings.PRINT_FILES_KEEP_DAYS)
    ended = [TaskRun.State.SUCCEEDED, TaskRun.State.FAILED, TaskRun.State.NOT_QUEUED]
    # A job whose run was pruned before it (kept longer than the runs) has ended too.
    old = PrintJob.objects.filter(
        Q(run__state__in=ended) | Q(run__isnull=True), created_at__lt=cutoff
    )
    count = 0
    for job in old.iterator():
        if job.file:
            job.file.delete(save=False)  # through the storage: a shared disk or a bucket
        job.delete()
        count += 1
    return count


@shared_task(name="printing.print_files_prune")
def print_files_prune_task() -> int:
    return print_files_prune()
