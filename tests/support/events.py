"""Events seated and drawn, the base most table and page tests start from."""

from __future__ import annotations

import datetime
import itertools

from tests.support.factories import ClubFactory
from tournaments.models import Player, Registration
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

_request_ids = itertools.count()


def new_request_id() -> str:
    return f"req-{next(_request_ids)}"


def seated_event(
    *,
    variant_id: str,
    players: int,
    club=None,
    options=None,
    preferred: int = 4,
    published: bool = True,
):
    """An event with `players` checked in, drawn and confirmed: (event, tables). Published
    unless asked otherwise, as most tests read its public pages."""
    club = club or ClubFactory()
    event = event_create(
        club=club,
        name=f"{variant_id} night",
        date=datetime.date(2026, 11, 28),
        variant_id=variant_id,
        options=options,
        preferred_table_size=preferred,
        published=published,
    )
    for index in range(players):
        player = Player.objects.create(club=club, name=f"Player {index + 1:03d}")
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=7)
    stage_confirm(stage=stage)
    return event, list(stage.tables.order_by("number"))


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
