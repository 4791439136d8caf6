"""Timing of a Swiss round (``make bench``; not part of the test run).

The figure is what a service waits for when it draws the next round: ``swiss_next``
(standings, history and the minimum-weight matching over every pair) in the middle of an
event, after five rounds of seeded random results, so score groups and rematches to avoid
are as a real event has them. Each size is timed several times on the same input (the
pairing keeps nothing between calls); the median is reported.

The matching is usually made over a small share of the pairs, proved to hold an optimal
one (``pairing.min_cost_perfect_matching``); when a rematch or a higher bye is forced
nothing can be left out, and the "every pair" line is what such a round costs.

Run: ``python tests/bench/bench_pairing.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournaments.engine import pairing
from tournaments.engine.pairing import Bye, ByeValue, MatchResult, Pairing, swiss_next

BYE = ByeValue(wins=1, points=0)
ROUNDS_BEFORE = 5

Result = MatchResult[int] | Bye[int]


def _play(pairing: Pairing[int], number: int, rng: random.Random) -> list[Result]:
    out: list[Result] = []
    for a, b in pairing.pairs:
        winner = rng.choice((a, b))
        loser_points = rng.choice((0, 60, 120, 140))
        win_points = 300 + rng.randint(0, 60) + (150 if loser_points == 0 else 0)
        out.append(
            MatchResult(
                number,
                a,
                b,
                winner,
                win_points if winner == a else loser_points,
                win_points if winner == b else loser_points,
            )
        )
    if pairing.bye is not None:
        out.append(Bye(number, pairing.bye))
    return out


def event_after(players: int, rounds: int, seed: int) -> list[Result]:
    """The results of ``rounds`` Swiss rounds of ``players`` with random winners."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    results: list[Result] = []
    for number in range(1, rounds + 1):
        results += _play(swiss_next(ids, results, bye_value=BYE, seed=seed), number, rng)
    return results


# name, players, repeats, prune, target
CASES: list[tuple[str, int, int, bool, str]] = [
    ("swiss round 6, 64 players", 64, 9, True, "< 50 ms"),
    ("swiss round 6, 65 players (a bye)", 65, 9, True, "< 50 ms"),
    ("swiss round 6, 256 players", 256, 5, True, "< 500 ms"),
    ("swiss round 6, 257 players (a bye)", 257, 5, True, "< 500 ms"),
    ("swiss round 6, 256 players, every pair", 256, 3, False, "< 3 s"),
]


def _timed(players: int, repeats: int, results: list[Result]) -> tuple[float, Pairing[int]]:
    ids = list(range(1, players + 1))
    samples: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        drawn = swiss_next(ids, results, bye_value=BYE, seed=players)
        samples.append((time.perf_counter_ns() - start) / 1000.0)
    return statistics.median(samples), drawn


def run() -> list[tuple[str, float, str]]:
    """(name, median microseconds, target) for each size."""
    rows: list[tuple[str, float, str]] = []
    for name, players, repeats, prune, target in CASES:
        results = event_after(players, ROUNDS_BEFORE, seed=players)
        bound = pairing._reduced_costs
        if not prune:
            pairing._reduced_costs = lambda *args: None
        try:
            median_us, drawn = _timed(players, repeats, results)
        finally:
            pairing._reduced_costs = bound
        # A figure for a pairing that broke the rules would be worthless.
        assert drawn.rematches == (), name
        rows.append((name, median_us, target))
    return rows


def main() -> None:
    for name, median_us, target in run():
        print(f"{name:<36} {median_us / 1000:10.1f} ms  target {target}")


if __name__ == "__main__":
    main()
