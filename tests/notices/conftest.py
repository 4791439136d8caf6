from __future__ import annotations

import datetime

import pytest

from tests.factories import ClubFactory
from tournaments.models import Player, Registration
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw


def drawn_event(*, players: int, mail_tables: bool = True, emails: bool = True, club=None):
    """An event with `players` checked in, each registered with an address (or none), drawn
    and confirmed: (event, stage)."""
    club = club or ClubFactory(mail_tables=mail_tables)
    event = event_create(
        club=club,
        name="Friday night",
        date=datetime.date(2026, 11, 28),
        variant_id="rutupeli",
        preferred_table_size=4,
        published=True,
    )
    for index in range(players):
        player = Player.objects.create(club=club, name=f"Player {index + 1:03d}")
        registration = registration_add(event=event, player=player, checked_in=True)
        if emails:
            Registration.objects.filter(pk=registration.pk).update(
                email=f"p{index + 1}@example.com"
            )
    stage = stage_draw(event=event, seed=7)
    stage_confirm(stage=stage)
    return event, stage


@pytest.fixture
def broken_smtp(settings):
    """A mail server that refuses every connection: the SMTP backend at a closed port."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = 9  # discard: nothing listens there
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = 2
