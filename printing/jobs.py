"""Print jobs: every table's sheet of a stage in one PDF, made in the background.

A director asks for a batch (:func:`print_job_request`); the job is a `PrintJob` row, queued
on commit as a Celery task that takes its id (:mod:`printing.tasks`). Without a worker
(the embedded default) the task runs inline and the job is done when the request returns.

- **Reuse.** A job made from the results as they are now (its `source_changed_at` is the
  event's results version) with the same kind, stage, language and paper is handed back
  instead of a new one, done or still going. Any result or seating change bumps the event's
  results version (`tournaments.changes`), so the next request makes a
  new file.
- **Safe to run twice.** :func:`print_job_start` does nothing for a done job, and a job
  whose worker died under it (the message comes back: acks_late) starts a new attempt.
- **Shared out on Celery's canvas.** The tables are split into shares of SHARE_SIZE
  (`PrintShare` rows of the job's attempt); the job's task replaces itself with a chord:
  one task per share (any worker process takes one) and a merge that runs once every share
  is stored, under the job's own task id, so the job's record follows it to the end. A
  share whose process dies comes back from the broker (reject on worker lost) and is made
  again; a share is stored once, whoever stores it first, and only for the attempt that is
  running. A share that fails fails the job (the chord's error callback). Inline (no
  worker) the shares are made one after the other in the job's task.
- **Nothing half-written.** The shares are merged with pypdf into a temporary file next to
  the media files, and only then moved into place (a rename) and recorded, in one
  transaction: the job never names a file that is not whole.
- **One state: the job's task run** (`core.TaskRun`, the job's `run`), as for every job:
  queued, running, steps done of the total (counted in tables: each stored share moves it
  on), succeeded or failed and why (a print job's own failures by its codes, worded by
  `_reason`). Done is the run succeeded with the file recorded (`PrintJob.is_done`). The
  job keeps only its recovery facts: its attempts, and when it last moved.
  :func:`print_job_state` reads the run and nothing else.
"""

from __future__ import annotations

import datetime
import io
import logging
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.core.files import File
from django.db import DatabaseError, transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, override
from pypdf import PdfWriter

from core.models import TaskRun
from core.tasks import (
    FAILED,
    LOST,
    NOT_QUEUED,
    QueueUnavailable,
    TaskStatus,
    enqueue_on_commit,
    task_run_failed,
    task_run_state,
)
from printing import tasks as print_tasks
from printing.boards import standings_file
from printing.models import DONE_JOBS, PrintJob, PrintShare
from printing.pdf import PrintError, paper
from printing.sheets import table_sheets_pdf
from rules import RuleViolation
from rules.i18n import _
from scoring.models import Deal
from tournaments.changes import event_results_version
from tournaments.models import Event, Stage, StageStatus, Table

log = logging.getLogger(__name__)

TABLE_SHEETS = "table_sheets"
RESULT_SHEETS = "result_sheets"
# Each kind of table sheets, and whether its sheets carry the deals as entered.
KINDS: dict[str, bool] = {TABLE_SHEETS: False, RESULT_SHEETS: True}
# A big event's standings for the notice board (printing.board_views): one share, the
# whole event's standings (or one stage's), made by the same job path as the sheets.
STANDINGS = "standings"
# Tables rendered in one WeasyPrint run (one share of a job): the progress moves every
# SHARE_SIZE tables. A run costs about 0.15 s of its own (the stylesheet, the fonts embedded in
# its document), a table about 0.3 s: 10 keeps the overhead to a twentieth, and 60 tables
# in 6 shares keep two processes busy to the end.
SHARE_SIZE = 10
Run = TaskRun.State
# A job whose run failed, or was never queued: it waits for the director's retry.
FAILED_JOBS = Q(run__state__in=[Run.FAILED, Run.NOT_QUEUED])
# A job made from the results it names, or on its way to it: reused for the same request
# (a job still being queued has no run for a moment).
CURRENT_JOBS = (
    Q(run__isnull=True) | Q(run__state__in=[Run.QUEUED, Run.RUNNING, Run.RETRYING]) | DONE_JOBS
)


# -- reading ---------------------------------------------------------------------------------


