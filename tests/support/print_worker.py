"""A real print worker serving sixty tables, and waiting for its jobs."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse
from pypdf import PdfReader

from clubsite.celery import app
from core.models import TaskRun
from printing.models import DONE_JOBS, PrintJob
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tests.support.waiting import wait_until
from tests.support.worker import start_worker, stop_worker
from tournaments.models import Role

TABLES = 60


@dataclass
class Worker:
    queue: str
    media: Path
    logs: Path
    proc: subprocess.Popen[bytes]
    concurrency: int = 1

    def start(self) -> None:
        """A (new) worker process on the same queue and media folder."""
        saved = os.environ.get("MEDIA_ROOT")
        os.environ["MEDIA_ROOT"] = str(self.media)
        try:
            log = self.logs / f"worker-{time.monotonic_ns()}.log"
            self.proc = start_worker(queue=self.queue, log=log, concurrency=self.concurrency)
        finally:
            if saved is None:
                os.environ.pop("MEDIA_ROOT", None)
            else:
                os.environ["MEDIA_ROOT"] = saved

    def pool_child(self) -> int:
        """The pid of the worker's one pool child (the process that runs the jobs)."""
        pid = self.proc.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        assert len(children) == 1, children
        return int(children[0])


def serving(tmp_path_factory, concurrency: int) -> Iterator[Worker]:
    """A worker of `concurrency` pool processes that this process's jobs are queued to."""
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        pytest.skip("needs REDIS_URL and PostgreSQL: make test runs this in its PostgreSQL pass")
    queue = f"lappu-print-test-{uuid.uuid4().hex[:8]}"
    media, logs = tmp_path_factory.mktemp("media"), tmp_path_factory.mktemp("logs")
    worker = Worker(queue, media, logs, None, concurrency)  # type: ignore[arg-type]
    worker.start()
    saved_queue = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        yield worker
    finally:
        app.conf.task_default_queue = saved_queue
        stop_worker(worker.proc)


def sixty_tables(worker: Worker, settings) -> tuple[Any, Any]:
    """60 tables of 4, and a director to sign in; this process reads the worker's files."""
    settings.MEDIA_ROOT = worker.media
    shutil.rmtree(worker.media / "print", ignore_errors=True)  # an earlier test's
    event, tables = seated_event(variant_id="rutupeli", players=TABLES * 4)
    assert len(tables) == TABLES
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    return event, director


def wait_done(job: PrintJob, *, what: str) -> None:
    """Until the job is done (within two minutes), then `job` as it ended."""
    wait_until(
        lambda: PrintJob.objects.filter(DONE_JOBS, pk=job.pk).exists(),
        timeout=120,
        what=what,
        interval=0.2,
    )
    job.refresh_from_db()


def progress(job: PrintJob) -> tuple[int, int]:
    """Tables made, of the total: the job's task run (as every job's progress)."""
    run = TaskRun.objects.get(print_jobs=job)
    return run.done, run.total


def start_job(client, event) -> PrintJob:
    response = client.post(
        reverse("print_job_start", args=[event.club.slug, event.pk]),
        {"kind": "table_sheets", "stage": 1},
    )
    assert response.status_code == 302
    return PrintJob.objects.get(event=event)


def job_url(job: PrintJob, name: str = "print_job") -> str:
    return reverse(name, args=[job.event.club.slug, job.event_id, job.pk])


def whole_pdf(client, job: PrintJob) -> PdfReader:
    response = client.get(job_url(job, "print_job_download"))
    assert response.status_code == 200
    content = b"".join(response.streaming_content)
    assert content.startswith(b"%PDF-") and content.rstrip().endswith(b"%%EOF")
    reader = PdfReader(io.BytesIO(content))
    assert len(reader.pages) == job.pages >= TABLES
    return reader


def nothing_half_made(media: Path) -> None:
    """Only the job's file is in the print folder: no partial or stray file was left."""
    files = [p for p in (media / "print").rglob("*") if p.is_file()]
    job_files = {Path(settings.MEDIA_ROOT) / job.file.name for job in PrintJob.objects.all()}
    assert set(files) == job_files, files
