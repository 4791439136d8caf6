"""Who may do what in a club. Views call these instead of checking roles themselves."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from tournaments.models import Club, Membership, Role
from tournaments.selectors import club_membership


def get_club_for(
    *, slug: str, user: AbstractBaseUser | AnonymousUser, role: Role | None = None
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
