"""Print jobs: every table's sheet of a stage in one PDF, made in the background.

A director asks for a batch (:func:`print_job_request`); the job is a `PrintJob` row, queued
on commit as a Celery task that takes its id (:mod:`printing.tasks`). Without a worker
(the embedded default) the task runs inline and the job is done when the request returns.

- **Reuse.** A job made from the results as they are now (its `source_changed_at` is the
  event's results version) with the same kind, stage, language and paper is handed back
  instead of a new one, done or still going. Any result or seating change bumps the event's
  results version (`tournaments.changes`), so the next request makes a
  new file.
- **Safe to run twice.** :func:`print_job_run` does nothing for a done job, and a job whose
  worker died under it (the message comes back: acks_late) starts again from its first table.
- **Shared out.** The tables are split into shares of CHUNK (`PrintChunk` rows of the job's
  attempt). The job's task asks the worker's other pool processes for help (a helper task
  per share, up to HELPERS), makes shares itself until none is left, waits for the ones
  others are making and merges them. One worker with a pool of two makes a batch about
  twice as fast as one process. A helper that dies leaves its share to be taken over (at
  once on the same machine, after CLAIM_TIMEOUT from another); inline there are no helpers.
- **Nothing half-written.** The shares are merged with pypdf into a temporary file next to
  the media files, and only then moved into place (a rename) and recorded, in one
  transaction: the job never names a file that is not whole.
- **Progress lives on the job** (`done` / `total`, counted in tables); the task's `TaskRun`
  only says whether the job is still alive, was lost, or never got queued.
"""

from __future__ import annotations

import datetime
import io
import logging
import os
import shutil
import socket
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.core.files import File
from django.db import DatabaseError, transaction
from django.db.models import Count, F, Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext
from pypdf import PdfWriter

from core.tasks import (
    FAILED,
    LOST,
    NOT_QUEUED,
    UNKNOWN,
    QueueUnavailable,
    TaskStatus,
    enqueue_on_commit,
    task_run_status,
)
from printing import tasks as print_tasks
from printing.models import PrintChunk, PrintJob, PrintJobStatus
from printing.pdf import PrintError, paper
from printing.sheets import table_sheets_pdf
from rules import RuleViolation
from rules.i18n import _
from tournaments.changes import event_results_version
from tournaments.models import Event, Stage, StageStatus, Table

log = logging.getLogger(__name__)

TABLE_SHEETS = "table_sheets"
RESULT_SHEETS = "result_sheets"
# Each kind, and whether its sheets carry the deals as entered.
KINDS: dict[str, bool] = {TABLE_SHEETS: False, RESULT_SHEETS: True}
# Tables rendered in one WeasyPrint run (one share of a job): the progress moves every
# CHUNK tables. A run costs about 0.15 s of its own (the stylesheet, the fonts embedded in
# its document), a table about 0.3 s: 10 keeps the overhead to a twentieth, and 60 tables
# in 6 shares keep two processes busy to the end.
CHUNK = 10
# Helpers asked for per job at most (the pool processes of a worker beyond the job's own).
HELPERS = 3
# A share claimed this long ago and not made yet is taken over (its claimer, on another
# machine, has gone silent; one on this machine is seen dead at once).
CLAIM_TIMEOUT = datetime.timedelta(minutes=2)
# How long the job's task sleeps between looks while the last shares are being made.
WAIT = 0.1

Status = PrintJobStatus


# -- reading ---------------------------------------------------------------------------------


def print_stage(*, event: Event) -> Stage | None:
    """The stage a batch prints: the newest one whose tables are confirmed."""
    return event.stages.exclude(status=StageStatus.PREVIEW).order_by("-number").first()


def print_job_filename(job: PrintJob) -> str:
    """The download's name, like rutupeli-night-stage-1-sheets.pdf."""
    what = "sheets" if job.kind == TABLE_SHEETS else "results"
    return f"{slugify(job.event.name) or 'event'}-stage-{job.params.get('stage', 1)}-{what}.pdf"


WORKING, DONE, STOPPED, CANNOT_TELL = "working", "done", "failed", "unknown"