def print_stage(*, event: Event) -> Stage | None:
    """The stage a batch prints: the newest one whose tables are confirmed."""
    return event.stages.exclude(status=StageStatus.PREVIEW).order_by("-number").first()


# What each kind's download is called (the same words in every language: a file name).
FILE_WORDS = {TABLE_SHEETS: "score-sheets", RESULT_SHEETS: "results", STANDINGS: "standings"}


def print_job_filename(job: PrintJob) -> str:
    """The download's name: the event, its round (or stage), the kind, the paper and the
    language, like club-cup-round-2-results-a4-fi.pdf, so that a round printed in two
    languages or on two papers never downloads twice under one name."""
    parts = [slugify(job.event.name) or "event"]
    stage = job.params.get("stage")
    if stage:
        # The format's own word ("round", "stage"), in English as the rest of the name.
        with override("en"):
            parts.append(slugify(job.event.spec.stage_name(stage)))
    parts += [
        FILE_WORDS.get(job.kind, "sheets"),
        slugify(str(job.params.get("paper", ""))) or "a4",
        slugify(str(job.params.get("language", ""))) or "x",
    ]
    return "-".join(parts) + ".pdf"


WORKING, DONE, STOPPED, CANNOT_TELL = "working", "done", "failed", "unknown"

# A share takes seconds: a running attempt that has not moved for this long has lost its
# worker (killed) or its queue (a broker restarted), and its page gives it out again.
STALL = datetime.timedelta(seconds=20)


def print_job_stalled(job: PrintJob, *, now: datetime.datetime | None = None) -> bool:
    """Whether the job is running but has not moved for STALL (written once: the job's
    page and the print button ask it before giving the job out again)."""
    moved = job.moved_at or job.created_at
    run = job.run
    # Only a started attempt: a job still queued waits behind others, and starting it
    # twice would start it over.
    return (
        run is not None
        and run.state in (Run.RUNNING, Run.RETRYING)
        and run.started_at is not None
        and (moved is not None and (now or timezone.now()) - moved >= STALL)
    )


def print_job_missing_shares(*, job: PrintJob) -> list[int]:
    """The running attempt's shares not stored yet, by index."""
    rows = PrintShare.objects.filter(job=job, attempt=job.attempts, content__isnull=True)
    return list(rows.order_by("index").values_list("index", flat=True))


def print_job_moved(*, job: PrintJob, since: datetime.datetime | None) -> bool:
    """Mark the job moved now, unless another page did since `since` (two polls at once
    give it out once). True when this caller did."""
    rows = (
        PrintJob.objects.filter(pk=job.pk, moved_at=since)
        if since
        else PrintJob.objects.filter(pk=job.pk, moved_at__isnull=True)
    )
    return bool(rows.update(moved_at=timezone.now()))


@dataclass(frozen=True)
class PrintJobState:
    """What the progress page says about a job: `kind` is one of the names above."""

    job: PrintJob
    kind: str
    reason: str = ""
    waiting: bool = False
    # Queued for longer than STALL and not started by any worker: waiting behind other
    # jobs, or lost by a queue that restarted. The page (reached again by the print button)
    # offers to start it again; a second start only starts it over.
    stuck: bool = False

    @property
    def finished(self) -> bool:
        """Nothing more happens by itself: the page stops polling."""
        return self.kind in {DONE, STOPPED}

    @property
    def retryable(self) -> bool:
        return self.kind == STOPPED

    # Tables made, of the total (the job's task record).
    done: int = 0
    total: int = 0

    @property
    def left_out(self) -> int:
        """Tables of the round a result print left out: none of their deals was entered."""
        left_out = self.job.params.get("left_out") if isinstance(self.job.params, dict) else 0
        return left_out if isinstance(left_out, int) else 0


def _reason(code: str, run: TaskStatus | None) -> str:
    """Why the job failed, in the reader's language."""
    if code == "print_failed":
        return gettext(
            "A sheet could not be made, so no file was made. The site's administrators "
            "can see why on the print job's record."
        )
    if code == "queue_unavailable":
        return gettext(
            "The job queue could not be reached, so the job was never started. Nothing was changed."
        )
    if code == "missing":
        return gettext("The stage or its tables no longer exist; they may have been redrawn.")
    if run is not None and run.reason:
        return run.reason
    return gettext(
        "An unexpected error stopped it; it has been logged for the site's administrators."
    )


