"""The demo club `make run` loads: enough to click through every feature built so far."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments.models import Club, Membership, Role
from tournaments.services import club_stats_refresh

DEMO_USERS = [
    # (username, full name, role, site admin)
    ("director", "Dora Director", Role.DIRECTOR, True),
    ("scorer", "Sami Scorer", Role.SCORER, False),
    ("member", "Mari Member", Role.MEMBER, False),
]
DEMO_CLUB_SLUG = "demo"


@transaction.atomic
def demo_load() -> Club:
    """Create or refresh the demo club. Re-running it changes nothing that is already right."""
    user_model = get_user_model()
    club, _created = Club.objects.update_or_create(
        slug=DEMO_CLUB_SLUG,
        defaults={
            "name": "Lappu Demo Club",
            "description": "Rutupeli, Räväytys, Gin Römi and Tízlapos Römi every Saturday.",
            "language": "fi",
        },
    )
    for username, full_name, role, is_admin in DEMO_USERS:
        first, last = full_name.split(" ", 1)
        user, created = user_model.objects.get_or_create(
            username=username, defaults={"first_name": first, "last_name": last}
        )
        if created:
            # Demo only: each demo account's password is its own name, as README says.
            user.set_password(username)
        user.is_staff = user.is_superuser = is_admin
        user.save()
        Membership.objects.update_or_create(club=club, user=user, defaults={"role": role})
    club_stats_refresh(club_id=club.pk)
    return club
