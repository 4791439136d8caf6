"""The invitation's mail: rendered when it is sent, in the invitee's language."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.adapter import person_language
from accounts.services import mail_render_send, site_link
from tournaments.models import Invitation, InvitationStatus


def invitation_language(invitation: Invitation) -> str:
    """The invitee's own language when an account with the address has picked one, else
    the club's (a stranger reads the club's pages in it too)."""
    user = (
        get_user_model()
        ._default_manager.filter(email__iexact=invitation.email, is_active=True)
        .select_related("profile")
        .first()
    )
    return person_language(user, fallback=invitation.club.language)


def invitation_mail_send(*, invitation_id: int) -> None:
    """Mail the invitation's link, unless it has been accepted, revoked or has expired
    since it was queued (sending it twice sends the same link)."""
    invitation = (
        Invitation.objects.select_related("club", "created_by", "player")
        .filter(pk=invitation_id)
        .first()
    )
    if invitation is None or invitation.status != InvitationStatus.PENDING:
        return
    inviter = invitation.created_by
    context = {
        "invitation": invitation,
        "club": invitation.club,
        "inviter": (inviter.get_full_name() or inviter.get_username()) if inviter else "",
        "link": site_link(reverse("invitation_accept", args=[invitation.token])),
        "site_url": settings.SITE_URL,
    }
    mail_render_send(
        templates=("tournaments/invitation_subject.txt", "tournaments/invitation_message.txt"),
        to=invitation.email,
        context=context,
        language=invitation_language(invitation),
    )
