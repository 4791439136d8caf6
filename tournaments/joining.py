"""How a club starts and people join it: a signed-up person starts a club (and owns it);
its directors invite people by e-mail, with a link that is used once, expires and can be
revoked; accepting makes the person a member with the invited role (never a lower one
than they have), and may hand them a roster player's history. Writes, as services."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from core.mail import mail_send_on_commit
from rules import RuleViolation
from rules.i18n import _
from tournaments.models import (
    DEFAULT_TIME_ZONE,
    INVITATION_DAYS,
    ROLE_RANK,
    Club,
    Invitation,
    InvitationStatus,
    Membership,
    Player,
    Role,
)
from tournaments.permissions import club_role
from tournaments.services import club_stats_refresh, membership_add, membership_role_set
from tournaments.tasks import invitation_mail_task

# Addresses of the site's own under clubs/ (clubs/new/ starts a club).
RESERVED_SLUGS = frozenset({"new"})

NOT_PENDING = {
    InvitationStatus.ACCEPTED: _("This invitation has already been used."),
    InvitationStatus.REVOKED: _("This invitation has been revoked by the club."),
    InvitationStatus.EXPIRED: _("This invitation has expired."),
}


def invitable_roles(*, club: Club, user: User | AnonymousUser) -> list[Role]:
    """The roles `user` may invite people to (and revoke invitations of): directors invite
    directors, scorers and members; owners also owners; nobody else invites."""
    held = club_role(club=club, user=user)
    if held is None or ROLE_RANK[held] < ROLE_RANK[Role.DIRECTOR]:
        return []
    return [role for role in Role if ROLE_RANK[role] <= ROLE_RANK[held]]


def _refuse_role(*, club: Club, by: User | AnonymousUser, role: Role) -> None:
    if role not in invitable_roles(club=club, user=by):
        raise RuleViolation(
            _("You cannot invite people as %(role)s in this club."),
            code="role_not_allowed",
            field="role",
            role=str(role.label),
        )


@transaction.atomic
def club_create(
    *,
    name: str,
    slug: str,
    language: str,
    time_zone: str = DEFAULT_TIME_ZONE,
    by: User,
) -> Club:
    """A new club, owned by the person who starts it (recorded in its role history)."""
    if slug in RESERVED_SLUGS or Club.objects.filter(slug=slug).exists():
        raise RuleViolation(
            _("The address “%(slug)s” is taken by another club: pick another."),
            code="slug_taken",
            field="slug",
            slug=slug,
        )
    club = Club.objects.create(name=name, slug=slug, language=language, time_zone=time_zone)
    membership_add(club=club, user=by, role=Role.OWNER, by=by)
    club_stats_refresh(club_id=club.pk)  # its page says "1 member", not "0"
    club.refresh_from_db()
    return club


@transaction.atomic
def invitation_create(
    *,
    club: Club,
    email: str,
    role: Role | str,
    by: User,
    player: Player | None = None,
    now: datetime.datetime | None = None,
) -> Invitation:
    """Invite `email` to the club as `role`, optionally to take over `player` (one of the
    club's players without an account); its mail is queued once this commits."""
    role, now = Role(role), now or timezone.now()
    _refuse_role(club=club, by=by, role=role)
    email = email.strip()
    if player is not None and (player.club_id != club.pk or player.user_id is not None):
        raise RuleViolation(
            _("%(name)s already has an account: only a player without one can be claimed."),
            code="player_has_account",
            field="player",
            name=player.name,
        )
    member = Membership.objects.filter(club=club, user__email__iexact=email).only("role").first()
    if member is not None and ROLE_RANK[Role(member.role)] >= ROLE_RANK[role] and player is None:
        raise RuleViolation(
            _("%(email)s is already a %(role)s of this club."),
            code="already_member",
            field="email",
            email=email,
            role=str(Role(member.role).label),
        )
    pending = Invitation.objects.select_for_update().filter(
        club=club,
        email__iexact=email,
        accepted_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=now,
    )
    if pending.exists():
        raise RuleViolation(
            _("%(email)s already has an invitation waiting: revoke it first to send a new one."),
            code="already_invited",
            field="email",
            email=email,
        )
    invitation = Invitation.objects.create(
        club=club,
        email=email,
        role=role,
        player=player,
        created_by=by,
        expires_at=now + datetime.timedelta(days=INVITATION_DAYS),
    )
    mail_send_on_commit(invitation_mail_task, invitation.pk)
    return invitation


def _locked(invitation: Invitation) -> Invitation:
    # One answer per token: two tabs accepting at once, or a revoke meeting an accept.
    return Invitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)


def _refuse_unless_pending(invitation: Invitation, now: datetime.datetime) -> None:
    status = invitation.status_at(now)
    if status != InvitationStatus.PENDING:
        raise RuleViolation(NOT_PENDING[status], code=f"invitation_{status.value}")


@transaction.atomic
def invitation_revoke(
    *, invitation: Invitation, by: User, now: datetime.datetime | None = None
) -> Invitation:
    """Make a waiting invitation's link stop working."""
    now = now or timezone.now()
    invitation = _locked(invitation)
    _refuse_role(club=invitation.club, by=by, role=Role(invitation.role))
    _refuse_unless_pending(invitation, now)
    invitation.revoked_at, invitation.revoked_by = now, by
    invitation.save(update_fields=["revoked_at", "revoked_by"])
    return invitation


@transaction.atomic
def invitation_accept(
    *, invitation: Invitation, user: User, now: datetime.datetime | None = None
) -> Membership:
    """`user` takes the invitation: a member with its role, or a member whose role is
    raised to it (never lowered); with the invitation's player, that player becomes theirs
    (refused when they already have a player in the club). Recorded in the role history."""
    now = now or timezone.now()
    invitation = _locked(invitation)
    _refuse_unless_pending(invitation, now)
    club, role = invitation.club, Role(invitation.role)
    if invitation.player_id is not None:
        _player_claim(player_id=invitation.player_id, club=club, user=user)
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is None:
        membership = membership_add(club=club, user=user, role=role, by=invitation.created_by)
        club_stats_refresh(club_id=club.pk)  # one count query, the page counts them at once
    elif ROLE_RANK[role] > ROLE_RANK[Role(membership.role)]:
        membership = membership_role_set(membership=membership, role=role, by=invitation.created_by)
    invitation.accepted_at, invitation.accepted_by = now, user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return membership


def _player_claim(*, player_id: int, club: Club, user: User) -> None:
    player = Player.objects.select_for_update().get(pk=player_id)
    if player.user_id == user.pk:
        return
    if player.user_id is not None:
        raise RuleViolation(
            _("%(name)s already has an account: ask the club's directors."),
            code="player_has_account",
            name=player.name,
        )
    own = Player.objects.filter(club=club, user=user).first()
    if own is not None:
        raise RuleViolation(
            _(
                "You already play in this club as %(own)s, so you cannot take over "
                "%(name)s as well: ask the club's directors to merge the two."
            ),
            code="has_player",
            own=own.name,
            name=player.name,
        )
    player.user, player.guest = user, False
    player.save(update_fields=["user", "guest"])