def print_job_state(job: PrintJob, *, queue_unreachable: bool = False) -> PrintJobState:
    """The job as the director should see it: its run's state, read from the run alone.
    A run that ended badly, got lost before it started or was never queued counts as failed
    (and may be retried); one lost after it started is waiting (its page gives it out
    again). `queue_unreachable`: its page could not give it out again (the job queue cannot
    be reached), which the page says."""
    if job.is_done:
        return PrintJobState(job, DONE)
    if job.run is None:
        # Being queued this moment (or its run was pruned long ago): waiting; after a while
        # its page offers to start it again.
        stuck = timezone.now() - job.created_at >= STALL
        return PrintJobState(job, WORKING, waiting=True, stuck=stuck)
    run = task_run_state(run=job.run)
    if job.run.state == Run.SUCCEEDED:  # and no file: nothing to hand out
        return PrintJobState(job, STOPPED, reason=_reason("", None))
    if run.kind == FAILED:
        return PrintJobState(job, STOPPED, reason=_reason(job.run.error, run))
    if run.kind == LOST and job.run.started_at is not None:
        # Its worker died or its queue went away, and nothing of it failed: the page gives
        # it out again (print_job_watch); until then it is waiting, not failed.
        return PrintJobState(job, WORKING, waiting=True, done=run.done, total=run.total)
    if run.kind in {LOST, NOT_QUEUED}:
        return PrintJobState(job, STOPPED, reason=run.reason)
    if queue_unreachable:
        return PrintJobState(job, CANNOT_TELL)
    stuck = job.run.started_at is None and timezone.now() - job.run.queued_at >= STALL
    return PrintJobState(
        job, WORKING, waiting=run.waiting, stuck=stuck, done=min(run.done, run.total),
        total=run.total,
    )  # fmt: skip


@dataclass(frozen=True)
class PrintBatches:
    """What the manage page's print box shows: the stage it prints and, per kind, the job
    made from the results as they are now (ready or on its way), if any."""

    stage: Stage | None
    jobs: dict[str, PrintJob]

    @property
    def table_sheets(self) -> PrintJob | None:
        return self.jobs.get(TABLE_SHEETS)

    @property
    def result_sheets(self) -> PrintJob | None:
        return self.jobs.get(RESULT_SHEETS)


def print_batches(*, event: Event) -> PrintBatches:
    """The manage page's print box (two queries)."""
    stage = print_stage(event=event)
    jobs: dict[str, PrintJob] = {}
    if stage is not None:
        current = (
            PrintJob.objects.filter(CURRENT_JOBS, event=event)
            .filter(source_changed_at=event_results_version(event))
            .select_related("run")
            .order_by("-created_at")
        )
        for job in current:
            if job.params.get("stage") == stage.number:
                jobs.setdefault(job.kind, job)
    return PrintBatches(stage, jobs)


# -- asking ----------------------------------------------------------------------------------


def _played(tables: QuerySet[Table]) -> QuerySet[Table]:
    """The tables with a deal entered: a result sheet of any other says only "No deals
    entered", a page the round's print leaves out."""
    return tables.filter(Exists(Deal.objects.filter(table=OuterRef("pk"))))


def _params(event: Event, kind: str, params: dict[str, Any]) -> dict[str, Any]:
    """The request in its one stored form: stage number, language and paper."""
    if kind not in KINDS and kind != STANDINGS:
        raise RuleViolation(_("There is no such kind of sheet to print."), code="print_kind")
    number = params.get("stage")
    stage = (
        event.stages.exclude(status=StageStatus.PREVIEW).filter(number=number).first()
        if isinstance(number, int)
        else None
    )
    if kind == STANDINGS and number is None:
        stage = None  # the whole event's standings
    elif stage is None or not stage.tables.exists():
        raise RuleViolation(
            _("That stage has no confirmed tables to print yet."), code="print_no_tables"
        )
    elif KINDS.get(kind) and not _played(stage.tables.all()).exists():
        raise RuleViolation(
            _("No table of that stage has deals entered yet: there are no results to print."),
            code="print_no_results",
        )
    languages = {code for code, _name in settings.LANGUAGES}
    language = params.get("language")
    return {
        "stage": stage.number if stage is not None else None,
        "language": language if language in languages else event.club.language,
        "paper": paper(params.get("paper")),
    }


