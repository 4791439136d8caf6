"""Who may do what in a club. Views call these instead of checking roles themselves."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse

from tournaments.changes import with_results_version
from tournaments.models import ROLE_RANK, Club, Event, Membership, Player, Role, Season, Table
from tournaments.selectors import club_membership
from tournaments.visibility import is_public, public_events_q


def get_club_for(
    *, slug: str, user: User | AnonymousUser, role: Role | None = None
) -> tuple[Club, Membership | None]:
    """The club, and the person's membership; PermissionDenied when `role` is required and missing.

    Anonymous visitors reach only public pages: the view decorates with login_required where
    a role is needed, so an anonymous user is sent to sign in rather than refused.
    """
    club = get_object_or_404(Club, slug=slug)
    membership = club_membership(club=club, user=user)
    is_superuser = getattr(user, "is_superuser", False)
    if (
        role is not None
        and not is_superuser
        and (membership is None or not membership.has_role(role))
    ):
        raise PermissionDenied
    return club, membership


def player_for(
    *, slug: str, player_id: int, user: User | AnonymousUser, role: Role = Role.DIRECTOR
) -> Player:
    """One of the club's players, for a person with `role` there (PermissionDenied without
    it; 404 for another club's player or a duplicate merged away, which is its kept player
    now: every page that acts on one player asks this)."""
    club, _membership = get_club_for(slug=slug, user=user, role=role)
    players = Player.objects.select_related("club").filter(club=club, merged_into__isnull=True)
    return get_object_or_404(players, pk=player_id)


def event_for(
    *, slug: str, event_id: int, user: User | AnonymousUser, role: Role = Role.DIRECTOR
) -> Event:
    """The club's event, for someone of `role` there: the one way a staff page gets its
    event. 404 when the club has no such event, PermissionDenied when `user` lacks the role
    (healthchecks' `_get_check_for_user` is the pattern)."""
    club, _membership = get_club_for(slug=slug, user=user, role=role)
    return get_object_or_404(Event.objects.select_related("club"), pk=event_id, club=club)


def table_for(
    *,
    slug: str,
    event_id: int,
    table_id: int,
    user: User | AnonymousUser,
    role: Role = Role.DIRECTOR,
) -> Table:
    """A table of the club's event, for someone of `role` there (as `event_for`)."""
    club, _membership = get_club_for(slug=slug, user=user, role=role)
    return get_object_or_404(
        Table.everything.select_related("stage__event__club"),
        pk=table_id,
        stage__event_id=event_id,
        stage__event__club=club,
    )


def season_for(
    *, slug: str, season_id: int, user: User | AnonymousUser, role: Role = Role.DIRECTOR
) -> Season:
    """A season of the club, for someone of `role` there (as `event_for`)."""
    club, _membership = get_club_for(slug=slug, user=user, role=role)
    return get_object_or_404(Season.objects.select_related("club"), pk=season_id, club=club)


def manage_page(slug: str, event_id: int, section: str = "") -> HttpResponseRedirect:
    """Back to the event's manage page, at `section` ("draw", "print", ...) when given."""
    url = reverse("event_manage", args=[slug, event_id])
    return HttpResponseRedirect(f"{url}#{section}" if section else url)


def club_role(*, club: Club, user: User | AnonymousUser) -> Role | None:
    """The person's role in the club (a site admin counts as an owner), or None: the one
    answer to "may they direct / score here", for the views and the services alike."""
    if getattr(user, "is_superuser", False):
        return Role.OWNER
    membership = club_membership(club=club, user=user)
    return Role(membership.role) if membership else None


def club_allows(*, club: Club, user: User | AnonymousUser, role: Role) -> bool:
    """Whether the person holds `role` or a stronger one in the club."""
    held = club_role(club=club, user=user)
    return held is not None and ROLE_RANK[held] >= ROLE_RANK[role]


def event_visible(*, event: Event, user: User | AnonymousUser) -> bool:
    """Whether `user` may see `event`'s public pages: anyone once the club has published it,
    before that only its directors (who preview it). Every public page and feed asks this."""
    return is_public(event) or club_allows(club=event.club, user=user, role=Role.DIRECTOR)


def public_event(*, slug: str, event_id: int, user: User | AnonymousUser) -> Event | None:
    """The club's event for a public page, or None when there is none `user` may see (a
    private event is not found, not forbidden: its name stays private too)."""
    # With its results version: the public pages check their cached copy against it.
    events = with_results_version(Event.objects.select_related("club"))
    event = events.filter(club__slug=slug, pk=event_id).first()
    if event is None or not event_visible(event=event, user=user):
        return None
    return event


def published_events(*, club: Club) -> QuerySet[Event]:
    """The club's events anyone may see, newest first."""
    return club.events.filter(public_events_q()).order_by("-date", "name")
