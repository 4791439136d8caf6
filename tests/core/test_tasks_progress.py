"""The progress page: done, still working, failed (why, and Retry), lost, never queued; and
the records `TrackedTask` keeps. Tasks run inline (eager) here."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
from celery import uuid
from celery.exceptions import TimeLimitExceeded
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from clubsite.celery import app
from core.models import TaskRun
from core.tasks import (
    MAX_WORKER_LOSSES,
    START_WITHIN,
    WorkerKeptDying,
    enqueue_on_commit,
    task_run_status,
)
from tests.support.celery_tasks import flaky
from tests.support.factories import MembershipFactory
from tournaments.models import Club, Role
from tournaments.tasks import club_stats_refresh_task

# Fresh ids: the inline result store lives as long as the test process.
NOBODYS = "0f0f0f0f-0000-4000-8000-000000000999"
Run = TaskRun.State


def _run(club: Club, *, minutes_ago: int = 0, **fields) -> TaskRun:
    queued = timezone.now() - datetime.timedelta(minutes=minutes_ago)
    defaults = {
        "task_id": uuid(),
        "name": club_stats_refresh_task.name,
        "args": [club.pk],
        "queued_at": queued,
        "lost_after": queued + START_WITHIN,
    }
    return TaskRun.objects.create(**{**defaults, **fields})


def _page(client, run: TaskRun, **extra) -> str:
    response = client.get(reverse("task_status", args=[run.task_id]), **extra)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def director(club):
    return MembershipFactory(club=club, role=Role.DIRECTOR).user


@pytest.mark.parametrize("task_id", [NOBODYS, "no-such-task", "x" * 300])
def test_a_task_nobody_queued_is_404(client, db, task_id):
    assert client.get(reverse("task_status", args=[task_id])).status_code == 404


def test_done(client, club, owner, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        task_id = enqueue_on_commit(club_stats_refresh_task, club.pk)
    run = TaskRun.objects.get(task_id=task_id)
    assert (run.state, run.attempts, run.done, run.total) == (Run.SUCCEEDED, 1, 1, 1)
    assert run.started_at and run.finished_at
    html = _page(client, run)
    assert "Done." in html
    assert "hx-get" not in html


def test_still_working_shows_done_of_total_and_keeps_polling(client, club):
    now = timezone.now()
    run = _run(club, state=Run.RUNNING, started_at=now, heard_at=now, done=3, total=10,
               lost_after=now + datetime.timedelta(minutes=7))  # fmt: skip
    html = _page(client, run, HTTP_HX_REQUEST="true")
    assert "Still working" in html
    assert '<progress max="10" value="3">' in html
    assert "3 of 10" in html
    assert 'hx-trigger="every 1s"' in html


def test_queued_and_not_started_yet_is_waiting(client, club):
    html = _page(client, _run(club, minutes_ago=1))
    assert "Waiting for a worker" in html
    assert "hx-get" in html


def test_never_started_within_the_limit_is_lost(client, club, director, member):
    run = _run(club, minutes_ago=11)
    client.force_login(member)
    html = _page(client, run)
    assert "The job seems to be lost." in html
    assert "no worker has started it" in html
    assert "hx-get" not in html
    assert ">Retry<" not in html  # a member may not recount
    client.force_login(director)
    assert ">Retry<" in _page(client, run)


def test_started_and_silent_for_too_long_is_lost(client, club):
    long_ago = timezone.now() - datetime.timedelta(minutes=30)
    run = _run(club, minutes_ago=31, state=Run.RUNNING, started_at=long_ago, heard_at=long_ago,
               lost_after=long_ago + datetime.timedelta(minutes=7))  # fmt: skip
    html = _page(client, run)
    assert "The job seems to be lost." in html
    assert "nothing has been heard of it since" in html


def test_a_failed_job_says_why(client, club, django_capture_on_commit_callbacks):
    missing = Club.objects.order_by("-pk").values_list("pk", flat=True).first() + 100
    with django_capture_on_commit_callbacks(execute=True):
        task_id = enqueue_on_commit(club_stats_refresh_task, missing)
    run = TaskRun.objects.get(name=club_stats_refresh_task.name, args=[missing])
    assert (run.state, run.error) == (Run.FAILED, "missing")
    assert "DoesNotExist" in run.detail
    html = _page(client, run)
    assert "The job failed." in html
    assert "What it was about no longer exists" in html
    assert "hx-get" not in html
    assert task_id == run.task_id


def test_the_record_is_the_one_state_the_result_store_is_never_read(client, club):
    """A second state must not come back: what the result store says (here, that the job
    failed) changes nothing, and a store that cannot be reached is never asked."""
    run = _run(club, state=Run.RUNNING, started_at=timezone.now(), done=2, total=5)
    meta = {"status": "FAILURE", "result": TimeLimitExceeded(360)}
    with mock.patch.object(app.backend, "get_task_meta", return_value=meta) as store:
        html = _page(client, run)
        status = task_run_status(task_id=run.task_id)
    assert store.call_count == 0
    assert (status.kind, status.done, status.total) == ("working", 2, 5)
    assert "took longer" not in html and "2 of 5" in html


def test_the_page_tells_the_state_with_the_result_store_unreachable(client, club):
    waiting = _run(club)
    ended = _run(club, state=Run.SUCCEEDED, finished_at=timezone.now())
    failed = _run(club, state=Run.FAILED, error="timeout", finished_at=timezone.now())
    down = ConnectionError("down")
    with (
        mock.patch.object(app.backend, "get_task_meta", side_effect=down),
        mock.patch.object(app.backend, "get", side_effect=down),
    ):
        kinds = [task_run_status(task_id=run.task_id).kind for run in (waiting, ended, failed)]
        html = _page(client, waiting)
    assert kinds == ["working", "done", "failed"]
    assert "Waiting for a worker to start the job" in html and "cannot be told" not in html


def test_retry_queues_the_job_again(client, club, director, django_capture_on_commit_callbacks):
    run = _run(club, state=Run.FAILED, error="unavailable", finished_at=timezone.now())
    client.force_login(director)
    html = _page(client, run, data={"next": club.get_absolute_url()})
    assert "could not be reached, even after several tries" in html
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("task_status", args=[run.task_id]), {"next": club.get_absolute_url()}
        )
    assert response.status_code == 302
    again = TaskRun.objects.exclude(pk=run.pk).get()
    assert response["Location"].startswith(reverse("task_status", args=[again.task_id]))
    assert again.state == Run.SUCCEEDED
    assert Club.objects.get(pk=club.pk).member_count == 1
    assert "Done." in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize("who", ["anonymous", "member", "outsider"])
def test_retry_is_only_for_those_who_may_start_the_job(client, club, who, request):
    run = _run(club, state=Run.FAILED, error="error", finished_at=timezone.now())
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    assert client.post(reverse("task_status", args=[run.task_id])).status_code == 403
    assert TaskRun.objects.count() == 1


def test_a_job_still_working_cannot_be_retried(client, club, director):
    run = _run(club, state=Run.RUNNING, started_at=timezone.now())
    client.force_login(director)
    assert client.post(reverse("task_status", args=[run.task_id])).status_code == 403


def test_a_rolled_back_request_queues_nothing(club):
    with (
        pytest.raises(RuntimeError),
        mock.patch.object(club_stats_refresh_task, "apply_async") as apply_async,
        transaction.atomic(),
    ):
        enqueue_on_commit(club_stats_refresh_task, club.pk)
        raise RuntimeError("the request failed after queueing")
    apply_async.assert_not_called()
    assert not TaskRun.objects.exists()


def test_autoretry_counts_attempts_without_calling_them_lost(
    db, tmp_path, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        task_id = enqueue_on_commit(flaky, str(tmp_path / "attempts"), 2)
    run = task_run_status(task_id=task_id).run
    assert (run.state, run.attempts) == (Run.SUCCEEDED, 3)


def test_a_job_whose_worker_keeps_dying_is_given_up(client, club):
    # Its message came back after the worker died MAX_WORKER_LOSSES + 1 times.
    run = _run(club, state=Run.RUNNING, attempts=MAX_WORKER_LOSSES + 1, started_at=timezone.now())
    result = club_stats_refresh_task.apply(args=[club.pk], task_id=run.task_id)
    assert isinstance(result.result, WorkerKeptDying)
    run.refresh_from_db()
    assert (run.state, run.error) == (Run.FAILED, "worker_lost")
    assert "stopped in the middle, again and again" in _page(client, run)
    assert Club.objects.get(pk=club.pk).member_count == 0  # the job itself never ran


def test_one_lost_worker_is_not_enough_to_give_up(club):
    run = _run(club, state=Run.RUNNING, attempts=1, started_at=timezone.now())
    club_stats_refresh_task.apply(args=[club.pk], task_id=run.task_id)
    run.refresh_from_db()
    assert (run.state, run.attempts) == (Run.SUCCEEDED, 2)


def test_old_records_are_pruned(club, django_capture_on_commit_callbacks):
    old = _run(club, minutes_ago=60 * 24 * 31, state=Run.SUCCEEDED)
    with django_capture_on_commit_callbacks(execute=True):
        enqueue_on_commit(club_stats_refresh_task, club.pk)
    assert not TaskRun.objects.filter(pk=old.pk).exists()
    assert TaskRun.objects.count() == 1
