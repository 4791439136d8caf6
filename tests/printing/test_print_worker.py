"""Print jobs on a real Celery worker on Redis, sharing the PostgreSQL test database: a batch
of 60 tables followed on its progress page to the download, and a worker killed mid-batch
(its pool child, then the whole worker) whose job is run again and finishes whole.

`make test` runs these in its PostgreSQL pass with REDIS_URL set. The worker writes the
files into a temporary MEDIA_ROOT that this process reads too.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from core.models import TaskRun
from printing.models import PrintJob
from tests.support.broker import queue_pointed_at
from tests.support.print_state import run_of, state_of
from tests.support.print_worker import (
    TABLES,
    Worker,
    job_url,
    nothing_half_made,
    progress,
    serving,
    sixty_tables,
    start_job,
    whole_pdf,
)
from tests.support.waiting import wait_until

pytestmark = [pytest.mark.celery_worker, pytest.mark.postgres]


@pytest.fixture(scope="module")
def print_worker(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Worker]:
    """One worker with one pool process: the job's task makes every share itself."""
    yield from serving(tmp_path_factory, concurrency=1)


@pytest.fixture
def night(transactional_db, print_worker, settings):
    return sixty_tables(print_worker, settings)


def test_sixty_tables_through_the_worker_followed_to_the_download(night, client, print_worker):
    event, director = night
    client.force_login(director)
    started = time.monotonic()
    job = start_job(client, event)
    seen: set[str] = set()

    def ready() -> str | None:
        page = client.get(job_url(job), HTTP_HX_REQUEST="true").content.decode()
        seen.update(re.findall(r"\d+ of 60 tables", page))
        assert "failed" not in page, page
        return page if "Download the PDF" in page else None

    page = wait_until(ready, timeout=120, what="the job to finish", interval=0.2)
    elapsed = time.monotonic() - started
    job.refresh_from_db()
    assert (state_of(job), job.attempts, progress(job)) == ("done", 1, (60, 60))
    # The page showed the progress on its way (a chunk of tables at a time).
    assert seen - {"0 of 60 tables", "60 of 60 tables"}, seen
    assert job_url(job, "print_job_download") in page
    reader = whole_pdf(client, job)
    text = reader.pages[0].extract_text() + reader.pages[-1].extract_text()
    assert "Player" in text
    every = "\n".join(p.extract_text() for p in reader.pages)
    assert all(f"Player {n:03d}" in every for n in (1, 120, 240))
    nothing_half_made(print_worker.media)
    print(f"\n60 tables through the worker: {elapsed:.1f} s, {job.pages} pages")


def _mid_batch(job: PrintJob) -> Callable[[], bool]:
    def check() -> bool:
        job.refresh_from_db()
        return run_of(job).state == TaskRun.State.RUNNING and 10 <= progress(job)[0] < TABLES

    return check


def _mid_batch_job(client, night) -> PrintJob:
    """The director's print job of the night, once it is part-way through its tables."""
    event, director = night
    client.force_login(director)
    job = start_job(client, event)
    wait_until(_mid_batch(job), timeout=60, what="the job to get going")
    return job


def test_a_killed_pool_child_is_run_again_and_the_file_is_whole(night, client, print_worker):
    job = _mid_batch_job(client, night)
    child = print_worker.pool_child()
    os.kill(child, signal.SIGKILL)  # as the kernel's OOM killer would
    # The share's message comes back (acks_late, reject_on_worker_lost); a new child makes
    # it and the shares after it, and the chord's merge runs once all are stored.
    page = wait_until(
        lambda: "Download the PDF" in (html := client.get(job_url(job)).content.decode()) and html,
        timeout=120,
        what="the job to finish after the kill",
        interval=0.2,
    )
    assert "failed" not in page
    job.refresh_from_db()
    # The job went on: the same attempt, every table counted once.
    assert (state_of(job), job.attempts, progress(job)) == ("done", 1, (TABLES, TABLES))
    assert print_worker.pool_child() != child
    whole_pdf(client, job)
    nothing_half_made(print_worker.media)


