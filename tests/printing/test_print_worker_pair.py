"""A print job on one real worker with two pool processes (Redis, the PostgreSQL test
database): the job's task and a helper share the 60 tables, and a helper killed in the
middle of its share leaves it to be taken over, without the job starting over.

`make test` runs these in its PostgreSQL pass with REDIS_URL set.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest
from pypdf import PdfReader

from clubsite.celery import app
from printing.models import PrintChunk, PrintJob
from tests.printing.test_print_worker import (
    TABLES,
    Worker,
    job_url,
    nothing_half_made,
    serving,
    sixty_tables,
    start_job,
    wait_done,
    wait_for,
    whole_pdf,
)

pytestmark = [pytest.mark.celery_worker, pytest.mark.postgres]


@pytest.fixture(scope="module")
def pair_worker(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Worker]:
    yield from serving(tmp_path_factory, concurrency=2)


@pytest.fixture
def night(transactional_db, pair_worker, settings):
    return sixty_tables(pair_worker, settings)


def _helper_log(worker: Worker) -> str:
    return "\n".join(path.read_text() for path in worker.logs.glob("*.log"))


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
    wait_done(job, what="the job never finished")
    assert (job.done, job.total, job.attempts) == (TABLES, TABLES, 1)
    # The helper on the other pool process made some of the shares.
    assert f"print job {job.pk}: a helper made part" in _helper_log(pair_worker)
    _in_table_order(whole_pdf(client, job))
    assert not PrintChunk.objects.filter(job=job).exists()
    nothing_half_made(pair_worker.media)


def _helper_pid(job: PrintJob) -> int | None:
    """The pool process running a helper of `job` while its share is not made yet."""
    active = app.control.inspect(timeout=1).active() or {}
    for tasks in active.values():
        for task in tasks:
            if task["name"] == "scoring.print_help_task" and task["args"][0] == job.pk:
                mine = f":{task['worker_pid']}"
                if PrintChunk.objects.filter(
                    job=job, content__isnull=True, claimed_by__endswith=mine
                ).exists():
                    return int(task["worker_pid"])
    return None


def test_a_killed_helper_s_share_is_taken_over_and_the_job_goes_on(night, client, pair_worker):
    event, director = night
    client.force_login(director)
    job = start_job(client, event)
    pid = wait_for(lambda: _helper_pid(job), timeout=60, what="no helper ever took a share")
    os.kill(pid, signal.SIGKILL)  # as the kernel's OOM killer would
    # The worker saw its pool process die (and started another).
    wait_for(lambda: f"pid:{pid} exited with 'signal 9" in _helper_log(pair_worker),
             timeout=20, what="the worker never noticed the kill")  # fmt: skip
    wait_done(job, what="the job never finished after the helper was killed")
    # The job's own task never stopped: it is still its first attempt.
    assert (job.done, job.total, job.attempts) == (TABLES, TABLES, 1)
    page = client.get(job_url(job)).content.decode()
    assert "Download the PDF" in page and "failed" not in page
    _in_table_order(whole_pdf(client, job))
    nothing_half_made(pair_worker.media)
