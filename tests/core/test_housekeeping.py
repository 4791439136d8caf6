"""The nightly clean-up the scheduler runs (compose's beat service): expired sessions and
old print files go, what is still in use stays."""

from __future__ import annotations

import datetime

import pytest
from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.files.base import ContentFile
from django.utils import timezone

from clubsite.celery import app
from core.housekeeping import sessions_clear, signin_records_prune
from core.models import TaskRun
from printing.housekeeping import print_files_prune
from printing.models import PrintJob
from tests.support.events import seated_event
from tests.support.print_state import with_run

pytestmark = pytest.mark.django_db


def test_expired_sessions_go_and_live_ones_stay():
    live, expired = SessionStore(), SessionStore()
    live.create()
    expired.create()
    Session.objects.filter(session_key=expired.session_key).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1)
    )
    assert sessions_clear() == 1
    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]


def _job(event, *, days_old: int, state: str) -> PrintJob:
    job = PrintJob.objects.create(event=event, kind="table_sheets")
    with_run(job, state=state)
    job.file.save("sheets.pdf", ContentFile(b"%PDF-1.7 test"), save=True)
    PrintJob.objects.filter(pk=job.pk).update(
        created_at=timezone.now() - datetime.timedelta(days=days_old)
    )
    return job


def test_old_print_files_go_with_their_jobs_and_recent_or_running_ones_stay(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.PRINT_FILES_KEEP_DAYS = 30
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    old = _job(event, days_old=31, state=TaskRun.State.SUCCEEDED)
    failed = _job(event, days_old=40, state=TaskRun.State.FAILED)
    recent = _job(event, days_old=29, state=TaskRun.State.SUCCEEDED)
    running = _job(event, days_old=31, state=TaskRun.State.RUNNING)
    old_path, recent_path = old.file.path, recent.file.path
    assert print_files_prune() == 2
    assert set(PrintJob.objects.values_list("pk", flat=True)) == {recent.pk, running.pk}
    assert not (tmp_path / old_path).exists() and (tmp_path / recent_path).exists()
    assert failed.pk not in PrintJob.objects.values_list("pk", flat=True)
    assert print_files_prune() == 0  # safe to run twice


def test_the_scheduler_names_tasks_the_worker_knows():
    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks, entry["task"]


def test_sign_in_records_older_than_the_kept_days_go(settings):
    settings.SIGNIN_RECORDS_KEEP_DAYS = 90
    old = AccessAttempt.objects.create(username="old", failures_since_start=1)
    recent = AccessAttempt.objects.create(username="recent", failures_since_start=1)
    log = AccessLog.objects.create(username="old")
    day = datetime.timedelta(days=1)
    AccessAttempt.objects.filter(pk=old.pk).update(attempt_time=timezone.now() - 91 * day)
    AccessLog.objects.filter(pk=log.pk).update(attempt_time=timezone.now() - 91 * day)
    AccessAttempt.objects.filter(pk=recent.pk).update(attempt_time=timezone.now() - 89 * day)
    assert signin_records_prune() == 2
    assert list(AccessAttempt.objects.values_list("username", flat=True)) == ["recent"]
    assert signin_records_prune() == 0
