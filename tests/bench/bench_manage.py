"""The director's manage page of a 250-table stage (1,000 players, deals at most tables,
some of them confirmed), warm, through Django's test client on PostgreSQL, beside a bare
view in the same process: 1000 rows read in one query and rendered (`bare_urls`).

Figures: the page's median time and queries, its ratio to the bare view, and the process's
own CPU time (what a busy machine's other work does not add to). Goal: under 300 ms.

Uses a throw-away database (test_<name>), created and dropped around the run. Falls back to
SQLite, and says so, when PostgreSQL is not reachable.
"""

from __future__ import annotations

import os
import statistics
import time

from tests.bench.testdb import on_test_database, use_postgres_if_reachable

PG_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/lappu_bench_manage"
)
TABLES = 250
ROUNDS = 15
HANDS = ["", "AS KD", "7H 7C 2D", "QS"]


def run() -> list[tuple[str, float, str]]:
    backend = use_postgres_if_reachable(PG_URL)
    return on_test_database(lambda: _measure(backend))


def _stage(club):  # type: ignore[no-untyped-def]
    """A 1,000-player event seated at 250 tables of four: deals at 200 tables (two at the
    first 100), every third deal confirmed, the last 50 tables untouched."""
    import datetime

    from scoring.services import Actor, deal_confirm, deal_record
    from tournaments.models import Player
    from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

    event = event_create(
        club=club, name="Bench open", date=datetime.date(2026, 12, 1), variant_id="rutupeli",
        preferred_table_size=4, published=True,
    )  # fmt: skip
    players = Player.objects.bulk_create(
        [Player(club=club, name=f"Player {i:04d}") for i in range(TABLES * 4)]
    )
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=1)
    stage_confirm(stage=stage)
    entry = {"out": 0, "players": [{"cards": h or None, "points": None, "buys": 0} for h in HANDS]}
    tables = list(stage.tables.order_by("number"))
    assert len(tables) == TABLES
    for index, table in enumerate(tables[:200]):
        for number in (1, 2) if index < 100 else (1,):
            deal = deal_record(
                table=table, number=number, entry=entry, by=Actor(device="seat-0", seat=0),
                expected_version=0, request_id=f"b{index}-{number}",
            )  # fmt: skip
            if (index + number) % 3 == 0:
                deal_confirm(
                    deal=deal, by=Actor(device="seat-1", seat=1),
                    expected_version=deal.version, request_id=f"c{index}-{number}",
                )  # fmt: skip
    return event


def _median_us(client, url: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(wall, CPU) medians in µs of ROUNDS warm GETs of `url`."""
    from django.db import reset_queries

    wall, cpu = [], []
    for _ in range(ROUNDS):
        reset_queries()
        started, started_cpu = time.perf_counter_ns(), time.process_time_ns()
        response = client.get(url)
        wall.append((time.perf_counter_ns() - started) / 1000)
        cpu.append((time.process_time_ns() - started_cpu) / 1000)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(wall), statistics.median(cpu)


def _measure(backend: str) -> list[tuple[str, float, str]]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings
    from django.urls import reverse

    from tournaments.models import Club, Membership, Role

    club = Club.objects.create(name="Bench", slug="bench", language="en")
    event = _stage(club)
    from django.contrib.auth import get_user_model

    director = get_user_model().objects.create_user("director", password="x" * 12)
    Membership.objects.create(club=club, user=director, role=Role.DIRECTOR)
    client = Client()
    client.force_login(director)
    with override_settings(ROOT_URLCONF="tests.bench.bare_urls"):
        url = reverse("event_manage", args=[club.slug, event.pk])
        assert client.get(url).status_code == 200  # warm: templates, translations, session
        connection.queries_log.clear()  # the seeding filled it: a full log counts nothing
        with CaptureQueriesContext(connection) as captured:
            client.get(url)
        queries = len(captured.captured_queries)
        client.get("/bench/bare/rows/")
        bare_us, _bare_cpu = _median_us(client, "/bench/bare/rows/")
        page_us, page_cpu_us = _median_us(client, url)
    ratio = page_us / bare_us
    return [
        (f"bare view: 1000 rows from one query, test client ({backend})", bare_us, "yardstick"),
        (
            f"manage page, {TABLES} tables, {queries} queries ({backend})",
            page_us,
            f"{ratio:.1f}x the bare view; goal < 300 ms",
        ),
        (
            f"manage page, {TABLES} tables, CPU time of the process ({backend})",
            page_cpu_us,
            "figure only",
        ),
    ]


if __name__ == "__main__":
    for name, median, target in run():
        print(f"{name}: median {median / 1000:.1f} ms ({target})")