def print_job_request(
    *, event: Event, kind: str, params: dict[str, Any], by: Any = None
) -> PrintJob:
    """A job printing `kind` for the stage in `params` ({"stage": 1, "language": "fi",
    "paper": "A4"}): one made from the current results with the same request if there is
    one, else a new one, queued on commit.

    Raises RuleViolation for a kind or stage there is nothing to print of, and (outside a
    transaction) core.tasks.QueueUnavailable when the queue cannot be reached; the new job
    is then not kept.
    """
    with transaction.atomic():
        # One request at a time per event: a double click gets the job the first one made.
        locked = Event.objects.select_for_update().select_related("club").get(pk=event.pk)
        wanted = _params(locked, kind, params)
        version = event_results_version(locked)
        candidates = (
            PrintJob.objects.filter(CURRENT_JOBS, event=locked, kind=kind)
            .filter(source_changed_at=version)
            .select_related("run")
            .order_by("-created_at")
        )
        for job in candidates:
            # The stored params also say what the job found (`left_out`): not asked for.
            asked = {key: job.params.get(key) for key in wanted}
            if asked == wanted and not print_job_state(job).retryable:
                return job
        user = by if getattr(by, "is_authenticated", False) else None
        job = PrintJob.objects.create(
            event=locked,
            kind=kind,
            params=wanted,
            source_changed_at=version,
            created_by=user,
        )
    return _queue(job, keep_on_failure=False)


def print_job_retry(*, job: PrintJob) -> PrintJob:
    """Queue a failed (or lost) job again, or a stuck one (queued long, never started); it
    starts from its first table.

    Raises RuleViolation when the job is not stopped nor stuck, and QueueUnavailable when
    the queue cannot be reached (the job then stays failed and says so)."""
    with transaction.atomic():
        locked = (
            PrintJob.objects.select_for_update(of=("self",)).select_related("run").get(pk=job.pk)
        )
        state = print_job_state(locked)
        if not (state.retryable or state.stuck):
            raise RuleViolation(
                _("This print job has not stopped, so there is nothing to retry."),
                code="print_not_stopped",
            )
        # Being queued again: the new run, once queued, is the job's state from then on.
        locked.run = None
        locked.save(update_fields=["run"])
    return _queue(locked, keep_on_failure=True)


def _queue(job: PrintJob, *, keep_on_failure: bool) -> PrintJob:
    try:
        task_id = enqueue_on_commit(print_tasks.print_job_task, job.pk)
    except QueueUnavailable as error:
        if keep_on_failure:  # its run says it was never queued
            PrintJob.objects.filter(pk=job.pk).update(
                run=TaskRun.objects.filter(task_id=error.task_id).first()
            )
        else:
            job.delete()  # nothing was changed
        raise
    # Inline (eager) the job may already be done: read it back.
    PrintJob.objects.filter(pk=job.pk).update(run=TaskRun.objects.filter(task_id=task_id).first())
    job.refresh_from_db()
    return job


# -- making ----------------------------------------------------------------------------------


class _MovableFile(File):  # type: ignore[type-arg]
    """A finished file on disk: the file-system storage moves it into place (a rename on
    the same disk) instead of copying it, so the final name only ever holds a whole file."""

    def __init__(self, file: Any, path: Path) -> None:
        super().__init__(file, name=path.name)
        self._path = path

    def temporary_file_path(self) -> str:
        return str(self._path)


def _workdir(job_id: int) -> Path:
    """A private folder on the media files' disk, so the finished file is renamed into place.
    What an earlier attempt of the same job left there (its worker was killed) goes first."""
    partial = Path(settings.MEDIA_ROOT) / "print" / "partial"
    try:
        partial.mkdir(parents=True, exist_ok=True)
        for left in partial.glob(f"job-{job_id}-*"):
            shutil.rmtree(left, ignore_errors=True)
        return Path(tempfile.mkdtemp(prefix=f"job-{job_id}-", dir=partial))
    except OSError:
        return Path(tempfile.mkdtemp(prefix=f"lappu-print-{job_id}-"))


