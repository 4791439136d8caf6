"""Tasks against a real Celery worker process on Redis, sharing the PostgreSQL test database.

`make test` runs these in its PostgreSQL pass with REDIS_URL set; they need committed data
(transactional_db), because the worker is another process with its own connection.
"""

from __future__ import annotations

import os
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
from tests.factories import ClubFactory, MembershipFactory
from tournaments.models import Club, Role
from tournaments.services import club_stats_request

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.celery_worker, pytest.mark.postgres]


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker, tmp_path_factory):
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        pytest.skip("needs REDIS_URL and PostgreSQL: make test runs this in its PostgreSQL pass")
    db = settings.DATABASES["default"]
    # A queue of our own, so that no other worker on this Redis takes the test's tasks.
    queue = f"lappu-test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": f"postgresql://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
    }
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "clubsite", "worker", "--pool=solo", "-Q", queue,
             "--without-gossip", "--without-mingle", "--loglevel=INFO", "-n", f"{queue}@%h"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"the Celery worker exited:\n{log.read_text()}")
            if app.control.ping(destination=[f"{queue}@{os.uname().nodename}"], timeout=1):
                break
        else:
            pytest.fail(f"the Celery worker did not answer within 60 s:\n{log.read_text()}")
        app.conf.task_default_queue = queue
        yield queue
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


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
