"""A club's public rating list of 1,000 players, as a visitor's browser asks for it: the
first page (50 rows), the same page again with its ETag (a 304 while nothing changed), the
whole list as CSV, and the JSON feed; each with its queries, beside the bare view that reads
1000 rows and renders them (tests/bench/bare_urls.py), measured in the same process.

Issue 36's budget: the list served from cache as the public pages are (a 304 when nothing
changed). Printed as medians and as ratios to the bare view; nothing is asserted on time.

Uses a throw-away database (test_<name>): PostgreSQL when it answers, else SQLite.
"""

from __future__ import annotations

import os
import statistics
import time

from tests.bench.testdb import on_test_database, use_postgres_if_reachable

PG_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/lappu_bench_rating_list"
)
PLAYERS = 1000
ROUNDS = 30


def run() -> list[tuple[str, float, str]]:
    backend = use_postgres_if_reachable(PG_URL)
    return on_test_database(lambda: _measure(backend))


def _timed(get) -> tuple[float, int, int]:  # type: ignore[no-untyped-def]
    """(median microseconds, queries, status) of ROUNDS calls of `get`."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    reset_queries()  # a full log (it keeps 9000) would count nothing new
    with CaptureQueriesContext(connection) as captured:
        response = get()
    times = []
    for _ in range(ROUNDS):
        started = time.perf_counter_ns()
        get()
        times.append((time.perf_counter_ns() - started) / 1000)
    return statistics.median(times), len(captured.captured_queries), response.status_code


def _measure(backend: str) -> list[tuple[str, float, str]]:
    from django.db import connection
    from django.test import Client, override_settings
    from django.urls import reverse

    from tests.support.ratings_rows import GAME, rated_club

    club, _players = rated_club(PLAYERS)
    if connection.vendor == "postgresql":
        # The planner's statistics, as autovacuum keeps them on a real site: without them a
        # freshly filled table is planned as an empty one (a 1000-row count took 76 ms).
        connection.cursor().execute("ANALYZE")
    client = Client()
    with override_settings(ROOT_URLCONF="tests.bench.bare_urls"):
        page = reverse("club_rating_list", args=[club.slug, GAME])
        csv = reverse("club_rating_export", args=[club.slug, GAME, "csv"])
        feed = reverse("club_ratings_feed", args=[club.slug, GAME])
        client.get(page)  # a first visit: the CSRF cookie the page's forms use, in its tag
        first = client.get(page)
        assert first.status_code == 200 and first.has_header("ETag"), first.status_code
        tag = first["ETag"]
        bare, _, _ = _timed(lambda: client.get("/bench/bare/rows/"))
        full, full_q, full_status = _timed(lambda: client.get(page))
        same, same_q, same_status = _timed(lambda: client.get(page, HTTP_IF_NONE_MATCH=tag))
        whole, csv_q, csv_status = _timed(lambda: client.get(csv))
        fed, feed_q, feed_status = _timed(lambda: client.get(feed))
    statuses = (full_status, same_status, csv_status, feed_status)
    assert statuses == (200, 304, 200, 200), statuses
    where = f"{PLAYERS} players, {backend}"
    return [
        (f"bare view, 1000 rows read and rendered ({backend})", bare, "the yardstick"),
        (
            f"rating list page 1 ({where}; {full_q} queries; {full / bare:.2f}x the bare view)",
            full,
            "queries constant",
        ),
        (
            f"rating list unchanged, 304 ({where}; {same_q} queries; "
            f"{same / bare:.2f}x the bare view)",
            same,
            "a 304 from the ETag",
        ),
        (f"rating list CSV, every row ({where}; {csv_q} queries)", whole, "-"),
        (
            f"ratings JSON feed ({where}; {feed_q} queries; {fed / bare:.2f}x the bare view)",
            fed,
            "-",
        ),
    ]


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    for label, median_us, target in run():
        print(f"{label}: median {median_us / 1000:.2f} ms ({target})")