@dataclass(frozen=True)
class PrintJobState:
    """What the progress page says about a job: `kind` is one of the names above."""

    job: PrintJob
    kind: str
    reason: str = ""
    waiting: bool = False

    @property
    def finished(self) -> bool:
        """Nothing more happens by itself: the page stops polling."""
        return self.kind in {DONE, STOPPED}

    @property
    def retryable(self) -> bool:
        return self.kind == STOPPED

    @property
    def done(self) -> int:
        return self.job.done

    @property
    def total(self) -> int:
        return self.job.total


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


def print_job_state(job: PrintJob) -> PrintJobState:
    """The job as the director should see it. A job still marked queued or running whose
    task has ended badly, got lost or was never queued counts as failed (and may be retried)."""
    if job.status == Status.DONE and job.file:
        return PrintJobState(job, DONE)
    run = task_run_status(task_id=job.task_id) if job.task_id else None
    if job.status == Status.FAILED:
        return PrintJobState(job, STOPPED, reason=_reason(job.error, run))
    if run is not None and run.kind in {FAILED, LOST, NOT_QUEUED}:
        return PrintJobState(job, STOPPED, reason=run.reason)
    if run is not None and run.kind == UNKNOWN:
        return PrintJobState(job, CANNOT_TELL)
    waiting = job.status == Status.QUEUED or (run is not None and run.waiting)
    return PrintJobState(job, WORKING, waiting=waiting)


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
        current = PrintJob.objects.filter(
            event=event,
            source_changed_at=event_results_version(event),
            status__in=[Status.QUEUED, Status.RUNNING, Status.DONE],
        ).order_by("-created_at")
        for job in current:
            if job.params.get("stage") == stage.number:
                jobs.setdefault(job.kind, job)
    return PrintBatches(stage, jobs)


# -- asking ----------------------------------------------------------------------------------


def _params(event: Event, kind: str, params: dict[str, Any]) -> dict[str, Any]:
    """The request in its one stored form: stage number, language and paper."""
    if kind not in KINDS:
        raise RuleViolation(_("There is no such kind of sheet to print."), code="print_kind")
    number = params.get("stage")
    stage = (
        event.stages.exclude(status=StageStatus.PREVIEW).filter(number=number).first()
        if isinstance(number, int)
        else None
    )
    if stage is None or not stage.tables.exists():
        raise RuleViolation(
            _("That stage has no confirmed tables to print yet."), code="print_no_tables"
        )
    languages = {code for code, _name in settings.LANGUAGES}
    language = params.get("language")
    return {
        "stage": stage.number,
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
        candidates = PrintJob.objects.filter(
            event=locked,
            kind=kind,
            source_changed_at=version,
            status__in=[Status.QUEUED, Status.RUNNING, Status.DONE],
        ).order_by("-created_at")
        for job in candidates:
            if job.params == wanted and not print_job_state(job).retryable:
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
    """Queue a failed (or lost) job again; it starts from its first table.

    Raises RuleViolation when the job is not stopped, and QueueUnavailable when the queue
    cannot be reached (the job then stays failed and says so)."""
    with transaction.atomic():
        locked = PrintJob.objects.select_for_update().get(pk=job.pk)
        if not print_job_state(locked).retryable:
            raise RuleViolation(
                _("This print job has not stopped, so there is nothing to retry."),
                code="print_not_stopped",
            )
        locked.status = Status.QUEUED
        locked.done = 0
        locked.error = ""
        locked.finished_at = None
        locked.save(update_fields=["status", "done", "error", "finished_at"])
    return _queue(locked, keep_on_failure=True)


def _queue(job: PrintJob, *, keep_on_failure: bool) -> PrintJob:
    try:
        task_id = enqueue_on_commit(print_tasks.print_job_task, job.pk)
    except QueueUnavailable:
        if keep_on_failure:
            PrintJob.objects.filter(pk=job.pk).update(
                status=Status.FAILED, error="queue_unavailable", finished_at=timezone.now()
            )
        else:
            job.delete()  # nothing was changed
        raise
    # Inline (eager) the job may already be done: read it back.
    PrintJob.objects.filter(pk=job.pk).update(task_id=task_id)
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
            .select_related("event")
            .filter(pk=job_id)
            .first()
        )
        if job is None:
            raise PrintJob.DoesNotExist(f"no print job {job_id}")
        # Done: a second run does nothing. Failed: it waits for the director's retry.
        if job.status in (Status.DONE, Status.FAILED):
            return None
        job.status = Status.RUNNING
        job.done = 0
        job.attempts = F("attempts") + 1
        # The results the sheets are made from: read before rendering, so a change while
        # the job runs leaves the file out of date rather than passing for current.
        job.source_changed_at = event_results_version(job.event)
        job.save(update_fields=["status", "done", "attempts", "source_changed_at"])
        job.refresh_from_db(fields=["attempts"])
        return job