def _unacked_tags(client: redis.Redis, job: PrintJob) -> list[str]:
    """The delivery tags under which Redis holds the (unacknowledged) messages of the job's
    tasks: the share the worker was making when it died."""
    tags = []
    for tag, value in client.hgetall("unacked").items():
        message: Any = json.loads(value)[0]
        headers = message.get("headers", {})
        if headers.get("task", "").startswith("printing.") and f"({job.pk}," in str(
            headers.get("argsrepr", "")
        ):
            tags.append(tag.decode())
    return tags


def _watched_until_done(client, job: PrintJob, *, what: str) -> str:
    """The director's page polled as the browser does (every second) until the job is done:
    its polls are what give a stalled job out again."""
    return wait_until(
        lambda: "Download the PDF" in (html := client.get(job_url(job)).content.decode()) and html,
        timeout=120,
        what=what,
        interval=1.0,
    )


def test_a_killed_worker_s_job_is_finished_by_the_next_worker(night, client, print_worker):
    job = _mid_batch_job(client, night)
    # The whole worker dies at once (its main process and its pool child): nobody is left
    # to put the message back, and Redis keeps it as unacknowledged for its visibility
    # timeout (15 minutes).
    child = print_worker.pool_child()
    os.kill(print_worker.proc.pid, signal.SIGKILL)
    os.kill(child, signal.SIGKILL)
    print_worker.proc.wait(timeout=10)
    job.refresh_from_db()
    assert run_of(job).state == TaskRun.State.RUNNING and not job.file
    print_worker.start()
    restarted = time.monotonic()
    # The job's page, still open, gives the dead worker's shares out again once the job
    # has not moved for STALL; it never says the job failed.
    page = _watched_until_done(client, job, what="the next worker to finish the job")
    recovered = time.monotonic() - restarted
    assert "failed" not in page
    assert recovered < 60, f"the job finished {recovered:.1f} s after the new worker started"
    job.refresh_from_db()
    assert job.attempts == 1 and job.pages >= TABLES
    whole_pdf(client, job)
    nothing_half_made(print_worker.media)
    print(f"\nworker killed mid-job: done {recovered:.1f} s after the new worker's start")


@pytest.fixture
def own_redis(tmp_path) -> Iterator[Callable[[], None]]:
    """A Redis of the test's own on a free port (nothing kept on disk, as the site's), and a
    function that stops it and starts it again on the same port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", str(tmp_path)]  # fmt: skip
    servers = [subprocess.Popen(command, stdout=subprocess.DEVNULL)]
    url = f"redis://127.0.0.1:{port}/0"
    wait_until(lambda: _answers(url), timeout=10, what="the test's Redis to start")

    def restart(down: float) -> None:
        servers[-1].terminate()
        servers[-1].wait(timeout=10)
        # Real time on purpose: an outage of this length, which the worker must ride out.
        time.sleep(down)
        servers.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
        wait_until(lambda: _answers(url), timeout=10, what="the test's Redis to come back")

    restart.url = url  # type: ignore[attr-defined]
    try:
        yield restart
    finally:
        servers[-1].terminate()
        servers[-1].wait(timeout=10)


def _answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_timeout=1).ping())
    except redis.exceptions.RedisError:
        return False


def test_a_redis_restart_mid_job_is_recovered_not_failed(
    transactional_db, client, own_redis, tmp_path_factory, settings
):
    """Redis stopped during a job and back 10 s later, empty: the worker had cut its running
    share off; the job is not failed, and its page gives the lost shares out again."""
    settings.REDIS_URL = own_redis.url
    with queue_pointed_at(own_redis.url):
        worker_gen = serving(tmp_path_factory, concurrency=1)
        worker = next(worker_gen)
        try:
            event, director = sixty_tables(worker, settings)
            job = _mid_batch_job(client, (event, director))
            own_redis(down=10)
            back = time.monotonic()
            page = _watched_until_done(client, job, what="the job to finish after Redis came back")
            recovered = time.monotonic() - back
            assert "failed" not in page
            assert recovered < 60, f"the job finished {recovered:.1f} s after Redis came back"
            job.refresh_from_db()
            assert state_of(job) == "done"
            whole_pdf(client, job)
            print(f"\nRedis restarted mid-job: done {recovered:.1f} s after it was back")
        finally:
            with contextlib.suppress(StopIteration):
                next(worker_gen)
