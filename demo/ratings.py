"""The demo club's ratings: a summer of Rutupeli nights (so that the regulars' ratings are
no longer provisional), then every closed table of the club's nights, championships, series
and head-to-head events and its imported past season, rated at load time (synchronously: a
fresh demo shows its rating lists at once, whatever the job queue is doing)."""

from __future__ import annotations

import datetime
import random

from demo.play import hand, play
from formats.finish import event_finish
from ratings.services import ratings_rate_club
from tournaments.models import Club, Event, Player
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

# Between the imported spring season and the autumn one: no league table counts them.
SUMMER_NIGHTS = [
    (datetime.date(2026, 6, 6), "Kesäilta 1"),
    (datetime.date(2026, 6, 20), "Kesäilta 2"),
    (datetime.date(2026, 7, 4), "Kesäilta 3"),
    (datetime.date(2026, 8, 1), "Kesäilta 4"),
]
DEALS = 7  # Rutupeli: seven games, each its own contract


def demo_ratings(club: Club, players: list[str]) -> None:
    """The summer nights of `players` (once: a second run adds none), then every game of
    the demo club rated from nothing (a second run gives the same numbers)."""
    if not Event.objects.filter(club=club, name=SUMMER_NIGHTS[0][1]).exists():
        people = [Player.objects.get_or_create(club=club, name=name)[0] for name in players]
        rng = random.Random(36)
        for number, (day, name) in enumerate(SUMMER_NIGHTS):
            _summer_night(club, people, day, name, rng, seed=3600 + number)
    ratings_rate_club(club=club)


def _summer_night(
    club: Club, people: list[Player], day: datetime.date, name: str, rng: random.Random, seed: int
) -> None:
    event = event_create(
        published=True, club=club, name=name, date=day, venue="Kerhohuone", variant_id="rutupeli"
    )
    for player in people:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=seed)
    stage_confirm(stage=stage)
    for table in stage.tables.order_by("number"):
        seats = table.seats.count()
        # Each table's strongest hand goes out more often: the ratings then spread.
        entries = []
        for _number in range(DEALS):
            out = min(rng.randrange(seats), rng.randrange(seats))
            points = [
                hand() if seat == out else hand(points=5 * rng.randint(1, 12))
                for seat in range(seats)
            ]
            entries.append({"out": out, "players": points})
        play(table, entries, device="demo-summer")
    event_finish(event=event, confirmed=True)