def _split(job: PrintJob, tables: list[Table]) -> int:
    """This attempt's shares of the job, CHUNK tables each; an earlier attempt's go."""
    PrintChunk.objects.filter(job=job).delete()
    ids = [table.pk for table in tables]
    chunks = [
        PrintChunk(job=job, attempt=job.attempts, index=index, tables=ids[start : start + CHUNK])
        for index, start in enumerate(range(0, len(ids), CHUNK))
    ]
    PrintChunk.objects.bulk_create(chunks)
    return len(chunks)


def _call_helpers(job: PrintJob, count: int) -> None:
    """Ask the workers' other processes to take shares of this attempt. Inline (no worker)
    they would only run one after the other, so none is asked; a queue that cannot be
    reached leaves the whole job to this process."""
    if print_tasks.print_help_task.app.conf.task_always_eager:
        return
    try:
        for _helper in range(min(count, HELPERS)):
            print_tasks.print_help_task.apply_async(args=[job.pk, job.attempts])
    except Exception:  # the broker is down: this process prints every share itself
        log.warning("could not ask for help with print job %s", job.pk, exc_info=True)


def _me() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _alive(claimed_by: str) -> bool:
    """Whether the process that claimed a share may still be making it: on this machine it
    is asked directly (a killed process is seen at once); another machine's is trusted until
    its claim is CLAIM_TIMEOUT old."""
    host, _colon, pid = claimed_by.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a killed pool child the worker has not reaped yet is a zombie: dead all the same
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in {"Z", "X"}


def _claim(job_id: int, attempt: int) -> PrintChunk | None:
    """The next share of the attempt nobody is making, now claimed by this process: one not
    claimed yet, or one whose claimer died or went silent. None when there is none."""
    now = timezone.now()
    open_parts = PrintChunk.objects.filter(job_id=job_id, attempt=attempt, content__isnull=True)
    for chunk in open_parts.defer("content"):
        stale = chunk.claimed_at is None or (
            chunk.claimed_at < now - CLAIM_TIMEOUT or not _alive(chunk.claimed_by)
        )
        # Compare and set: of two processes reaching for the same share one gets it.
        if stale and open_parts.filter(pk=chunk.pk, claimed_at=chunk.claimed_at).update(
            claimed_by=_me(), claimed_at=now
        ):
            return chunk
    return None


def _make(job: PrintJob, chunk: PrintChunk) -> None:
    """Render one share and store it; the job's progress moves by its tables."""
    tables = Table.objects.filter(pk__in=chunk.tables).order_by("number")
    content = table_sheets_pdf(
        tables=list(tables),
        filled=KINDS[job.kind],
        language=job.params.get("language", settings.LANGUAGE_CODE),
        size=job.params.get("paper"),
    )
    # Counted once, by whoever stores it first (a share taken over may be made twice).
    if PrintChunk.objects.filter(pk=chunk.pk, content__isnull=True).update(content=content):
        PrintJob.objects.filter(pk=job.pk, attempts=chunk.attempt).update(
            done=F("done") + len(chunk.tables)
        )


def _running(job_id: int, attempt: int) -> PrintJob | None:
    """The job while this attempt of it is still the one running, else None."""
    return (
        PrintJob.objects.filter(pk=job_id, attempts=attempt, status=Status.RUNNING)
        .select_related("event")
        .first()
    )


