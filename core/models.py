from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class TaskRun(models.Model):
    """One queued job, kept by the site itself: when it was queued, started, last heard of,
    and how it ended.

    It is the job's one state: kept by the task's own hooks (core.tasks.TrackedTask: started,
    progress, retried, succeeded, failed) and never reconciled with Celery's result store,
    which forgets, and cannot be reached when Redis is down. An end no worker could record
    is told by `lost_after`. It lets the progress page tell a job that is still working
    from one that was lost, and a task id nobody queued (404) from one that has not started
    yet; a job's own row points at its run (a print job's `run`).
    """

    class State(models.TextChoices):
        QUEUED = "queued", _("Queued")
        NOT_QUEUED = "not_queued", _("Could not be queued")
        RUNNING = "running", _("Running")
        RETRYING = "retrying", _("Waiting to try again")
        SUCCEEDED = "succeeded", _("Done")
        FAILED = "failed", _("Failed")

    task_id = models.CharField(_("task id"), max_length=36, unique=True)
    name = models.CharField(_("task"), max_length=200)
    args = models.JSONField(_("arguments"), default=list, blank=True)
    state = models.CharField(_("state"), max_length=12, choices=State, default=State.QUEUED)
    queued_at = models.DateTimeField(_("queued at"), default=timezone.now, db_index=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    heard_at = models.DateTimeField(_("last heard of at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # An unfinished run not heard of by then is lost; every sign of life moves it on.
    lost_after = models.DateTimeField(_("lost if unfinished after"))
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    done = models.PositiveIntegerField(_("steps done"), default=0)
    total = models.PositiveIntegerField(_("steps in all"), default=0)
    # Why it failed, as a code the progress page words in the reader's language.
    error = models.CharField(_("reason"), max_length=20, blank=True)
    # What a person was told by the job itself (a refusal), in the worker's words.
    message = models.TextField(_("message"), blank=True)
    # The exception, for whoever reads the admin or the log; never shown on the site.
    detail = models.TextField(_("technical detail"), blank=True)

    class Meta:
        verbose_name = _("job")
        verbose_name_plural = _("jobs")
        ordering = ["-queued_at"]

    def __str__(self) -> str:
        return f"{self.name} {self.task_id}"
