from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from tournaments.models import Membership, Player


@receiver(post_save, sender=Membership)
def membership_player(
    sender: type[Membership], instance: Membership, created: bool, **kwargs: Any
) -> None:
    """Every member can be seated: make sure the club has a player for them.

    A signal, because memberships are also made in the admin, and a member who cannot be
    registered for the club night would be a surprise there.
    """
    if created:
        user = instance.user
        Player.objects.get_or_create(
            club_id=instance.club_id,
            user=user,
            defaults={"name": user.get_full_name() or user.get_username()},
        )
