"""Speed of the championship's pure part: closing a big stage, and a whole championship.

Run ``python tests/bench/bench_advancement.py``; `make bench` calls :func:`run`. Figures are
printed, not asserted. Closing a stage of 250 tables and drawing the next has a 2 s budget
on the site, queries included (issue 10); the pure part should be a small share of it.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournaments.engine.advancement import (
    DEFAULT_BOUNDS,
    advance,
    final_ranking,
    next_stage,
    simulate_championship,
)

STAGE_RUNS = 30
CHAMPIONSHIP_RUNS = 10


def _median_us(work, runs: int) -> float:
    work()  # warm up, and fail loudly if it is refused
    timings = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        work()
        timings.append(time.perf_counter_ns() - start)
    return statistics.median(timings) / 1000


def run() -> list[tuple[str, float, str]]:
    """(name, median microseconds, target) for each benchmark in this file."""
    rows = []
    for top_k, lucky in ((1, False), (2, True)):
        # The first stage of a simulated championship: 250 tables, ties settled by the
        # director's recorded tie-breaks, a few no-shows.
        first = simulate_championship(
            1000, top_k=top_k, seed=7, lucky_losers=lucky, no_show_rate=0.05
        ).stages[0]
        assert len(first.tables) == 250

        def close_and_draw(first=first, top_k=top_k, lucky=lucky) -> None:
            result = advance(
                first.tables,
                top_k=top_k,
                bounds=DEFAULT_BOUNDS,
                lucky_losers=lucky,
                no_shows=first.no_shows,
                stage_tie_breaks=first.stage_tie_breaks,
            )
            next_stage(result, bounds=DEFAULT_BOUNDS, seed=1)

        label = f"advance 250 tables (1000 players), K={top_k}" + (
            ", lucky losers" if lucky else ""
        )
        rows.append(
            (f"{label}, and draw the next stage", _median_us(close_and_draw, STAGE_RUNS), "< 50 ms")
        )

    for top_k in (1, 2):
        championship = simulate_championship(1000, top_k=top_k, seed=3)
        stages = [stage.advancement for stage in championship.stages]
        rows.append(
            (
                f"whole 1000-entrant championship, K={top_k} ({len(stages)} stages, "
                "simulated results, ties, draws, final ranking)",
                _median_us(
                    lambda top_k=top_k: simulate_championship(1000, top_k=top_k, seed=3),
                    CHAMPIONSHIP_RUNS,
                ),
                "< 500 ms",
            )
        )
        rows.append(
            (
                f"final ranking of 1000 players over {len(stages)} stages, K={top_k}",
                _median_us(lambda stages=stages: final_ranking(stages), STAGE_RUNS),
                "< 20 ms",
            )
        )
    return rows


def main() -> int:
    for name, median, target in run():
        print(f"{name}: median {median / 1000:.2f} ms (target {target})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
