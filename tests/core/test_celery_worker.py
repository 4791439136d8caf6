"""Tasks against a real Celery worker process on Redis, sharing the PostgreSQL test database.

`make test` runs these in its PostgreSQL pass with REDIS_URL set; they need committed data
(transactional_db), because the worker is another process with its own connection.
"""

from __future__ import annotations

import os
import signal

import pytest
from celery.result import AsyncResult
from django.db import transaction
from django.urls import reverse

from core.models import TaskRun
from core.tasks import enqueue_on_commit
from tests.support.celery_tasks import flaky, record_attempt
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.waiting import wait_until
from tournaments.models import Club, Role
from tournaments.tasks import club_stats_request

pytestmark = [pytest.mark.celery_worker, pytest.mark.postgres]


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
    # A recount asked for afterwards, and finished: the one worker takes its queue in order,
    # so a recount the rolled-back request had queued would have run before it.
    with transaction.atomic():
        later = club_stats_request(club=_build_club(members=1))
    AsyncResult(later).get(timeout=30)
    assert AsyncResult(task_id).state == "PENDING"
    club.refresh_from_db()
    assert club.member_count == 0


def test_progress_page_reports_the_workers_result(transactional_db, celery_worker_process, client):
    club = _build_club(members=2)
    owner = club.memberships.get(role=Role.OWNER).user
    client.force_login(owner)
    response = client.post(reverse("club_stats_refresh", args=[club.slug]))
    status_url = response["Location"]
    wait_until(
        lambda: "Done." in client.get(status_url, HTTP_HX_REQUEST="true").content.decode(),
        timeout=30,
        what="the progress page to say Done.",
    )
    club.refresh_from_db()
    assert club.member_count == 2


def _finished_run(task_id: str):
    return lambda: TaskRun.objects.filter(task_id=task_id, finished_at__isnull=False).first()


def test_a_killed_pool_child_is_retried_and_finishes(
    transactional_db, celery_worker_process, tmp_path, client
):
    attempts = tmp_path / "attempts"
    attempts.touch()
    task_id = enqueue_on_commit(record_attempt, str(attempts), 60)
    first = wait_until(attempts.read_text, timeout=30, what="the first attempt to start")
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
    run = wait_until(_finished_run(task_id), timeout=10, what="the task's record to be finished")
    assert (run.state, run.attempts) == (TaskRun.State.SUCCEEDED, 2)
    page = client.get(reverse("task_status", args=[task_id])).content.decode()
    assert "Done." in page


def test_a_job_that_keeps_failing_says_why(
    transactional_db, celery_worker_process, tmp_path, client
):
    task_id = enqueue_on_commit(flaky, str(tmp_path / "attempts"), 10)
    url = reverse("task_status", args=[task_id])
    page = wait_until(
        lambda: "The job failed." in (html := client.get(url).content.decode()) and html,
        timeout=30,
        what="the job to end as failed",
    )
    assert "could not be reached, even after several tries" in page
    run = wait_until(_finished_run(task_id), timeout=10, what="the task's record to be finished")
    # Tried once and retried twice (max_retries=2), then given up.
    assert (run.state, run.attempts, run.error) == (TaskRun.State.FAILED, 3, "unavailable")
