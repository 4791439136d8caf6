"""The public pages of a 1000-player event under load, beside two bare Django views.

gunicorn (2 sync workers) on PostgreSQL and Redis serves a seeded 1000-player event (250
tables, deals at most of them); wrk (or, without it, a thread pool) keeps 16 connections
busy on each address for a few seconds. Figures, printed as req/s, p50 and a ratio to the
bare view of the same run:

- the public page, its live part and the big screen, against a view that reads 1000 rows
  in one query and renders them (goal: at least 1x);
- a poll that finds nothing new (If-None-Match -> 304: the event poll, the table page's
  poll, the big screen's) against a view that renders a 100-row table with no database
  (goal: at least 0.8x).

Also the queries per request of the public page (cold cache, warm cache, 304). Needs
PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379 (else it says so and measures
nothing); its own database (lappu_bench_public) and Redis database 13, both emptied first.
"""

from __future__ import annotations

import concurrent.futures
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = os.environ.get("BENCH_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DB_NAME = "lappu_bench_public"
PG_URL = f"postgres://postgres@127.0.0.1:5432/{DB_NAME}"
REDIS_URL = os.environ.get("BENCH_PUBLIC_REDIS_URL", "redis://127.0.0.1:6379/13")
CONNECTIONS = 16
SECONDS = float(os.environ.get("BENCH_PUBLIC_SECONDS", "8"))
STATIC_ROOT = Path(tempfile.gettempdir()) / "lappu-bench-public-static"

SEED = r"""
import datetime, json
import django
django.setup()
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from scoring.services import Actor, deal_record
from tournaments.models import Club, Player
from tournaments.services import (
    event_create, event_publish, registration_add, stage_confirm, stage_draw,
)

club = Club.objects.create(name="Bench club", slug="bench")
event = event_create(
    club=club, name="Bench open", date=datetime.date(2026, 12, 1), variant_id="rutupeli",
    preferred_table_size=4,
)
players = Player.objects.bulk_create(
    [Player(club=club, name=f"Player {i:04d}") for i in range(1000)]
)
for player in players:
    registration_add(event=event, player=player, checked_in=True)
stage = stage_draw(event=event, seed=1)
stage_confirm(stage=stage)
event_publish(event=event, published=True)
tables = list(stage.tables.order_by("number"))
hands = ["", "AS KD", "7H 7C 2D", "QS"]
entry = {"out": 0, "players": [{"cards": h or None, "points": None, "buys": 0} for h in hands]}
for index, table in enumerate(tables[:200]):
    for number in (1, 2) if index < 100 else (1,):
        deal_record(
            table=table, number=number, entry=entry, by=Actor(device="bench-seat-0", seat=0),
            expected_version=0, request_id=f"b{index}-{number}",
        )
url = event.get_absolute_url()
queries = {}
client = Client()
client.get(url)  # the CSRF cookie
for label in ("cold", "warm"):
    if label == "cold":
        from django.core.cache import cache
        cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(url)
    queries[label] = len(ctx.captured_queries)
with CaptureQueriesContext(connection) as ctx:
    held = client.get(url, headers={"if-none-match": page["ETag"]})
queries["304"] = len(ctx.captured_queries)
assert held.status_code == 304, held.status_code
import statistics, time
from django.core.cache import cache
cold = []
for _ in range(5):
    cache.clear()  # what the first reader after a result change pays
    started = time.perf_counter()
    client.get(url)
    cold.append((time.perf_counter() - started) * 1000)
print("SEED=" + json.dumps({
    "slug": club.slug, "event": event.pk, "key": tables[150].entry_key,
    "tables": len(tables), "players": len(players), "queries": queries,
    "cold_ms": statistics.median(cold),
}))
"""


def _reachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


def _env() -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.bench.public_settings",
        "DATABASE_URL": PG_URL,
        "REDIS_URL": REDIS_URL,
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-key-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "CELERY_TASK_ALWAYS_EAGER": "1",
        "SITE_URL": "http://127.0.0.1",
        # Collected by measure() as the image does: the bench serves what users are served.
        "STATIC_ROOT": str(STATIC_ROOT),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def _fresh_database(*, create: bool = True) -> None:
    import psycopg
    import redis

    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        if create:
            conn.execute(f"CREATE DATABASE {DB_NAME}")
    redis.Redis.from_url(REDIS_URL).flushdb()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def _wrk(port: int, path: str, headers: dict[str, str]) -> tuple[float, float, int]:
    """(requests per second, p50 in ms, non-2xx/3xx answers) for `path` under load."""
    command = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{SECONDS:g}s", "--latency", "--timeout", "30s"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run(
        [*command, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, check=True
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])  # type: ignore[index]
    p50_text = re.search(r"50%\s+([\d.]+)(us|ms|s)\b", out)
    assert p50_text is not None, out
    p50 = float(p50_text[1]) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[p50_text[2]]
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return rps, p50, int(bad[1]) if bad else 0