def _start(job_id: int) -> PrintJob | None:
    """Mark the job running (one more attempt); None when there is nothing to do."""
    with transaction.atomic():
        job = (
            PrintJob.objects.select_for_update(of=("self",))
            .select_related("event", "run")
            .filter(pk=job_id)
            .first()
        )
        if job is None:
            raise PrintJob.DoesNotExist(f"no print job {job_id}")
        # Made: a second run does nothing. Failed: it waits for the director's retry.
        if job.file or (job.run is not None and job.run.state in (Run.FAILED, Run.NOT_QUEUED)):
            return None
        job.attempts = F("attempts") + 1
        job.moved_at = timezone.now()
        # The results the sheets are made from: read before rendering, so a change while
        # the job runs leaves the file out of date rather than passing for current.
        job.source_changed_at = event_results_version(job.event)
        job.save(update_fields=["attempts", "source_changed_at", "moved_at"])
        job.refresh_from_db(fields=["attempts"])
        return job


@dataclass(frozen=True)
class PrintPlan:
    """An attempt at a job, shared out: its number, its shares and its tables."""

    job: PrintJob
    attempt: int
    shares: int
    tables: int


def print_job_start(*, job_id: int) -> PrintPlan | None:
    """Start an attempt at job `job_id`: its tables split into shares of SHARE_SIZE (an earlier
    attempt's go). None when the job is done or failed (a second run does nothing)."""
    job = _start(job_id)
    if job is None:
        return None
    PrintShare.objects.filter(job=job).delete()
    if job.kind == STANDINGS:  # one share, one step: the standings are one document
        PrintShare.objects.create(job=job, attempt=job.attempts, index=0, tables=[])
        return PrintPlan(job=job, attempt=job.attempts, shares=1, tables=1)
    tables = Table.objects.filter(
        stage__event_id=job.event_id, stage__number=job.params.get("stage")
    ).exclude(stage__status=StageStatus.PREVIEW)
    if KINDS[job.kind]:
        everyone = tables.count()
        tables = _played(tables)
    ids = list(tables.order_by("number").values_list("pk", flat=True))
    if KINDS[job.kind]:
        # Said on the job's page: how many tables the results leave out.
        job.params = {**job.params, "left_out": everyone - len(ids)}
        job.save(update_fields=["params"])
    if not ids:
        raise Table.DoesNotExist(f"print job {job_id}: its stage has no tables")
    shares = [
        PrintShare(
            job=job, attempt=job.attempts, index=index, tables=ids[start : start + SHARE_SIZE]
        )
        for index, start in enumerate(range(0, len(ids), SHARE_SIZE))
    ]
    PrintShare.objects.bulk_create(shares)
    return PrintPlan(job=job, attempt=job.attempts, shares=len(shares), tables=len(ids))


def _running(job_id: int, attempt: int) -> PrintJob | None:
    """The job while this attempt of it is still the one running (not made, not failed),
    else None."""
    return (
        PrintJob.objects.filter(pk=job_id, attempts=attempt, file="")
        .exclude(FAILED_JOBS)
        .select_related("event__club")
        .first()
    )


def print_share_make(*, job_id: int, attempt: int, index: int) -> int:
    """Render share `index` of the attempt and store it, unless it is stored already or the
    attempt is no longer the one running (a later attempt started over, or the job ended):
    the number of tables it added to the job's progress (0 when it added none)."""
    job = _running(job_id, attempt)
    share = (
        PrintShare.objects.filter(job_id=job_id, attempt=attempt, index=index, content__isnull=True)
        .defer("content")
        .first()
    )
    if job is None or share is None:
        return 0
    content = _render(job, share)
    # Stored once, by whoever stores it first (a share given out again may be made twice).
    stored = PrintShare.objects.filter(pk=share.pk, content__isnull=True).update(content=content)
    if stored:
        PrintJob.objects.filter(pk=job_id).update(moved_at=timezone.now())
    return max(len(share.tables), 1) if stored else 0


