from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.models import TaskRun
from tournaments.models import Event, Table


def print_job_path(job: PrintJob, filename: str) -> str:
    return f"print/{job.created_at:%Y/%m}/{job.pk}-{filename}"


class PrintJob(models.Model):
    """A batch of printed sheets made in the background ("every table of stage 2"): what
    was asked and the one merged PDF it made. Its state (queued, running, how far, done,
    failed and why) is its task's run (core.TaskRun, `run`), as for every job: it is done
    when the run succeeded and the file is there (`is_done`). Its file is reused until a
    result or seating it shows changes (`source_changed_at`)."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="print_jobs", verbose_name=_("event")
    )
    kind = models.CharField(_("sheets"), max_length=32)
    # What the sheets are of (a stage number, blank or filled, the language, the paper).
    params = models.JSONField(_("what to print"), default=dict, blank=True)
    file = models.FileField(_("file"), upload_to=print_job_path, blank=True)
    pages = models.PositiveIntegerField(_("pages"), default=0)
    # The event's results_changed_at the file was made from: a later change makes it old.
    source_changed_at = models.DateTimeField(_("made from results of"), null=True, blank=True)
    # The job's state: the run of its task queued last (a retry queues a new one). None
    # for a moment while the job is queued (or when old runs were pruned).
    run = models.ForeignKey(
        TaskRun,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="print_jobs",
        verbose_name=_("job"),
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    # When the running attempt last moved: started, a share stored, or its missing shares
    # given out again. A job that has not moved for a while is given out again by its page
    # (printing.tasks.print_job_watch): a dead worker's or a lost broker's shares.
    moved_at = models.DateTimeField(_("last moved"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("asked by"),
    )
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)

    class Meta:
        # Made when printing was part of the scoring app: the table keeps its name.
        db_table = "scoring_printjob"
        ordering = ["-created_at"]
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")

    def __str__(self) -> str:
        return f"{self.event} · {self.kind}"

    @property
    def is_done(self) -> bool:
        """Its file is made: the run succeeded and the file is recorded (as a query:
        `DONE_JOBS`)."""
        return (
            bool(self.file) and self.run is not None and self.run.state == TaskRun.State.SUCCEEDED
        )

    @property
    def title(self) -> str:
        """What the job makes, its stage in the event's word: "Score sheets · Round 2"."""
        number = self.params.get("stage") if isinstance(self.params, dict) else None
        if not isinstance(number, int):
            return gettext("Standings")
        stage = self.event.spec.stage_name(number)
        if self.kind == "result_sheets":
            return gettext("Result sheets · %(stage)s") % {"stage": stage}
        if self.kind == "table_sheets":
            return gettext("Score sheets · %(stage)s") % {"stage": stage}
        return gettext("Standings · %(stage)s") % {"stage": stage}


# `PrintJob.is_done` as a query.
DONE_JOBS = models.Q(run__state=TaskRun.State.SUCCEEDED) & ~models.Q(file="")


class PrintShare(models.Model):
    """A share of one attempt at a print job: a few tables, rendered by one task of the
    job's chord (printing.tasks) and stored once; the chord's last task merges the shares,
    in order, once every one is stored."""

    job = models.ForeignKey(
        PrintJob, on_delete=models.CASCADE, related_name="shares", verbose_name=_("print job")
    )
    attempt = models.PositiveSmallIntegerField(_("attempt"))
    index = models.PositiveSmallIntegerField(_("share"))
    tables = models.JSONField(_("tables"), default=list)
    content = models.BinaryField(_("rendered share"), null=True, blank=True)

    class Meta:
        # Made when printing was part of the scoring app: the table keeps its name.
        db_table = "scoring_printchunk"
        ordering = ["job", "attempt", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["job", "attempt", "index"], name="print_chunk_unique_part"
            )
        ]
        verbose_name = _("print job share")
        verbose_name_plural = _("print job shares")

    def __str__(self) -> str:
        return f"{self.job_id} · {self.attempt} · {self.index}"


class SheetReturn(models.Model):
    """A table's paper score sheet handed back to the director, for an event scored on
    paper (as Tabbycat records which paper ballots came back): who took it in, and when.
    One a table: marking it returned again keeps the first record."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="sheet_return", verbose_name=_("table")
    )
    returned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("taken in by"),
    )
    returned_at = models.DateTimeField(_("returned at"), default=timezone.now)

    class Meta:
        ordering = ["table"]
        verbose_name = _("returned sheet")
        verbose_name_plural = _("returned sheets")

    def __str__(self) -> str:
        return str(self.table)
