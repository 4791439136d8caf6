"""Reads for clubs, people and roles: querysets or plain values, never writes."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from tournaments.models import (
    Club,
    Event,
    EventStatus,
    Membership,
    MembershipChange,
    Player,
    Profile,
    Registration,
    RegistrationStatus,
    Role,
    Season,
    Stage,
    StageStatus,
    Table,
)


def user_language(*, user: User | AnonymousUser) -> str:
    if not user.is_authenticated:
        return ""
    return Profile.objects.filter(user=user).values_list("language", flat=True).first() or ""


def club_list() -> QuerySet[Club]:
    return Club.objects.order_by("name")


def club_membership(*, club: Club, user: User | AnonymousUser) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def club_members(*, club: Club) -> QuerySet[Membership]:
    return (
        Membership.objects.filter(club=club)
        .select_related("user")
        .order_by("user__last_name", "user__first_name", "user__username")
    )


def club_role_counts(*, club: Club) -> dict[str, int]:
    counts = {role.value: 0 for role in Role}
    for role in Membership.objects.filter(club=club).values_list("role", flat=True):
        counts[role] += 1
    return counts


def event_registrations(*, event: Event) -> QuerySet[Registration]:
    return event.registrations.select_related("player").order_by("status", "player__name")


def registerable_players(*, event: Event) -> QuerySet[Player]:
    """The club's players not yet registered (or withdrawn), for the director's picker."""
    taken = Registration.objects.filter(event=event).exclude(status=RegistrationStatus.WITHDRAWN)
    return (
        Player.objects.filter(club=event.club)
        .exclude(pk__in=taken.values("player_id"))
        .order_by("name")
    )


# (This section's import stays with it while others edit the top of the file.)


def club_role_history(*, club: Club) -> QuerySet[MembershipChange]:
    """Every membership added, re-roled or removed in the club, newest first."""
    return (
        MembershipChange.objects.filter(club=club)
        .select_related("user", "changed_by")
        .order_by("-changed_at", "-pk")
    )


def stage_current(*, event: Event) -> Stage | None:
    """The event's latest stage (being drawn, seated or finished), or None before a draw."""
    return event.stages.order_by("-number").first()


def stage_in_play(*, event: Event) -> Stage | None:
    """The latest stage that has been seated (its tables play, or have played): the one the
    results show. A draw still in preview is the director's alone."""
    return (
        event.stages.filter(status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED])
        .select_related("event")
        .order_by("-number")
        .first()
    )


def stage_is_frozen(*, stage: Stage) -> bool:
    """Whether the stage's draw stands: a score has been entered at one of its tables. The
    one rule for the services that redraw or swap and for the page that offers them."""
    return stage.tables.filter(has_scores=True).exists()


def event_draw_state(*, event: Event) -> dict[str, Any]:
    """What the manage page shows of the draw: the current stage, its tables while it is a
    preview, how many are checked in, and whether drawing (again) is still allowed."""
    stage = stage_current(event=event)
    preview = stage is not None and stage.status == StageStatus.PREVIEW
    tables = Table.objects.filter(stage=stage).prefetch_related("seats__player").order_by("number")
    return {
        "stage": stage,
        "preview_tables": list(tables) if preview else [],
        "checked_in": event.registrations.filter(status=RegistrationStatus.CHECKED_IN).count(),
        # A draw may be redone (say, for a late arrival) until the first score exists.
        "can_draw": stage is None or not stage_is_frozen(stage=stage),
    }


def _club_events_filtered(
    *, club: Club, game: str = "", season: Season | None = None
) -> QuerySet[Event]:
    events = club.events.select_related("season")
    if game:
        events = events.filter(variant_id=game)
    if season is not None:
        events = events.filter(season=season)
    return events.order_by("-date", "name")


def club_events_upcoming(
    *, club: Club, today: datetime.date, game: str = "", season: Season | None = None
) -> QuerySet[Event]:
    """The club's events still to be played or in play: from today on, not finished."""
    return (
        _club_events_filtered(club=club, game=game, season=season)
        .filter(date__gte=today)
        .exclude(status=EventStatus.FINISHED)
    )


def club_events_past(
    *, club: Club, today: datetime.date, game: str = "", season: Season | None = None
) -> QuerySet[Event]:
    """The club's events before today, and any finished already (a night over early)."""
    return _club_events_filtered(club=club, game=game, season=season).filter(
        Q(date__lt=today) | Q(status=EventStatus.FINISHED)
    )
