"""A club's ratings over a history of 25,000 tables: 1,000 players, the four games.

Issue 36's budget: the whole history rated from nothing in under 10 s, in a number of
queries that does not grow with the history; a 250-table stage closed after it adds under
0.3 s of background work (the incremental path: its own tables rated, appended).

How the history is built: 100 finished nights, 25 of each game, each one closed stage of
250 tables (four players a table, two at Gin Römi), the players turned round from night to
night so the places vary; every table's deals are real entries scored by the engine
(`rules.score_deal`): seven deals at Rutupeli, three at Räväytys and Tízlapos Römi, a Gin
match of two deals to 150. Everything is bulk-created (the services would take an hour).

Printed: `ratings_rate_club` (every game from nothing, what the demo and a repair run),
with its queries and those of a history of 8 nights beside them; and the job a new night
closed queues (`ratings_update` from that night on), with its queries.

Runs in a child process on a throw-away database: PostgreSQL when it answers on
127.0.0.1:5432 (BENCH_DATABASE_URL, default .../ratings_db; its test_ copy), else SQLite.
Run ``python tests/bench/bench_ratings.py``; `make bench` calls :func:`run`.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/ratings_db")
PLAYERS = 1000
NIGHTS = 100  # 25 of each game
TABLES = 250  # a night's tables
GAMES = ("rutupeli", "ravaytys", "gin_romi", "tizlapos_romi")
FULL_RUNS = 2
CLOSE_RUNS = 5


def _hand(points: int | None = None) -> dict[str, Any]:
    return {"cards": None, "points": points, "buys": 0}


def _entries(game: str) -> list[dict[str, Any]]:
    """A table's deals: seat 0 best, then 1, 2, 3 (the seating turns the players round)."""
    if game in ("rutupeli", "ravaytys"):
        deals = 7 if game == "rutupeli" else 3
        return [{"out": 0, "players": [_hand(), _hand(10), _hand(20), _hand(30)]}] * deals
    if game == "gin_romi":
        return [
            {"ending": "romi", "by": 0, "upper": "9H", "hands": None, "deadwood": [0, 100]},
            {"ending": "romi", "by": 0, "upper": "9H", "hands": None, "deadwood": [0, 30]},
        ]
    winner = {
        "winner": 2,
        "ending": "romi",
        "knock_card": None,
        "players": [
            {"cards": "KS QD 9C 4H 5H 6H 7S 8S 9S 2D", "points": None},
            {"cards": None, "points": 17},
            {"cards": None, "points": None},
            {"cards": None, "points": 33},
        ],
    }
    return [winner] * 3


def build_history(*, slug: str, nights: int, tables: int, players: int, first_day: int = 0) -> Any:
    """A club (made if new) and `nights` finished nights from `first_day` on (see the
    module docstring); the club."""
    import datetime

    from django.utils import timezone

    from rules import score_deal
    from scoring.models import Deal, DealStatus
    from tournaments.models import Club, Event, EventStatus, Player, Seat, Stage, StageStatus, Table
    from tournaments.services import event_create

    club, created = Club.objects.get_or_create(slug=slug, defaults={"name": slug.title()})
    if created:
        Player.objects.bulk_create(
            [Player(club=club, name=f"Player {index + 1:04d}") for index in range(players)]
        )
    people = list(Player.objects.filter(club=club).order_by("pk"))
    events = []
    for index in range(first_day, first_day + nights):
        events.append(
            event_create(
                club=club,
                name=f"Night {index + 1}",
                date=datetime.date(2024, 1, 1) + datetime.timedelta(days=index),
                variant_id=GAMES[index % len(GAMES)],
                published=True,
            )
        )
    Event.objects.filter(pk__in=[e.pk for e in events]).update(
        status=EventStatus.FINISHED, finished_at=timezone.now()
    )
    stages = Stage.objects.bulk_create(
        [Stage(event=e, number=1, seed=1, status=StageStatus.FINISHED) for e in events]
    )
    rows = Table.objects.bulk_create(
        [
            Table(stage=stage, number=number + 1, has_scores=True)
            for stage in stages
            for number in range(tables)
        ],
        batch_size=2000,
    )
    scored = {}
    for game, variant in {e.variant_id: e.variant for e in events}.items():
        scored[game] = [
            (number, entry, score_deal(variant, number, entry), variant)
            for number, entry in enumerate(_entries(game), start=1)
        ]
    seats, deals = [], []
    for index, table in enumerate(rows):
        night, number = divmod(index, tables)
        event = events[night]
        size = 2 if event.variant_id == "gin_romi" else 4
        for position in range(size):
            seat = (number * size + position) % players
            # 37 is prime to the field's size: each night seats the players differently.
            player = people[(seat * 37 + (night + first_day) * 11) % players]
            seats.append(Seat(table=table, player=player, position=position))
        for deal_number, entry, score, variant in scored[event.variant_id]:
            deals.append(
                Deal(
                    table=table,
                    number=deal_number,
                    contract=variant.contract(deal_number).to_dict()
                    if variant.is_contract_game
                    else None,
                    entry=entry,
                    points=list(score.points),
                    flags=score.flags,
                    status=DealStatus.CONFIRMED,
                )
            )
    Seat.objects.bulk_create(seats, batch_size=2000)
    Deal.objects.bulk_create(deals, batch_size=2000)
    return club


