"""A print job on one real worker with two pool processes (Redis, the PostgreSQL test
database): the chord's share tasks go to both processes, and a process killed in the
middle of a share has it made again, without the job starting over.

`make test` runs these in its PostgreSQL pass with REDIS_URL set.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator

import pytest
from pypdf import PdfReader

from clubsite.celery import app
from printing.models import PrintJob, PrintShare
from tests.support.print_worker import (
    TABLES,
    Worker,
    job_url,
    nothing_half_made,
    progress,
    serving,
    sixty_tables,
    start_job,
    wait_done,
    whole_pdf,
)
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.celery_worker, pytest.mark.postgres]


@pytest.fixture(scope="module")
def pair_worker(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Worker]:
    yield from serving(tmp_path_factory, concurrency=2)


@pytest.fixture
def night(transactional_db, pair_worker, settings):
    return sixty_tables(pair_worker, settings)


def _worker_log(worker: Worker) -> str:
    return "\n".join(path.read_text() for path in worker.logs.glob("*.log"))


def _share_makers(worker: Worker, job: PrintJob) -> set[str]:
    """The pool processes that made the job's shares (each share task logs its pid)."""
    return set(
        re.findall(rf"print job {job.pk}: share \d+ made by process (\d+)", _worker_log(worker))
    )


def _in_table_order(reader: PdfReader) -> None:
    """Every table's sheet, in table order, each once (the merge kept the shares' order)."""
    labels = []
    for page in reader.pages:
        text = page.extract_text()
        number = next(n for n in range(TABLES, 0, -1) if f"Table {n}" in text)
        if not labels or labels[-1] != number:
            labels.append(number)
    assert labels == list(range(1, TABLES + 1)), labels


def test_two_processes_share_the_sixty_tables(night, client, pair_worker):
    event, director = night
    client.force_login(director)
    job = start_job(client, event)
    wait_done(job, what="the job to finish")
    assert (job.attempts, progress(job)) == (1, (TABLES, TABLES))
    # Both pool processes made some of the shares: the chord's tasks went to either.
    assert len(_share_makers(pair_worker, job)) == 2
    _in_table_order(whole_pdf(client, job))
    assert not PrintShare.objects.filter(job=job).exists()
    nothing_half_made(pair_worker.media)


def _share_pid(job: PrintJob) -> int | None:
    """A pool process making one of `job`'s shares while others are still to be made."""
    active = app.control.inspect(timeout=1).active() or {}
    for tasks in active.values():
        for task in tasks:
            mine = task["name"] == "printing.print_share_task" and task["args"][0] == job.pk
            if mine and PrintShare.objects.filter(job=job, content__isnull=True).count() > 1:
                return int(task["worker_pid"])
    return None


def test_a_killed_process_s_share_is_made_again_and_the_job_goes_on(night, client, pair_worker):
    event, director = night
    client.force_login(director)
    job = start_job(client, event)
    pid = wait_until(lambda: _share_pid(job), timeout=60, what="a process to take a share")
    os.kill(pid, signal.SIGKILL)  # as the kernel's OOM killer would
    # The worker saw its pool process die (and started another).
    wait_until(lambda: f"pid:{pid} exited with 'signal 9" in _worker_log(pair_worker),
             timeout=20, what="the worker to notice the kill")  # fmt: skip
    wait_done(job, what="the job to finish after the process was killed")
    # The job never started over: its first attempt, every table counted once.
    assert (job.attempts, progress(job)) == (1, (TABLES, TABLES))
    page = client.get(job_url(job)).content.decode()
    assert "Download the PDF" in page and "failed" not in page
    _in_table_order(whole_pdf(client, job))
    nothing_half_made(pair_worker.media)
