"""What a site must do now and then without anyone asking: Celery beat runs these (compose's
`beat` service, `CELERY_BEAT_SCHEDULE` in the settings); each is safe to run twice."""

from __future__ import annotations

from celery import shared_task
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
