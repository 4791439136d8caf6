"""Submitting a 6-player deal, and reading a 1000-player ranking, on PostgreSQL.

Uses a throw-away database (test_<name>), created and dropped around the run. Falls back to
SQLite, and says so, when PostgreSQL is not reachable.
"""

from __future__ import annotations

import os
import statistics
import time

from tests.bench.testdb import on_test_database, use_postgres_if_reachable

PG_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/lappu_bench")
SIX_HANDS = ["", "AS KD", "7H 7C", "QS", "2D 3D 4D", "10C"]


def run() -> list[tuple[str, float, str]]:
    backend = use_postgres_if_reachable(PG_URL)
    return on_test_database(lambda: _measure(backend))


def _measure(backend: str) -> list[tuple[str, float, str]]:
    import datetime

    from scoring.services import Actor, deal_record
    from standings.selectors import event_ranking
    from tournaments.models import Club, Player
    from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

    club = Club.objects.create(name="Bench", slug="bench")
    event = event_create(
        published=True,
        club=club,
        name="Bench",
        date=datetime.date(2026, 1, 1),
        variant_id="ravaytys",
        preferred_table_size=6,
    )
    players = Player.objects.bulk_create([Player(club=club, name=f"P{i:04d}") for i in range(1002)])
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=1)
    stage_confirm(stage=stage)
    tables = [t for t in stage.tables.order_by("number") if t.seats.count() == 6]
    entry = {"out": 0, "players": [{"cards": hand or None, "buys": 0} for hand in SIX_HANDS]}
    submit_us = []
    for index, table in enumerate(tables[:150]):
        started = time.perf_counter_ns()
        deal_record(
            table=table,
            number=1,
            entry=entry,
            by=Actor(device="b", seat=0),
            expected_version=0,
            request_id=f"b{index}",
        )
        submit_us.append((time.perf_counter_ns() - started) / 1000)
    ranking_us = []
    for _ in range(10):
        started = time.perf_counter_ns()
        rows = event_ranking(event=event)
        ranking_us.append((time.perf_counter_ns() - started) / 1000)
    assert len(rows) == 1002
    return [
        (
            f"submit a 6-player Räväytys deal ({backend})",
            statistics.median(submit_us),
            "figure only",
        ),
        (
            f"ranking of 1002 players, 150 deals ({backend})",
            statistics.median(ranking_us),
            "figure only",
        ),
    ]


if __name__ == "__main__":
    for name, median, target in run():
        print(f"{name}: median {median:.0f} µs ({target})")
