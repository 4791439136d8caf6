"""A player's record page for a player of 40 events (every deal of each night played), on
PostgreSQL: the page as a visitor gets it, its queries, and the selector alone.

Uses a throw-away database (test_<name>), created and dropped around the run. Falls back to
SQLite, and says so, when PostgreSQL is not reachable.
"""

from __future__ import annotations

import os
import statistics
import time

from tests.bench.testdb import on_test_database, use_postgres_if_reachable

PG_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/lappu_bench_player"
)
EVENTS = 40
ROUNDS = 30


def run() -> list[tuple[str, float, str]]:
    backend = use_postgres_if_reachable(PG_URL)
    return on_test_database(lambda: _measure(backend))


def _nights(club, players):  # type: ignore[no-untyped-def]
    """Forty published nights of the four, alternating Räväytys (8 deals) and Rutupeli (7),
    every deal scored by the engine; the first player goes out every third deal."""
    import datetime

    from rules import score_deal
    from scoring.models import Deal, DealStatus
    from tournaments.models import Table
    from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

    for index in range(EVENTS):
        variant_id = "ravaytys" if index % 2 == 0 else "rutupeli"
        event = event_create(
            club=club,
            name=f"Night {index + 1}",
            date=datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * index),
            variant_id=variant_id,
            published=True,
        )
        for player in players:
            registration_add(event=event, player=player, checked_in=True)
        stage = stage_draw(event=event, seed=index)
        stage_confirm(stage=stage)
        table = Table.objects.select_related("stage__event").get(stage=stage)
        variant = table.stage.event.variant
        deals = []
        for number in range(1, (8 if variant_id == "ravaytys" else 7) + 1):
            out = number % 4
            entry = {
                "out": out,
                "ravaytys": variant_id == "ravaytys" and number == 1,
                "players": [
                    {
                        "cards": None,
                        "points": None if seat == out else 5 * (seat + number),
                        "buys": 0,
                    }
                    for seat in range(4)
                ],
            }
            if variant_id != "ravaytys":
                del entry["ravaytys"]
            score = score_deal(variant, number, entry)
            deals.append(
                Deal(
                    table=table,
                    number=number,
                    entry=entry,
                    points=list(score.points),
                    flags=score.flags,
                    status=DealStatus.CONFIRMED,
                )
            )
        Deal.objects.bulk_create(deals)


def _measure(backend: str) -> list[tuple[str, float, str]]:
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from records.selectors import player_record
    from tournaments.models import Club, Player

    club = Club.objects.create(name="Bench", slug="bench", language="en")
    players = [Player.objects.create(club=club, name=f"P{i}") for i in range(4)]
    _nights(club, players)
    player = players[0]
    url = reverse("player_record", args=[club.slug, player.pk])
    client = Client()
    assert client.get(url).status_code == 200  # warm: templates, translations
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    queries = len(captured.captured_queries)
    page_us, page_cpu_us = [], []
    for _ in range(ROUNDS):
        reset_queries()
        started, cpu = time.perf_counter_ns(), time.process_time_ns()
        response = client.get(url)
        page_us.append((time.perf_counter_ns() - started) / 1000)
        # This process's own time: what a busy machine's other work does not add to.
        page_cpu_us.append((time.process_time_ns() - cpu) / 1000)
    assert response.status_code == 200
    selector_us = []
    for _ in range(ROUNDS):
        started = time.perf_counter_ns()
        record = player_record(player=player)
        selector_us.append((time.perf_counter_ns() - started) / 1000)
    assert record.events == EVENTS
    return [
        (
            f"player page, {EVENTS} events, {queries} queries ({backend})",
            statistics.median(page_us),
            "< 150 ms",
        ),
        (
            f"player page, {EVENTS} events, CPU time of the process ({backend})",
            statistics.median(page_cpu_us),
            "figure only",
        ),
        (
            f"player_record selector, {EVENTS} events ({backend})",
            statistics.median(selector_us),
            "figure only",
        ),
    ]


if __name__ == "__main__":
    for name, median, target in run():
        print(f"{name}: median {median / 1000:.1f} ms ({target})")
