"""Reads for clubs, people and roles: querysets or plain values, never writes."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from tournaments.models import (
    Club,
    Event,
    Membership,
    MembershipChange,
    Player,
    Profile,
    Registration,
    RegistrationStatus,
    Role,
    Stage,
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


def club_events(*, club: Club) -> QuerySet[Event]:
    return club.events.order_by("-date", "name")


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
