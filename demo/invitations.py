"""The demo club's invitations: one waiting (a scorer, by e-mail), one that hands a roster
player's results to whoever accepts it, and one revoked, so the invitations page shows
each state. No mail is sent: the addresses are the demo's own."""

from __future__ import annotations

import datetime

from django.contrib.auth import get_user_model
from django.utils import timezone

from tournaments.models import INVITATION_DAYS, Club, Invitation, Player, Role


def demo_invitations(club: Club) -> None:
    director = get_user_model().objects.get(username="director")
    now = timezone.now()
    claimable = Player.objects.filter(club=club, user__isnull=True, guest=False).order_by("name")
    wanted = [
        ("newcomer@demo.lappu.example", Role.SCORER, None, False),
        ("player@demo.lappu.example", Role.MEMBER, claimable.first(), False),
        ("changed-mind@demo.lappu.example", Role.MEMBER, None, True),
    ]
    for email, role, player, revoked in wanted:
        invitation, _created = Invitation.objects.get_or_create(
            club=club,
            email=email,
            defaults={"role": role, "player": player, "created_by": director},
        )
        if invitation.accepted_at is not None:
            continue  # a visitor accepted it: theirs now
        # A waiting one keeps waiting however long ago the demo was loaded.
        invitation.expires_at = now + datetime.timedelta(days=INVITATION_DAYS)
        if revoked and invitation.revoked_at is None:
            invitation.revoked_at, invitation.revoked_by = now, director
        invitation.save(update_fields=["expires_at", "revoked_at", "revoked_by"])
