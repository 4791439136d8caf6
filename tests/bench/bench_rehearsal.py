"""`make bench`'s short load rehearsal (tests/bench/rehearsal.py): 40 tables of four and 40
spectators for 30 seconds at the stress pace (a deal per table every 30 s), then the stage
closed while they poll, on the site as the Docker image runs it. The full night (250 tables, 200 spectators, both paces) is
`.venv/bin/python tests/bench/rehearsal.py`; docs/speed.md says what it needs."""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

from tests.bench.rehearsal import _percentile, parse, rehearse

SHORT = [
    "--tables", "40", "--spectators", "40", "--seconds", "30", "--paces", "30",
    "--close-seconds", "20", "--arrival", "5",
]  # fmt: skip


def _reachable(url: str, port: int) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or port), 1):
            return True
    except OSError:
        return False


def run() -> list[tuple[str, float, str]]:
    database = os.environ.get("DATABASE_URL") or "postgresql://127.0.0.1:5432/"
    redis = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    if not (_reachable(database, 5432) and _reachable(redis, 6379)):
        print("  rehearsal skipped: it needs PostgreSQL and Redis")
        return []
    lines, figures = rehearse(parse(SHORT))
    print("\n".join(f"  {line}" for line in lines))
    rows = []
    for _pace, stats in figures.items():
        for kind, times in sorted(stats.times.items()):
            p95, p99 = _percentile(times, 0.95), _percentile(times, 0.99)
            label = f"rehearsal {kind} (p95 {p95:.2f} s, p99 {p99:.2f} s)"
            rows.append((label, _percentile(times, 0.5) * 1e6, "p95 < 1 s, p99 < 2 s"))
    return rows
