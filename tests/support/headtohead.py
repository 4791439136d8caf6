"""Head-to-head events: pairs drawn, confirmed and their matches played."""

from __future__ import annotations

import datetime
import itertools

from formats.headtohead import h2h_round_draw
from scoring.models import Deal
from scoring.services import Actor, deal_confirm, deal_record
from tests.support.factories import ClubFactory
from tournaments.models import Event, Player, Stage, StageStatus
from tournaments.services import event_create, registration_add, stage_confirm

_ids = itertools.count()


AT_SEAT_0 = Actor(device="phone-0", seat=0)


AT_SEAT_1 = Actor(device="phone-1", seat=1)


def h2h_event(*, players: int, format: str, club=None, **options):
    """A Gin Römi event of `format` with `players` checked in, named P01, P02, …"""
    club = club or ClubFactory()
    event = event_create(
        published=True,
        club=club,
        name="Gin head to head",
        date=datetime.date(2026, 12, 5),
        variant_id="gin_romi",
    )
    Event.objects.filter(pk=event.pk).update(format=format, format_options=options)
    event.refresh_from_db()
    for index in range(players):
        player = Player.objects.create(club=club, name=f"P{index + 1:02d}")
        registration_add(event=event, player=player, checked_in=True)
    return event


def h2h_deal(table, number, *, winner: int, loser_deadwood: int) -> Deal:
    deadwood = [0, 0]
    deadwood[1 - winner] = loser_deadwood
    entry = {"ending": "romi", "by": winner, "upper": "9H", "hands": None, "deadwood": deadwood}
    return deal_record(
        table=table,
        number=number,
        entry=entry,
        by=AT_SEAT_0,
        expected_version=0,
        request_id=f"h2h-{next(_ids)}",
    )


def h2h_confirm(deal: Deal) -> None:
    deal_confirm(
        deal=deal, by=AT_SEAT_1, expected_version=deal.version, request_id=f"c-{next(_ids)}"
    )


def play(table, winner_id: int, *, extra: int = 0, confirm: bool = True) -> None:
    """A match to 150 in two deals: the winner's römi against 100, then against `extra`
    (25 + 100, then 25 + extra: over 150); the loser scores nothing."""
    seats = list(table.seats.order_by("position"))
    winner = next(seat.position for seat in seats if seat.player_id == winner_id)
    for number, deadwood in ((1, 100), (2, extra)):
        deal = h2h_deal(table, number, winner=winner, loser_deadwood=deadwood)
        if confirm:
            h2h_confirm(deal)


def pair_and_confirm(event, **kwargs) -> Stage:
    stage = h2h_round_draw(event=event, **kwargs)
    assert stage.status == StageStatus.PREVIEW
    stage_confirm(stage=stage)
    return stage


def pairs_of(stage) -> list[tuple[int, int]]:
    return [
        tuple(table.seats.order_by("position").values_list("player_id", flat=True))
        for table in stage.tables.order_by("number")
    ]
