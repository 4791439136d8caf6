"""Tasks against a real Celery worker process on Redis, sharing the PostgreSQL test database.

`make test` runs these in its PostgreSQL pass with REDIS_URL set; they need committed data
(transactional_db), because the worker is another process with its own connection.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from celery.result import AsyncResult
from django.conf import settings
from django.db import connection, transaction
from django.urls import reverse

from clubsite.celery import app
from core.models import TaskRun
from core.tasks import enqueue_on_commit
from tests.celery_test_tasks import flaky, record_attempt
from tests.factories import ClubFactory, MembershipFactory
from tournaments.models import Club, Role
from tournaments.tasks import club_stats_request

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.celery_worker, pytest.mark.postgres]


def start_worker(
    *, queue: str, log: Path, pool: str = "prefork", concurrency: int = 1
) -> subprocess.Popen[bytes]:
    """Start a Celery worker process on the test database and Redis, reading only `queue`,
    with the test-only tasks loaded; return once it answers a ping."""
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgresql://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
    }
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "clubsite", "worker", f"--pool={pool}",
             f"--concurrency={concurrency}", "--include=tests.celery_test_tasks", "-Q", queue,
             "--without-gossip", "--without-mingle", "--loglevel=INFO", "-n", f"{queue}@%h"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the Celery worker exited:\n{log.read_text()}")
        if app.control.ping(destination=[f"{queue}@{os.uname().nodename}"], timeout=1):
            return proc
    stop_worker(proc)
    pytest.fail(f"the Celery worker did not answer within 60 s:\n{log.read_text()}")


def stop_worker(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker, tmp_path_factory):
    """One worker for the session (prefork, one pool child, as in production but smaller)."""
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        pytest.skip("needs REDIS_URL and PostgreSQL: make test runs this in its PostgreSQL pass")
    # A queue of our own, so that no other worker on this Redis takes the test's tasks.
    queue = f"lappu-test-{uuid.uuid4().hex[:8]}"
    proc = start_worker(queue=queue, log=tmp_path_factory.mktemp("worker") / "worker.log")
    try:
        app.conf.task_default_queue = queue
        yield queue
    finally:
        stop_worker(proc)


def _build_club(members: int) -> Club:
    club = ClubFactory()
    MembershipFactory(club=club, role=Role.OWNER)
    for _ in range(members - 1):
        MembershipFactory(club=club)
    return club


def test_recount_runs_on_the_real_worker(transactional_db, celery_worker_process):
    club = _build_club(members=4)
    with transaction.atomic():
        task_id = club_stats_request(club=club)
        # Queued on commit: nothing may reach the worker before the data it reads exists.
        assert AsyncResult(task_id).state == "PENDING"
    result = AsyncResult(task_id).get(timeout=30)
    assert result == {"club_id": club.pk, "member_count": 4}
    club.refresh_from_db()
    assert club.member_count == 4
    assert club.stats_refreshed_at is not None


def test_task_is_safe_to_run_twice(transactional_db, celery_worker_process):
    club = _build_club(members=2)
    for _ in range(2):
        with transaction.atomic():
            task_id = club_stats_request(club=club)
        AsyncResult(task_id).get(timeout=30)
    club.refresh_from_db()
    assert club.member_count == 2


def test_rolled_back_request_queues_nothing(transactional_db, celery_worker_process):
    club = _build_club(members=3)
    with pytest.raises(RuntimeError), transaction.atomic():
        task_id = club_stats_request(club=club)
        raise RuntimeError("the request failed after asking for a recount")
    time.sleep(1)
    assert AsyncResult(task_id).state == "PENDING"
    club.refresh_from_db()
    assert club.member_count == 0


def test_progress_page_reports_the_workers_result(transactional_db, celery_worker_process, client):
    club = _build_club(members=2)
    owner = club.memberships.get(role=Role.OWNER).user
    client.force_login(owner)
    response = client.post(reverse("club_stats_refresh", args=[club.slug]))
    status_url = response["Location"]
    deadline = time.monotonic() + 30
    while "Done." not in (page := client.get(status_url, HTTP_HX_REQUEST="true").content.decode()):
        assert time.monotonic() < deadline, page
        time.sleep(0.2)
    club.refresh_from_db()
    assert club.member_count == 2


def _wait_for(check, *, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while not (value := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return value


def _finished_run(task_id: str):
    return lambda: TaskRun.objects.filter(task_id=task_id, finished_at__isnull=False).first()


def test_a_killed_pool_child_is_retried_and_finishes(
    transactional_db, celery_worker_process, tmp_path, client
):
    attempts = tmp_path / "attempts"
    attempts.touch()
    task_id = enqueue_on_commit(record_attempt, str(attempts), 60)
    first = _wait_for(attempts.read_text, timeout=30, what="the first attempt never started")
    child = int(first.split()[0])
    # The child is mid-task (asleep); kill it as the kernel's OOM killer would.
    os.kill(child, signal.SIGKILL)
    # Its message goes back on the queue (task_reject_on_worker_lost, acks_late); a new child
    # runs it again, and this time it finishes.
    assert AsyncResult(task_id).get(timeout=60) == 2
    pids = attempts.read_text().split()
    assert len(pids) == 2
    assert pids[0] == str(child) != pids[1]
    # The worker stores the result, then its on_success hook writes our record.
    run = _wait_for(_finished_run(task_id), timeout=10, what="the record was never finished")
    assert (run.state, run.attempts) == (TaskRun.State.SUCCEEDED, 2)
    page = client.get(reverse("task_status", args=[task_id])).content.decode()
    assert "Done." in page


def test_a_job_that_keeps_failing_says_why(
    transactional_db, celery_worker_process, tmp_path, client
):
    task_id = enqueue_on_commit(flaky, str(tmp_path / "attempts"), 10)
    url = reverse("task_status", args=[task_id])
    page = _wait_for(
        lambda: "The job failed." in (html := client.get(url).content.decode()) and html,
        timeout=30,
        what="the job never ended",
    )
    assert "could not be reached, even after several tries" in page
    run = _wait_for(_finished_run(task_id), timeout=10, what="the record was never finished")
    # Tried once and retried twice (max_retries=2), then given up.
    assert (run.state, run.attempts, run.error) == (TaskRun.State.FAILED, 3, "unavailable")