def _pool(port: int, path: str, headers: dict[str, str]) -> tuple[float, float, int]:
    """The same with a thread pool of keep-alive connections (no wrk on this machine)."""
    deadline = time.monotonic() + SECONDS
    latencies: list[float] = []
    bad = 0

    def worker() -> tuple[list[float], int]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        errors = 0
        while time.monotonic() < deadline:
            started = time.perf_counter()
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            mine.append((time.perf_counter() - started) * 1000)
            errors += response.status >= 400
        conn.close()
        return mine, errors

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(CONNECTIONS) as pool:
        for mine, errors in pool.map(lambda _i: worker(), range(CONNECTIONS)):
            latencies += mine
            bad += errors
    return len(latencies) / (time.monotonic() - started), statistics.median(latencies), bad


def _server(port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "clubsite.wsgi", "-b", f"127.0.0.1:{port}",
         "-w", "2", "--timeout", "60"],
        cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if _get(port, "/bench/bare/table/")[0] == 200:
                return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("gunicorn did not start")


def measure() -> tuple[list[tuple[str, float, float, str]], dict]:
    """Rows of (label, req/s, p50 ms, compared with) and the seed's figures."""
    _fresh_database()
    env = _env()
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--clear", "-v0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    seeded = subprocess.run(
        [sys.executable, "-c", SEED], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if seeded.returncode:
        raise RuntimeError("seeding the bench event failed:\n" + seeded.stderr[-3000:])
    seed = json.loads(re.search(r"SEED=(.*)", seeded.stdout)[1])  # type: ignore[index]
    port = _free_port()
    proc = _server(port)
    load = _wrk if shutil.which("wrk") else _pool
    try:
        event = f"/clubs/{seed['slug']}/events/{seed['event']}/"
        device = "bench-phone-000000000001"
        cookie = {"Cookie": f"lappu_device={device}"}
        addresses = {
            "page": (event, {}),
            "live": (event + "live/", {}),
            "screen": (event + "screen/", {}),
            "table": (f"/t/{seed['key']}/live/", cookie),
        }
        tags: dict[str, str] = {}
        for name, (path, headers) in addresses.items():
            status, answer, _body = _get(port, path, headers)
            assert status == 200, (path, status)
            _get(port, path, headers)  # the second answer comes from the cache
            tags[name] = answer.get("etag", "")
        rows: list[tuple[str, float, float, str]] = []
        bare_rows = load(port, "/bench/bare/rows/", {})
        bare_table = load(port, "/bench/bare/table/", {})
        rows.append(("bare view: 1000 rows from one query", *bare_rows[:2], ""))
        rows.append(("bare view: 100-row table, no database", *bare_table[:2], ""))
        for label, path in (
            ("public page of the 1000-player event", event),
            ("its live part (htmx poll), from the cache", event + "live/"),
            ("big screen of the event", event + "screen/"),
        ):
            rps, p50, bad = load(port, path, {})
            assert bad == 0, (path, bad)
            rows.append((label, rps, p50, "rows"))
        for label, name in (
            ("event poll, nothing new (304)", "live"),
            ("table page's poll, nothing new (304)", "table"),
            ("big screen's poll, nothing new (304)", "screen-live"),
        ):
            path, headers = addresses.get(name, (event + "screen/live/", {}))
            if name == "screen-live":
                tags[name] = _get(port, path)[1].get("etag", "")
            status = _get(port, path, {**headers, "If-None-Match": tags[name]})[0]
            assert status == 304, (path, status)
            rps, p50, bad = load(port, path, {**headers, "If-None-Match": tags[name]})
            assert bad == 0, (path, bad)
            rows.append((label, rps, p50, "table"))
        return [(label, rps, p50, against) for label, rps, p50, against in rows], seed
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        _fresh_database(create=False)


def run() -> list[tuple[str, float, str]]:
    if not (_reachable(5432) and _reachable(6379)):
        print("  bench_public: needs PostgreSQL and Redis on 127.0.0.1: not measured")
        return []
    rows, seed = measure()
    bare = {"rows": rows[0][1], "table": rows[1][1]}
    goals = {"rows": "goal >= 1x the 1000-row view", "table": "goal >= 0.8x the 100-row view"}
    print(
        f"\n  public pages, gunicorn 2 sync workers, PostgreSQL + Redis, {CONNECTIONS} "
        f"connections, {seed['players']} players at {seed['tables']} tables"
    )
    print(f"  {'address':<42} {'req/s':>8} {'p50':>9}  ratio")
    result: list[tuple[str, float, str]] = []
    for label, rps, p50, against in rows:
        ratio = f"{rps / bare[against]:.2f}x ({goals[against]})" if against else "yardstick"
        print(f"  {label:<42} {rps:>8.0f} {p50:>7.1f}ms  {ratio}")
        result.append((f"{label} (p50)", p50 * 1000, f"{rps:.0f} req/s, {ratio}"))
    queries = seed["queries"]
    print(
        f"  queries per request of the public page: {queries['cold']} (cache empty), "
        f"{queries['warm']} (cached), {queries['304']} (304); the first reader after a "
        f"change builds it in {seed['cold_ms']:.0f} ms (one process, median of 5)"
    )
    return result


if __name__ == "__main__":
    for name, p50_us, note in run():
        print(f"{name}: {p50_us / 1000:.1f} ms  {note}")
