from __future__ import annotations

import smtplib
from collections.abc import Sequence
from typing import Any

from celery import shared_task
from django.core.exceptions import PermissionDenied
from django.db import InterfaceError, OperationalError
from django.http import Http404

from core.tasks import TrackedTask, enqueue_on_commit
from tournaments.invitation_mail import invitation_mail_send
from tournaments.models import Club, Role
from tournaments.permissions import get_club_for
from tournaments.registration_mail import registration_confirm_mail_send
from tournaments.services import club_stats_refresh


class ClubDirectorTask(TrackedTask):
    """A job about one club, its id the first argument: whoever may direct the club (and so
    start the job) may retry it."""

    def may_retry(self, user: Any, args: Sequence[Any]) -> bool:
        slug = Club.objects.filter(pk__in=args[:1]).values_list("slug", flat=True)
        if not slug:
            return False
        try:
            get_club_for(slug=slug[0], user=user, role=Role.DIRECTOR)
        except (PermissionDenied, Http404):
            return False
        return True


@shared_task(
    base=ClubDirectorTask,
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def club_stats_refresh_task(self: ClubDirectorTask, club_id: int) -> dict[str, int]:
    self.progress(0, 1)
    count = club_stats_refresh(club_id=club_id)
    self.progress(1, 1)
    return {"club_id": club_id, "member_count": count}


def club_stats_request(*, club: Club) -> str:
    """Queue a recount once the current transaction commits; return the task id to poll.

    Raises core.tasks.QueueUnavailable, outside a transaction, when the queue is down.
    """
    return enqueue_on_commit(club_stats_refresh_task, club.pk)


@shared_task(
    name="tournaments.invitation_mail_task",
    autoretry_for=(smtplib.SMTPException, OSError, OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=6,
)
def invitation_mail_task(invitation_id: int) -> None:
    """Takes the invitation's id: the queue never holds its token."""
    invitation_mail_send(invitation_id=invitation_id)


@shared_task(
    name="tournaments.registration_confirm_mail_task",
    autoretry_for=(smtplib.SMTPException, OSError, OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=6,
)
def registration_confirm_mail_task(registration_id: int) -> None:
    """Takes the registration's id: the link is signed when the mail is made."""
    registration_confirm_mail_send(registration_id=registration_id)
