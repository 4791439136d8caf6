"""Timing of the reseated series' seating (``make bench``; not part of the test run).

Each case runs with several seeds; the figure is the median time, and the label gives the
repeat count found (the most over the seeds) and the slowest seed, since a search's time
varies with its seed. No timing is a pass or a fail: the repeat counts are what the tests
assert (tests/tournaments/test_seating.py).

Run: ``python tests/bench/bench_seating.py``.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournaments.engine.draw import TableBounds, draw_tables
from tournaments.engine.seating import meetings, plan_series, reseat

CONTRACT = TableBounds(min_size=3, max_size=6, preferred=4)
FOURS = TableBounds(min_size=4, max_size=4, preferred=4)

# (label, players, rounds played at random before, rounds planned, bounds, clubs, seeds, target)
CASES: list[tuple[str, int, int, int, TableBounds, int, int, str]] = [
    ("reseat 1000 players after 3 random rounds", 1000, 3, 1, CONTRACT, 0, 5, "< 1 s"),
    (
        "reseat 1000 players after 3 random rounds, 20 clubs apart",
        1000,
        3,
        1,
        CONTRACT,
        20,
        5,
        "< 1 s",
    ),
    ("plan 16×5 at tables of 4", 16, 0, 5, FOURS, 0, 20, "repeats 0, a few s at most"),
    ("plan 40×6 at tables of 4", 40, 0, 6, FOURS, 0, 10, "repeats 0, a few s at most"),
    ("plan 100×8 at tables of 4", 100, 0, 8, FOURS, 0, 10, "repeats 0, a few s at most"),
]


def _case(
    players: int, played: int, rounds: int, bounds: TableBounds, clubs: int, seed: int
) -> Callable[[], tuple[int, float]]:
    names = list(range(players))
    # History seeds apart from the search's: a history whose round 1 is the search's own
    # starting draw (1500 repeats to undo at 1000 players) is a different, slower figure.
    met = meetings(draw_tables(names, bounds, seed=10_000 + seed * 100 + r) for r in range(played))
    cost = (lambda a, b: 1.0 if a % clubs == b % clubs else 0.0) if clubs else None

    def call() -> tuple[int, float]:
        if rounds == 1:
            seating = reseat(names, bounds=bounds, met=met, seed=seed, pair_cost=cost)
            return seating.repeats, seating.extra_cost
        plan = plan_series(names, rounds=rounds, bounds=bounds, met=met, seed=seed, pair_cost=cost)
        return plan.repeats, plan.extra_cost

    return call


def run_cases() -> list[tuple[str, list[float], int, float, str]]:
    """(label, microseconds per seed, most repeats, most extra cost, target) per case."""
    rows: list[tuple[str, list[float], int, float, str]] = []
    for label, players, played, rounds, bounds, clubs, seeds, target in CASES:
        times: list[float] = []
        repeats = 0
        extra = 0.0
        for seed in range(seeds):
            call = _case(players, played, rounds, bounds, clubs, seed)
            start = time.perf_counter_ns()
            found, cost = call()
            times.append((time.perf_counter_ns() - start) / 1000.0)
            repeats, extra = max(repeats, found), max(extra, cost)
        rows.append((label, times, repeats, extra, target))
    return rows


def run() -> list[tuple[str, float, str]]:
    """(name, median microseconds, target) for every case, the repeats found in the name."""
    out: list[tuple[str, float, str]] = []
    for label, times, repeats, extra, target in run_cases():
        found = f"repeats {repeats}" + (f", same club {extra:g}" if extra else "")
        slowest = max(times) / 1e6
        out.append(
            (
                f"{label} ({found}; {len(times)} seeds, slowest {slowest:.2f} s)",
                statistics.median(times),
                target,
            )
        )
    return out


def main() -> None:
    for label, median_us, target in run():
        print(f"{label:<95} {median_us / 1000:9.1f} ms  target {target}")


if __name__ == "__main__":
    main()
