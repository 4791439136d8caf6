"""A merge of a player of 100 events (100 registrations and seats, ten tie-breaks) into
another, and its undo: queries and wall time, on PostgreSQL (SQLite with --sqlite, or when
PostgreSQL is not reachable).

Uses a throw-away database (test_<name>), created and dropped around the run.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from tests.bench.testdb import on_test_database, use_postgres_if_reachable

PG_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/merge_db")
EVENTS = 100
ROUNDS = 5


def run() -> list[tuple[str, float, str]]:
    backend = "SQLite" if "--sqlite" in sys.argv else use_postgres_if_reachable(PG_URL)
    return on_test_database(lambda: _measure(backend))


def _events(club, players):  # type: ignore[no-untyped-def]
    import datetime

    from tournaments.models import TieBreak
    from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

    for index in range(EVENTS):
        event = event_create(
            club=club,
            name=f"Night {index + 1}",
            date=datetime.date(2026, 1, 1) + datetime.timedelta(days=3 * index),
            variant_id="rutupeli",
            published=True,
        )
        for player in players:
            registration_add(event=event, player=player, checked_in=True)
        stage = stage_draw(event=event, seed=index)
        stage_confirm(stage=stage)
        if index % 10 == 0:
            table = stage.tables.get()
            order = [players[0].pk, players[1].pk]
            TieBreak.objects.create(stage=stage, table=table, method="card_draw", order=order)


def _measure(backend: str) -> list[tuple[str, float, str]]:
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.merge import player_merge, player_merge_undo
    from tournaments.models import Club, Membership, Player, Role

    club = Club.objects.create(name="Bench", slug="bench", language="en")
    director = User.objects.create(username="director")
    Membership.objects.create(club=club, user=director, role=Role.DIRECTOR)
    players = [Player.objects.create(club=club, name=f"P{i}", guest=i == 0) for i in range(4)]
    kept = Player.objects.create(club=club, name="P0")
    _events(club, players)
    merge_us, undo_us, merge_q, undo_q = [], [], 0, 0
    for _ in range(ROUNDS):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter_ns()
            merge = player_merge(kept=kept, merged=players[0], by=director, confirmed=True)
            merge_us.append((time.perf_counter_ns() - started) / 1000)
        merge_q = len(captured.captured_queries)
        assert len(merge.moved["registrations"]) == EVENTS and len(merge.moved["seats"]) == EVENTS
        assert len(merge.moved["tie_breaks"]) == EVENTS // 10
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter_ns()
            player_merge_undo(merge=merge, by=director, confirmed=True)
            undo_us.append((time.perf_counter_ns() - started) / 1000)
        undo_q = len(captured.captured_queries)
        players[0].refresh_from_db()
        kept.refresh_from_db()
    return [
        (
            f"merge of a player of {EVENTS} events, {merge_q} queries ({backend})",
            statistics.median(merge_us),
            "< 1 s",
        ),
        (
            f"undo of that merge, {undo_q} queries ({backend})",
            statistics.median(undo_us),
            "< 1 s",
        ),
    ]


if __name__ == "__main__":
    for name, median, target in run():
        print(f"{name}: median {median / 1000:.1f} ms ({target})")
