"""`make bench`'s short load rehearsal (tests/bench/rehearsal.py): 40 tables of four and 40
spectators for 30 seconds at the stress pace (a deal per table every 30 s), then the stage
closed while they poll, on the site as the Docker image runs it. The full night (250 tables, 200 spectators, both paces) is
`.venv/bin/python tests/bench/rehearsal.py`; docs/speed.md says what it needs."""

from __future__ import annotations

from tests.bench.rehearsal import _percentile, parse, rehearse
from tests.bench.testdb import stack_services

SHORT = [
    "--tables", "40", "--spectators", "40", "--seconds", "30", "--paces", "30",
    "--close-seconds", "20", "--arrival", "5",
]  # fmt: skip


def run() -> list[tuple[str, float, str]]:
    if stack_services() is None:
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