def _render(job: PrintJob, share: PrintShare) -> bytes:
    language = job.params.get("language", settings.LANGUAGE_CODE)
    if job.kind == STANDINGS:
        number = job.params.get("stage")
        stage = job.event.stages.filter(number=number).first() if number else None
        file = standings_file(
            event=job.event, language=language, size=job.params.get("paper"), stage=stage
        )
        return file.content
    tables = Table.objects.filter(pk__in=share.tables).order_by("number")
    return table_sheets_pdf(
        tables=list(tables), filled=KINDS[job.kind], language=language,
        size=job.params.get("paper"),
    )  # fmt: skip


class SharesMissing(Exception):
    """The merge ran before every share of the attempt was stored (a share given out
    again after its process died is still being made): it is tried again shortly."""


def print_job_merge(*, job_id: int, attempt: int) -> PrintJob:
    """Merge the attempt's shares, in order, into the job's file and record it. Raises
    SharesMissing while a share is not stored yet; a job already done, or an attempt no
    longer running, is left as it is."""
    job = _running(job_id, attempt)
    if job is None:
        return PrintJob.objects.select_related("event").get(pk=job_id)
    shares = PrintShare.objects.filter(job_id=job_id, attempt=attempt).order_by("index")
    contents = list(shares.values_list("content", flat=True))
    if not contents or any(content is None for content in contents):
        raise SharesMissing(f"print job {job_id}: a share of attempt {attempt} is not made yet")
    workdir = _workdir(job.pk)
    try:
        writer = PdfWriter()
        for content in contents:
            writer.append(io.BytesIO(bytes(content or b"")))
        merged = workdir / "merged.pdf"
        with merged.open("wb") as out:
            writer.write(out)
        return _finish(job.pk, merged, pages=len(writer.pages))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def print_job_run(*, job_id: int, progress: Callable[[int, int], None] | None = None) -> PrintJob:
    """Make job `job_id`'s file in this process, share after share (the job's task does
    so without a worker): safe to run twice. `progress(done, total)` hears of each share."""
    plan = print_job_start(job_id=job_id)
    if plan is None:
        return PrintJob.objects.select_related("event").get(pk=job_id)
    done = 0
    for index in range(plan.shares):
        done += print_share_make(job_id=job_id, attempt=plan.attempt, index=index)
        if progress is not None:
            progress(done, plan.tables)
    return print_job_merge(job_id=job_id, attempt=plan.attempt)


def _finish(job_id: int, merged: Path, *, pages: int) -> PrintJob:
    with transaction.atomic():
        rows = PrintJob.objects.select_for_update(of=("self",)).select_related("event")
        job = rows.get(pk=job_id)
        if job.file:  # another run finished first: keep its file
            return job
        with merged.open("rb") as handle:
            job.file.save(print_job_filename(job), _MovableFile(handle, merged), save=False)
        stored = job.file.name
        job.pages = pages
        try:
            job.save()
        except DatabaseError:
            job.file.storage.delete(stored)  # not recorded: leave no stray file
            raise
        job.shares.all().delete()  # merged into the file: no longer needed
    return job


def _failure_code(error: BaseException) -> str:
    """The print job's own word for a failure (`_reason`); "" for the general one."""
    if isinstance(error, PrintError):
        return "print_failed"
    if isinstance(error, ObjectDoesNotExist):
        return "missing"
    return ""


def print_job_fail(*, job_id: int, error: BaseException, task_id: str = "") -> None:
    """Record on the job's run that the job stopped for good (its task, `task_id`, gave
    up; its run may not be linked yet when the task ran inline): the page says why. A job
    whose file is made already is left done."""
    try:
        row = PrintJob.objects.filter(pk=job_id).values_list("file", "run__task_id").first()
        if row is None or row[0]:
            return
        for run_id in {task_id, row[1] or ""} - {""}:
            task_run_failed(run_id, error, code=_failure_code(error))
    except DatabaseError:
        log.warning("could not record the failure of print job %s", job_id, exc_info=True)
