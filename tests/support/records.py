"""Nights played for the player-record tests: contract and Gin deals, stored and recounted."""

from __future__ import annotations

import datetime

from rules import score_deal
from scoring.models import Deal, DealStatus
from scoring.services import Actor, deal_record
from tests.support.events import new_request_id
from tournaments.models import Table
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw


def night(club, players, *, variant_id, day, published=True, **kwargs):
    """An event of `club` on November `day`, `players` seated at one table: (event, table)."""
    event = event_create(
        club=club,
        name=f"{variant_id} {day}",
        date=datetime.date(2026, 11, day),
        variant_id=variant_id,
        published=published,
        **kwargs,
    )
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=day)
    stage_confirm(stage=stage)
    return event, stage.tables.get()


def positions(table):
    return {seat.player_id: seat.position for seat in table.seats.all()}


def contract(table, out, points, *, ravaytys=False):
    """A contract deal: `out` (a player) went out, the others took `points` ({player: n})."""
    at = positions(table)
    players = [None] * len(at)
    for player_id, position in at.items():
        value = (
            None if player_id == out.pk else points[next(p for p in points if p.pk == player_id)]
        )
        players[position] = {"cards": None, "points": value, "buys": 0}
    entry = {"out": at[out.pk], "players": players}
    if ravaytys:
        entry["ravaytys"] = True
    return entry


def gin(table, by, deadwood, *, ending="knock"):
    """A Gin Römi deal: `by` knocked (or went römi), deadwood {player: n}."""
    at = positions(table)
    cells = [0, 0]
    for player, value in deadwood.items():
        cells[at[player.pk]] = value
    return {"ending": ending, "by": at[by.pk], "upper": "10H", "deadwood": cells}


def store(table, entries, *, statuses=None):
    """Store the table's deals as the services would have (scored by the engine)."""
    table = Table.objects.select_related("stage__event").get(pk=table.pk)
    variant = table.stage.event.variant
    deals = []
    for number, entry in enumerate(entries, start=1):
        score = score_deal(variant, number, entry)
        status = (statuses or {}).get(number, DealStatus.CONFIRMED)
        deals.append(
            Deal(
                table=table,
                number=number,
                entry=entry,
                points=list(score.points),
                flags=score.flags,
                status=status,
            )
        )
    Deal.objects.bulk_create(deals)
    Table.objects.filter(pk=table.pk).update(has_scores=True)


def play_rummy_deal(table, number, *, out, ravaytys=False):
    """Deal `number` of a four-seat Rutupeli or Ravaytys table, seat `out` going out."""
    hands = ["KD", "2D", "3D", "4D"]
    players = [
        {"cards": None if seat == out else hands[seat], "points": None, "buys": 0}
        for seat in range(4)
    ]
    deal_record(
        table=table, number=number, entry={"out": out, "ravaytys": ravaytys, "players": players},
        by=Actor(device="phone-0", seat=0), expected_version=0, request_id=new_request_id(),
    )  # fmt: skip