def _measure(backend: str) -> list[tuple[str, float, str]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ratings.models import RatingStep
    from ratings.services import ratings_rate_club, ratings_update
    from tournaments.models import Event, Table

    started = time.perf_counter()
    club = build_history(slug="bench", nights=NIGHTS, tables=TABLES, players=PLAYERS)
    built = time.perf_counter() - started
    small = build_history(slug="small", nights=8, tables=5, players=40)
    tables = Table.objects.filter(stage__event__club=club).count()

    full_us, full_queries = [], set()
    for _ in range(FULL_RUNS):
        with CaptureQueriesContext(connection) as captured:
            begun = time.perf_counter_ns()
            ratings_rate_club(club=club)
            full_us.append((time.perf_counter_ns() - begun) / 1000)
        full_queries.add(len(captured))
    with CaptureQueriesContext(connection) as captured:
        ratings_rate_club(club=small)
    small_queries = len(captured)
    steps = RatingStep.objects.filter(club=club).count()

    # A new night of 250 Rutupeli tables closed after the whole history: its job.
    build_history(slug="bench", nights=1, tables=TABLES, players=PLAYERS, first_day=NIGHTS * 4)
    night = Event.objects.filter(club=club).order_by("-date").first()
    assert night is not None and night.variant_id == "rutupeli"
    since = (night.date, night.pk, 0, 0)
    close_us, close_queries = [], set()
    for _ in range(CLOSE_RUNS):  # each run replays the night alone (its steps from there on)
        with CaptureQueriesContext(connection) as captured:
            begun = time.perf_counter_ns()
            ratings_update(club_id=club.pk, game="rutupeli", since=since)
            close_us.append((time.perf_counter_ns() - begun) / 1000)
        close_queries.add(len(captured))
    shown = "/".join(str(count) for count in sorted(full_queries))
    close_shown = "/".join(str(count) for count in sorted(close_queries))
    return [
        (
            f"ratings from nothing, {tables:,} tables × 4 games, {PLAYERS:,} players "
            f"({backend}; {steps:,} steps; {shown} queries, {small_queries} for 8 nights × 5 "
            f"tables; data built in {built:.0f} s; {FULL_RUNS} runs)",
            statistics.median(full_us),
            "< 10 s, constant queries",
        ),
        (
            f"ratings after a {TABLES}-table stage closed, incremental ({backend}; "
            f"{close_shown} queries; {CLOSE_RUNS} runs)",
            statistics.median(close_us),
            "< 0.3 s",
        ),
    ]


def measure() -> list[tuple[str, float, str]]:
    """Set Django up on a throw-away test database and measure (in this process)."""
    from tests.bench.testdb import on_test_database, use_postgres_if_reachable

    backend = "SQLite" if "--sqlite" in sys.argv else use_postgres_if_reachable(PG_URL)
    return on_test_database(lambda: _measure(backend))


def run() -> list[tuple[str, float, str]]:
    """(name, median microseconds, target), measured in a child process."""
    from tests.bench.testdb import run_in_child  # imported by run.py, the project is on the path

    return run_in_child(__file__)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    rows = measure()
    if "--json" in sys.argv:
        print(json.dumps(rows))
    else:
        for label, median_us, target in rows:
            print(f"{label}: median {median_us / 1000:.1f} ms ({target})")
