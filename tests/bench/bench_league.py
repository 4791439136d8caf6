"""A season's league table of 40 club nights of 100 players (25 tables of 4 each night).

Issue 11's budget: the league table page, a constant number of queries, median under
150 ms. Printed: the public page with its stored table current (what nearly every view
is), the JSON feed, and the recomputation itself (what the Celery job, or a read of an out
of date table, does), each with its queries, and the page's queries for a season of 4
nights of 12 players beside them, to show they are the same.

How the season is built: 40 Rutupeli nights are created with the services (their rules
fixed as the site fixes them), published and finished; each gets one seated stage of 25
tables of 4 players (bulk_create), the players turned round from night to night so the
places vary, and every table seven deals scored by the engine (`rules.score_deal`), one
seat going out each deal and the others taking 10, 20 and 30 points: 7,000 deals.

Runs in a child process on a throw-away test database: PostgreSQL when DATABASE_URL is
set, else SQLite. Run ``python tests/bench/bench_league.py``; `make bench` calls
:func:`run`.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EVENTS = 40
PLAYERS = 100  # prime to 37 (the seating below)
SEATS = 4
DEALS = 7
PAGE_RUNS = 30
RECOMPUTE_RUNS = 5


def _entry(out: int, seats: int) -> dict[str, Any]:
    return {
        "out": out,
        "players": [
            {"cards": None, "points": None if seat == out else 10 * ((seat - out) % seats),
             "buys": 0}
            for seat in range(seats)
        ],
    }  # fmt: skip


def build_season(events: int, players: int, *, slug: str) -> Any:
    """A season of `events` finished nights of `players` (see the module docstring)."""
    import datetime

    from django.utils import timezone

    from rules import score_deal
    from scoring.models import Deal, DealStatus
    from tournaments.models import (
        Club,
        Event,
        EventStatus,
        Player,
        Season,
        Seat,
        Stage,
        StageStatus,
        Table,
    )
    from tournaments.services import event_create

    club = Club.objects.create(name=slug.title(), slug=slug)
    season = Season.objects.create(
        club=club,
        name="Season 2026",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    people = Player.objects.bulk_create(
        [Player(club=club, name=f"Player {index + 1:03d}") for index in range(players)]
    )
    nights = [
        event_create(
            club=club,
            season=season,
            name=f"Night {index + 1}",
            date=datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * index),
            variant_id="rutupeli",
            published=True,
        )
        for index in range(events)
    ]
    Event.objects.filter(pk__in=[n.pk for n in nights]).update(
        status=EventStatus.FINISHED, finished_at=timezone.now()
    )
    stages = Stage.objects.bulk_create(
        [Stage(event=n, number=1, seed=1, status=StageStatus.FINISHED) for n in nights]
    )
    tables = Table.objects.bulk_create(
        [
            Table(stage=stage, number=number + 1, has_scores=True)
            for stage in stages
            for number in range(players // SEATS)
        ]
    )
    variant = nights[0].variant
    games = {
        out: [score_deal(variant, number, _entry(out, SEATS)) for number in range(1, DEALS + 1)]
        for out in range(SEATS)
    }
    seats, deals = [], []
    per_stage = players // SEATS
    for index, table in enumerate(tables):
        night_index, number = divmod(index, per_stage)
        for position in range(SEATS):
            # 37 is prime to the field's size: each night seats everyone once, differently.
            seat = number * SEATS + position
            player = people[(seat * 37 + night_index * 11) % players]
            seats.append(Seat(table=table, player=player, position=position))
        out = (night_index + number) % SEATS
        for deal_number, score in enumerate(games[out], start=1):
            deals.append(
                Deal(
                    table=table,
                    number=deal_number,
                    contract=variant.contract(deal_number).to_dict(),
                    entry=_entry(out, SEATS),
                    points=list(score.points),
                    flags=score.flags,
                    status=DealStatus.CONFIRMED,
                )
            )
    Seat.objects.bulk_create(seats, batch_size=1000)
    Deal.objects.bulk_create(deals, batch_size=1000)
    return season


def _timed_get(client: Any, url: str, runs: int) -> tuple[float, int, int]:
    """(median microseconds, queries of the last run, bytes) of `runs` GETs of `url`."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    timings = []
    queries = 0
    size = 0
    for _ in range(runs):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter_ns()
            response = client.get(url)
            timings.append((time.perf_counter_ns() - started) / 1000)
        if response.status_code != 200:
            raise AssertionError(f"{url}: {response.status_code}")
        queries, size = len(captured), len(response.content)
    return statistics.median(timings), queries, size