def print_job_help(*, job_id: int, attempt: int) -> int:
    """Make shares of a running job's attempt until none is left (a helper's task); the
    number made. A share that fails is handed back: the job's own task makes it, or fails
    the job with the reason."""
    job = _running(job_id, attempt)
    made = 0
    while job is not None and (chunk := _claim(job_id, attempt)) is not None:
        try:
            _make(job, chunk)
        except Exception:
            PrintChunk.objects.filter(pk=chunk.pk, claimed_by=_me()).update(
                claimed_by="", claimed_at=None
            )
            log.warning("print job %s: a helper could not make part %s", job_id, chunk.index)
            break
        made += 1
        log.info("print job %s: a helper made part %s", job_id, chunk.index)
        job = _running(job_id, attempt)
    return made


def print_job_run(*, job_id: int, helpers: bool = True) -> PrintJob:
    """Make job `job_id`'s file (what its Celery task does): safe to run twice.

    The tables are split into shares (PrintChunk); with `helpers` (and a worker) other
    processes are asked to take some, this one makes the rest, waits for the others' and
    merges them in order. Another run of the same job that starts meanwhile takes over."""
    job = _start(job_id)
    if job is None:
        return PrintJob.objects.select_related("event").get(pk=job_id)
    tables = list(
        Table.objects.filter(stage__event_id=job.event_id, stage__number=job.params.get("stage"))
        .exclude(stage__status=StageStatus.PREVIEW)
        .order_by("number")
    )
    if not tables:
        raise Table.DoesNotExist(f"print job {job_id}: its stage has no tables")
    total = len(tables)
    PrintJob.objects.filter(pk=job.pk).update(total=total)
    attempt = job.attempts
    parts = _split(job, tables)
    if helpers:
        _call_helpers(job, parts - 1)
    while True:
        chunk = _claim(job.pk, attempt)
        if chunk is not None:
            _make(job, chunk)
            continue
        made = PrintChunk.objects.filter(job_id=job.pk, attempt=attempt).aggregate(
            all=Count("pk"), made=Count("pk", filter=Q(content__isnull=False))
        )
        if made["all"] != parts:  # a later run of this job started over: it finishes
            return PrintJob.objects.select_related("event").get(pk=job_id)
        if made["made"] == parts:
            break
        time.sleep(WAIT)  # another process is making the last shares
    workdir = _workdir(job.pk)
    try:
        writer = PdfWriter()
        shares = PrintChunk.objects.filter(job_id=job.pk, attempt=attempt).order_by("index")
        for content in shares.values_list("content", flat=True):
            writer.append(io.BytesIO(bytes(content or b"")))
        merged = workdir / "merged.pdf"
        with merged.open("wb") as out:
            writer.write(out)
        return _finish(job.pk, merged, pages=len(writer.pages), total=total)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _finish(job_id: int, merged: Path, *, pages: int, total: int) -> PrintJob:
    with transaction.atomic():
        rows = PrintJob.objects.select_for_update(of=("self",)).select_related("event")
        job = rows.get(pk=job_id)
        if job.status == Status.DONE:  # another run finished first: keep its file
            return job
        with merged.open("rb") as handle:
            job.file.save(print_job_filename(job), _MovableFile(handle, merged), save=False)
        stored = job.file.name
        job.status = Status.DONE
        job.pages = pages
        job.done = job.total = total
        job.error = ""
        job.finished_at = timezone.now()
        try:
            job.save()
        except DatabaseError:
            job.file.storage.delete(stored)  # not recorded: leave no stray file
            raise
        job.chunks.all().delete()  # merged into the file: no longer needed
    return job


def _failure_code(error: BaseException) -> str:
    if isinstance(error, PrintError):
        return "print_failed"
    if isinstance(error, ObjectDoesNotExist):
        return "missing"
    return "error"


def print_job_fail(*, job_id: int, error: BaseException) -> None:
    """Record that the job stopped for good (its task gave up): the page says why."""
    try:
        PrintJob.objects.filter(pk=job_id).exclude(status=Status.DONE).update(
            status=Status.FAILED, error=_failure_code(error), finished_at=timezone.now()
        )
    except DatabaseError:
        log.warning("could not record the failure of print job %s", job_id, exc_info=True)
