"""Writes for clubs, people and roles. One service per write, keyword-only arguments."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from tournaments.models import Club, Profile
from tournaments.selectors import club_members


def profile_language_set(*, user: AbstractBaseUser, language: str) -> Profile:
    if language not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {language!r}")  # the form has already refused it
    profile, _ = Profile.objects.update_or_create(user=user, defaults={"language": language})
    return profile


def club_stats_refresh(*, club_id: int) -> int:
    """Recount a club's members. Safe to run twice: it only ever writes the current count."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club_id)
        club.member_count = club_members(club=club).count()
        club.stats_refreshed_at = timezone.now()
        club.save(update_fields=["member_count", "stats_refreshed_at"])
    return club.member_count


def club_stats_request(*, club: Club) -> str:
    """Queue a recount once the current transaction commits; return the task id to poll."""
    from celery import uuid

    from tournaments.tasks import club_stats_refresh_task

    task_id = uuid()
    transaction.on_commit(
        lambda: club_stats_refresh_task.apply_async(args=[club.pk], task_id=task_id)
    )
    return task_id