def _measure() -> list[tuple[str, float, str]]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from leagues.selectors import league_compute
    from leagues.services import league_recompute
    from tournaments.models import Event, EventStatus

    backend = "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"
    started = time.perf_counter()
    season = build_season(EVENTS, PLAYERS, slug="bench")
    built = time.perf_counter() - started
    small = build_season(4, 12, slug="small")

    # From every table (no stored table to take finished nights from).
    recompute_us, recompute_queries = [], set()
    for _ in range(RECOMPUTE_RUNS):
        with CaptureQueriesContext(connection) as captured:
            begun = time.perf_counter_ns()
            league_compute(season=season)
            recompute_us.append((time.perf_counter_ns() - begun) / 1000)
        recompute_queries.add(len(captured))
    with CaptureQueriesContext(connection) as captured:
        league_compute(season=small)
    small_recompute = len(captured)
    # What the job does during a night: the last night in play, the 39 others finished
    # and taken from the stored table.
    Event.objects.filter(pk=season.events.order_by("-date").values("pk")[:1]).update(
        status=EventStatus.RUNNING
    )
    league_recompute(season_id=season.pk)
    night_us, night_queries = [], set()
    for _ in range(RECOMPUTE_RUNS):
        with CaptureQueriesContext(connection) as captured:
            begun = time.perf_counter_ns()
            league_recompute(season_id=season.pk)
            night_us.append((time.perf_counter_ns() - begun) / 1000)
        night_queries.add(len(captured))
    league_recompute(season_id=season.pk)

    client = Client()
    page = reverse("season_league", args=[season.club.slug, season.pk])
    feed = reverse("season_league_feed", args=[season.club.slug, season.pk])
    client.get(page)  # warm: templates, translations
    page_us, page_queries, page_bytes = _timed_get(client, page, PAGE_RUNS)
    feed_us, feed_queries, _feed_bytes = _timed_get(client, feed, PAGE_RUNS)
    _us, small_page_queries, _bytes = _timed_get(
        client, reverse("season_league", args=[small.club.slug, small.pk]), 3
    )
    shown = "/".join(str(count) for count in sorted(recompute_queries))
    night_shown = "/".join(str(count) for count in sorted(night_queries))
    size = f"{EVENTS} nights × {PLAYERS} players"
    return [
        (
            f"season league page, {size}, table current ({backend}; {page_queries} queries, "
            f"{small_page_queries} at 4 × 12; {page_bytes // 1024} KB; data built in "
            f"{built:.0f} s)",
            page_us,
            "< 150 ms, constant queries",
        ),
        (
            f"season league JSON feed, {size} ({backend}; {feed_queries} queries)",
            feed_us,
            "figure only",
        ),
        (
            f"season league computed from every table, {size} ({backend}; {shown} queries, "
            f"{small_recompute} at 4 × 12; {RECOMPUTE_RUNS} runs)",
            statistics.median(recompute_us),
            "figure only (a first computation: later ones take finished nights from the stored table)",
        ),
        (
            f"season league recomputed and stored, one night in play, {size} ({backend}; "
            f"{night_shown} queries; {RECOMPUTE_RUNS} runs)",
            statistics.median(night_us),
            "figure only (the Celery job during a night)",
        ),
    ]


def measure() -> list[tuple[str, float, str]]:
    """Set Django up on a throw-away test database and measure (in this process)."""
    # Imported here: run as a script, this file puts the project on sys.path only below.
    from tests.bench.testdb import on_test_database

    return on_test_database(_measure)


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
