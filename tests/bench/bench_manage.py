"""The director's manage page of a 250-table stage (1,000 players), warm, through Django's
test client on PostgreSQL, beside a bare view in the same process: 1000 rows read in one
query and rendered (`bare_urls`). Three states: a club night in play (deals at most tables,
some of them confirmed); a championship's first stage played to its end (7 confirmed deals
at every table: the page judges it for "Close stage 1"); and the same after the close (the
page checks the closed stage for corrected scores).

Each request is answered as a web worker answers it: the process's startup frozen, and the
cycle collector paused until the answer is made (core.collector, clubsite/gunicorn.py).

Figures: the page's median time and queries, its ratio to the bare view, and the process's
own CPU time (what a busy machine's other work does not add to). Goal: under 300 ms.

Uses a throw-away database (test_<name>), created and dropped around the run. Falls back to
SQLite, and says so, when PostgreSQL is not reachable; uses Redis (database 13) as the shared
cache when it answers, as the site does.
"""

from __future__ import annotations

import datetime
import os
import statistics
import time

from tests.bench.testdb import on_test_database, reachable, use_postgres_if_reachable

PG_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/lappu_bench_manage"
)
REDIS_URL = os.environ.get("BENCH_MANAGE_REDIS_URL", "redis://127.0.0.1:6379/13")
TABLES = 250
ROUNDS = 15
HANDS = ["", "AS KD", "7H 7C 2D", "QS"]


def run() -> list[tuple[str, float, str]]:
    backend = use_postgres_if_reachable(PG_URL)
    if reachable(REDIS_URL, 6379):
        # The shared cache, as the site runs: the cards and the closed stage's judgement are
        # kept there (this process's own cache drops entries past 300).
        os.environ["REDIS_URL"] = REDIS_URL
        backend += ", Redis"
    else:
        backend += ", no Redis"
    return on_test_database(lambda: _measure(backend))


def _stage(club):  # type: ignore[no-untyped-def]
    """A 1,000-player event seated at 250 tables of four: deals at 200 tables (two at the
    first 100), every third deal confirmed, the last 50 tables untouched."""
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


def _championship(club):  # type: ignore[no-untyped-def]
    """A 1,000-player championship seated at 250 tables of four, every table played to its
    end: stage 1 ready to close."""
    from tests.bench.rehearsal import finish_tables
    from tournaments.models import Event, EventFormat, Player
    from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

    event = event_create(
        club=club, name="Bench championship", date=datetime.date(2026, 12, 1),
        variant_id="rutupeli", preferred_table_size=4, published=True,
        format=EventFormat.CHAMPIONSHIP, format_options={"top_k": 1, "lucky_losers": False},
    )  # fmt: skip
    players = Player.objects.bulk_create(
        [Player(club=club, name=f"Finalist {i:04d}") for i in range(TABLES * 4)]
    )
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    stage_confirm(stage=stage_draw(event=event, seed=1))
    finish_tables(event.pk)
    return Event.objects.get(pk=event.pk)


def _median_us(client, url: str, rounds: int = ROUNDS) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(wall, CPU) medians in µs of `rounds` GETs of `url`, each answered as a web worker
    answers it (the collector paused until the answer is made)."""
    from django.db import reset_queries

    from core.collector import request_answered, request_started

    wall, cpu = [], []
    for _ in range(rounds):
        reset_queries()
        started, started_cpu = time.perf_counter_ns(), time.process_time_ns()
        request_started()
        try:
            response = client.get(url)
        finally:
            request_answered()
        wall.append((time.perf_counter_ns() - started) / 1000)
        cpu.append((time.process_time_ns() - started_cpu) / 1000)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(wall), statistics.median(cpu)


def _page(client, url: str, label: str, bare_us: float) -> list[tuple[str, float, str]]:  # type: ignore[no-untyped-def]
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # The first load after the change (the director sent there by the close): what is kept
    # per state of the stage is made here, as on the night.
    first_us, _cpu = _median_us(client, url, rounds=1)
    connection.queries_log.clear()  # the seeding filled it: a full log counts nothing
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    queries = len(captured.captured_queries)
    page_us, page_cpu_us = _median_us(client, url)
    return [
        (f"manage page, {label}, first load", first_us, "figure only"),
        (
            f"manage page, {label}, {queries} queries",
            page_us,
            f"{page_us / bare_us:.1f}x the bare view; goal < 300 ms",
        ),
        (f"manage page, {label}, CPU time of the process", page_cpu_us, "figure only"),
    ]


def _measure(backend: str) -> list[tuple[str, float, str]]:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.test.utils import override_settings
    from django.urls import reverse

    from core.collector import tune_for_server
    from tournaments.models import Club, Membership, Role

    tune_for_server()  # what a worker does once it has loaded the site
    club = Club.objects.create(name="Bench", slug="bench", language="en")
    night, championship = _stage(club), _championship(club)
    director = get_user_model().objects.create_user("director", password="x" * 12)
    Membership.objects.create(club=club, user=director, role=Role.DIRECTOR)
    client = Client()
    client.force_login(director)
    rows = []
    with override_settings(ROOT_URLCONF="tests.bench.bare_urls"):
        client.get("/bench/bare/rows/")
        bare_us, _bare_cpu = _median_us(client, "/bench/bare/rows/")
        rows.append(
            (f"bare view: 1000 rows from one query, test client ({backend})", bare_us, "yardstick")
        )
        for event, label in (
            (night, f"{TABLES} tables in play ({backend})"),
            (championship, f"{TABLES} tables played to the end ({backend})"),
        ):
            rows += _page(
                client, reverse("event_manage", args=[club.slug, event.pk]), label, bare_us
            )
        # Closed as the director closes it, from the page: the answer leads back to it.
        close = reverse("championship_stage_close", args=[club.slug, championship.pk])
        assert client.post(close, {"stage": 1}).status_code == 302
        url = reverse("event_manage", args=[club.slug, championship.pk])
        rows += _page(client, url, f"after closing those {TABLES} tables ({backend})", bare_us)
    return rows


if __name__ == "__main__":
    for name, median, target in run():
        print(f"{name}: median {median / 1000:.1f} ms ({target})")
