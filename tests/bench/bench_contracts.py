"""Speed of the contract check: a 12-card Räväytys laydown with wild cards.

Run ``python tests/bench/bench_contracts.py``; a harness may call :func:`run` instead.
The figure is printed, not asserted: timing belongs in a benchmark, not in a test.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import check_contract, get_variant, parse_cards

TARGET_US = 200.0
RUNS = 5000

# Deal 5 asks for three runs from twelve cards; jokers and a black two stand in the gaps,
# and two spade runs sit close enough that the wilds' readings must be searched.
LAYDOWNS = [
    (5, ["♥3 ♥4 JK ♥6", "♠7 ♠8 ♣2 ♠10", "♦J ♦Q JK ♦A"]),
    (5, ["♠5 ♠6 ♠7 ♠8", "♠10 ♠J ♠Q JK", "♥A ♥2 ♠2 ♥4"]),
    (7, ["♣5 ♣6 JK ♣8", "♣8 ♣9 ♣10 ♣J", "9H 9D ♠2"]),
]


def _median_us(deal: int, melds: list[str], runs: int) -> float:
    variant = get_variant("ravaytys")
    laydown = [parse_cards(m) for m in melds]
    check_contract(variant, deal, laydown)  # warm up, and fail loudly if it is refused
    timings = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        check_contract(variant, deal, laydown)
        timings.append(time.perf_counter_ns() - start)
    return statistics.median(timings) / 1000


def run(runs: int = RUNS) -> list[tuple[str, float, str]]:
    """(name, median microseconds, target) for each benchmark in this file."""
    results = []
    for deal, melds in LAYDOWNS:
        name = f"contract check, Räväytys deal {deal}: {' / '.join(melds)}"
        results.append((name, _median_us(deal, melds, runs), f"< {TARGET_US:.0f} µs"))
    return results


def main() -> int:
    for name, median, target in run():
        print(f"{name}: median {median:.1f} µs (target {target})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
