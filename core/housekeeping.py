"""What a site must do now and then without anyone asking: Celery beat runs these (compose's
`beat` service, `CELERY_BEAT_SCHEDULE` in the settings); each is safe to run twice."""

from __future__ import annotations

import datetime

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from celery import shared_task
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone


def sessions_clear() -> int:
    """Delete expired sessions (what `manage.py clearsessions` does for the database
    backend), returning how many went: every visitor with a device cookie or a sign-in
    leaves a row, and nothing else ever removes them."""
    deleted, _kinds = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


@shared_task(name="core.sessions_clear")
def sessions_clear_task() -> int:
    return sessions_clear()


def signin_records_prune(*, now: datetime.datetime | None = None) -> int:
    """Delete django-axes' records of sign-ins (failed tries, lockouts, the access log)
    older than `SIGNIN_RECORDS_KEEP_DAYS`: they name a user name, an address and a browser,
    and the privacy page promises they go. Returns how many rows went."""
    cutoff = (now or timezone.now()) - datetime.timedelta(days=settings.SIGNIN_RECORDS_KEEP_DAYS)
    deleted = AccessAttempt.objects.filter(attempt_time__lt=cutoff).delete()[0]
    deleted += AccessFailureLog.objects.filter(attempt_time__lt=cutoff).delete()[0]
    deleted += AccessLog.objects.filter(attempt_time__lt=cutoff).delete()[0]
    return deleted


@shared_task(name="core.signin_records_prune")
def signin_records_prune_task() -> int:
    return signin_records_prune()
