"""Timing of the best-arrangement solver (``make bench``; not part of the test run).

Every figure is a median over distinct hands: no hand is timed twice, and the solver keeps
no cache keyed on a hand, so there is no warm figure to report. What it does keep are
per-variant tables indexed by one suit's cards (built once per meld shape and timed here
as "table build"); they depend on the variant's rules, never on a hand.

Each case runs three passes over three different sets of hands; the figure reported is the
lowest pass median (other programs on the machine only ever add time), and every pass is
printed so the spread is visible. The garbage collector is paused while timing, as
``timeit`` does.

Run: ``python tests/bench/bench_arrangement.py``.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import arrangement
from rules.cards import JOKER, Card, Suit
from rules.variants import Variant, get_variant

SUITS = list(Suit)
Hand = list[Card]


def _distinct(make: Callable[[random.Random], Hand], count: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    seen: set[tuple[Card, ...]] = set()
    hands: list[Hand] = []
    while len(hands) < count:
        hand = make(rng)
        key = tuple(sorted(hand, key=lambda c: (c.rank, str(c.suit))))
        if key not in seen:
            seen.add(key)
            hands.append(hand)
    return hands


def gin_random(rng: random.Random) -> Hand:
    deck = [Card(r, s) for s in SUITS for r in range(1, 14)]
    return rng.sample(deck, 10)


def gin_overlapping(rng: random.Random) -> Hand:
    """A run whose cards also make sets with other suits, plus a second crossing run."""
    suit = rng.choice(SUITS)
    low = rng.randint(1, 9)
    length = rng.randint(4, 5)
    chosen = {Card(r, suit) for r in range(low, low + length)}
    others = [s for s in SUITS if s is not suit]
    # Two ranks of the run each get two more suits: sets that compete with the run.
    for rank in rng.sample(range(low, low + length), 2):
        for s in rng.sample(others, 2):
            chosen.add(Card(rank, s))
    # A crossing run in another suit through one of those set cards.
    pivot = rng.choice(sorted(c for c in chosen if c.suit is not suit))
    assert pivot.suit is not None
    for r in (pivot.rank - 1, pivot.rank + 1):
        if 1 <= r <= 13 and len(chosen) < 10:
            chosen.add(Card(r, pivot.suit))
    deck = [Card(r, s) for s in SUITS for r in range(1, 14)]
    while len(chosen) < 10:
        chosen.add(rng.choice(deck))
    hand = list(chosen)[:10]
    rng.shuffle(hand)
    return hand


def tiz_up_to_four_jokers(rng: random.Random) -> Hand:
    """11 cards from two decks with 0 to 4 jokers (each count equally likely)."""
    jokers = rng.randint(0, 4)
    deck = [Card(r, s) for _ in range(2) for s in SUITS for r in range(1, 14)]
    return rng.sample(deck, 11 - jokers) + [JOKER] * jokers


def tiz_four_jokers(rng: random.Random) -> Hand:
    deck = [Card(r, s) for _ in range(2) for s in SUITS for r in range(1, 14)]
    return rng.sample(deck, 7) + [JOKER] * 4


def tiz_dealt(rng: random.Random) -> Hand:
    """11 cards dealt from the full 108-card pack (jokers as they fall)."""
    deck = [Card(r, s) for _ in range(2) for s in SUITS for r in range(1, 14)] + [JOKER] * 4
    return rng.sample(deck, 11)


def _median_us(variant: Variant, hands: list[Hand]) -> float:
    solve = arrangement.best_arrangement
    clock = time.perf_counter_ns
    samples: list[int] = []
    for hand in hands:
        start = clock()
        solve(variant, hand)
        samples.append(clock() - start)
    return statistics.median(samples) / 1000.0


def table_build_ms(variant_id: str = "gin_romi") -> float:
    """Milliseconds to build a variant's tables (once per process and meld shape)."""
    variant = get_variant(variant_id)
    arrangement.clear_caches()
    start = time.perf_counter_ns()
    arrangement.best_arrangement(variant, gin_random(random.Random(0)))
    return (time.perf_counter_ns() - start) / 1e6


CASES: list[tuple[str, str, Callable[[random.Random], Hand], int, str]] = [
    ("gin_romi random 10 cards", "gin_romi", gin_random, 20000, "< 10 µs"),
    ("gin_romi overlapping melds 10 cards", "gin_romi", gin_overlapping, 20000, "< 20 µs"),
    (
        "tizlapos_romi 11 cards, 0-4 jokers",
        "tizlapos_romi",
        tiz_up_to_four_jokers,
        3000,
        "< 1000 µs",
    ),
    ("tizlapos_romi 11 cards, 4 jokers", "tizlapos_romi", tiz_four_jokers, 2000, "< 1000 µs"),
    ("tizlapos_romi 11 cards dealt from 108", "tizlapos_romi", tiz_dealt, 3000, "< 1000 µs"),
]


PASSES = 3


def run(scale: float = 1.0) -> list[tuple[str, float, str]]:
    """(name, median microseconds, target) for every case: the lowest of the pass medians."""
    return [(name, min(passes), target) for name, passes, target in run_passes(scale)]


def run_passes(scale: float = 1.0) -> list[tuple[str, list[float], str]]:
    """Like :func:`run`, with the median of every pass."""
    rows: list[tuple[str, list[float], str]] = []
    for seed, (name, variant_id, make, count, target) in enumerate(CASES):
        variant = get_variant(variant_id)
        size = max(100, int(count * scale))
        hands = _distinct(make, size * PASSES, seed)
        # Build the variant's tables outside the timing: a hand without jokers uses them.
        arrangement.best_arrangement(variant, [Card(r, Suit.SPADES) for r in range(1, 11)])
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            passes = [_median_us(variant, hands[k * size : (k + 1) * size]) for k in range(PASSES)]
        finally:
            if was_enabled:
                gc.enable()
        rows.append((name, passes, target))
    return rows


def main() -> None:
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    for variant_id in ("gin_romi", "tizlapos_romi"):
        print(f"{variant_id + ' table build, once':<42} {table_build_ms(variant_id):8.1f} ms")
    for name, passes, target in run_passes(scale):
        spread = " / ".join(f"{p:.1f}" for p in passes)
        print(f"{name:<42} {min(passes):8.1f} µs  target {target:<10} passes: {spread}")


if __name__ == "__main__":
    main()
