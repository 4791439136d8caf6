"""The jobs that send the players' mail: one per action (a whole draw's tables in one), and
the sweep that sends what an action could not queue (tournaments.notices)."""

from __future__ import annotations

import datetime

from celery import shared_task
from django.utils import timezone

from core.tasks import TrackedTask
from tournaments.models import Notice, NoticeStatus
from tournaments.notice_mail import notices_send

# Retried after 1, 2, 4, 8, 16 minutes (capped at an hour): a mail server that is down for
# a moment loses nothing; one down for half an hour leaves the mails FAILED, on the
# director's page, to be sent again.
MAX_RETRIES = 5
FIRST_RETRY = 60
# A notice still waiting this long after it was made missed its job (the queue was down
# when the action committed): the sweep sends it.
SWEEP_AFTER = datetime.timedelta(minutes=10)
SWEEP_BATCH = 500


class MailNotSent(Exception):
    """Some of a batch's mails failed; the job is retried with those alone."""


@shared_task(base=TrackedTask, bind=True, name="tournaments.notices_send", max_retries=MAX_RETRIES)
def notices_send_task(self: TrackedTask, notice_ids: list[int]) -> int:
    """Takes the notices' ids (never an address): safe to run twice, a sent one is not
    sent again. Returns how many failed for good."""
    last_try = self.request.retries >= MAX_RETRIES
    failed = notices_send(notice_ids=notice_ids, last_try=last_try)
    if failed and not last_try:
        countdown = min(FIRST_RETRY * 2**self.request.retries, 3600)
        raise self.retry(
            args=[failed], countdown=countdown, exc=MailNotSent(f"{len(failed)} not sent")
        )
    return len(failed)


def notices_waiting(*, now: datetime.datetime | None = None) -> list[int]:
    """The notices left waiting past SWEEP_AFTER, oldest first, at most SWEEP_BATCH."""
    before = (now or timezone.now()) - SWEEP_AFTER
    # Tried already: its own job is retrying it (two jobs at once could mail it twice).
    waiting = Notice.objects.filter(status=NoticeStatus.QUEUED, attempts=0, created_at__lt=before)
    return list(waiting.order_by("pk").values_list("pk", flat=True)[:SWEEP_BATCH])


@shared_task(name="tournaments.notices_sweep")
def notices_sweep_task() -> int:
    """Celery beat's: send what no job took (run every few minutes; safe to run twice)."""
    ids = notices_waiting()
    if ids:
        notices_send_task.delay(ids)
    return len(ids)
