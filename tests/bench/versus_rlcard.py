"""Gin Römi's best arrangement against an independent referee: RLCard's Gin Rummy meld search.

RLCard (``get_best_meld_clusters`` plus its deadwood count) follows the same Gin rules as
Gin Römi: ace low only, sets of 3 or 4 of different suits, runs of 3 or more, A = 1 and
J/Q/K = 10. On the same seeded 1500 random and 1500 meld-rich 10-card hands (the cards as
the engine's parser gives them, one object per card of the deck, as RLCard's deck does) it checks
that both find the same deadwood on every hand, then times both in one process: each pass
solves every hand of a set once, five passes each, interleaved so that any slowdown of the
machine falls on both; the figure is the median pass, and the ratio is RLCard's median over
the engine's (the goal is at least 5x on both sets). Times are the process's CPU time
(``time.process_time_ns``): the machine is shared, and wall time would also count the
turns other programs had. Card conversion is outside the timing,
and the engine's hand limit and variant lookup are inside it, as a caller pays them.

It also times Tízlapos Römi (two decks) on 11-card hands with 0 to 4 jokers, each count
equally likely: the median and the worst time of one hand (the goal: worst under 1 ms).

RLCard is never a dependency of the site: it lives in the bench's own environment,
``.venv-bench`` (``make bench-venv`` makes it from ``tests/bench/requirements.txt``;
``make bench`` does so on first use). Run alone:
``.venv-bench/bin/python tests/bench/versus_rlcard.py`` (``--json`` prints the rows
``make bench`` collects).
"""

from __future__ import annotations

import gc
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules.cards import JOKER, Card, Suit, card_of
from rules.variants import get_variant
from tests.bench.bench_arrangement import _distinct, gin_overlapping, gin_random

HANDS = 1500
PASSES = 5
PASS_SECONDS = 0.1
TIZ_HANDS = 3000
HOW_TO = (
    "RLCard is not installed in this environment ({python}); it never is in the site's own. "
    "`make bench-venv` makes .venv-bench with it (tests/bench/requirements.txt); then run "
    "`.venv-bench/bin/python tests/bench/versus_rlcard.py`, or just `make bench`."
)

Row = tuple[str, float, str]


def _rlcard() -> Any:
    """RLCard's Gin Rummy melding and utils modules, or None when it is not installed."""
    try:
        from rlcard.games.gin_rummy.utils import melding, utils
    except ImportError:
        return None
    return melding, utils


def _to_rlcard(utils: Any, hand: Sequence[Card]) -> list[Any]:
    suit_id = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}
    # RLCard's card id: rank index (A=0 .. K=12) + 13 * suit index (S, H, D, C).
    return [utils.get_card(c.rank - 1 + 13 * suit_id[c.suit]) for c in hand if c.suit]


def _rlcard_deadwood(melding: Any, utils: Any) -> Callable[[list[Any]], int]:
    best_clusters = melding.get_best_meld_clusters
    count = utils.get_deadwood_count
    value = utils.get_deadwood_value

    def deadwood(hand: list[Any]) -> int:
        clusters = best_clusters(hand)
        if clusters:
            return int(count(hand, clusters[0]))
        return sum(value(c) for c in hand)

    return deadwood


def _pass_us(solve: Callable[[Any], object], hands: Sequence[Any], rounds: int) -> float:
    """Microseconds a hand, over `rounds` times through the hands."""
    clock = time.process_time_ns
    start = clock()
    for _ in range(rounds):
        for hand in hands:
            solve(hand)
    return (clock() - start) / rounds / len(hands) / 1000


def _rounds(solve: Callable[[Any], object], hands: Sequence[Any]) -> int:
    """How many times through the hands make a pass of at least PASS_SECONDS (as timeit's
    autorange does): a pass of a few milliseconds, as the engine's 1500 random hands take
    once, moves by a third with one interruption or the other side's pass leaving the
    caches cold."""
    once = _pass_us(solve, hands, 1) * len(hands) / 1e6
    return max(1, math.ceil(PASS_SECONDS / max(once, 1e-6)))


@dataclass(frozen=True)
class GinFigure:
    label: str
    agree: int
    engine_passes_us: list[float]  # per hand, one figure a pass
    rlcard_passes_us: list[float]

    @property
    def engine_us(self) -> float:
        return statistics.median(self.engine_passes_us)

    @property
    def rlcard_us(self) -> float:
        return statistics.median(self.rlcard_passes_us)

    @property
    def ratio(self) -> float:
        return self.rlcard_us / self.engine_us


def gin_versus(melding: Any, utils: Any) -> list[GinFigure]:
    variant = get_variant("gin_romi")
    engine = variant.best_arrangement
    referee = _rlcard_deadwood(melding, utils)
    out: list[GinFigure] = []
    for seed, (label, make) in enumerate(
        (("random", gin_random), ("meld-rich", gin_overlapping)), start=100
    ):
        # As the engine's parser hands them over (one object per card of the deck), the
        # way RLCard's own deck does.
        hands = [[card_of(c.rank, c.suit) for c in h] for h in _distinct(make, HANDS, seed)]
        theirs = [_to_rlcard(utils, h) for h in hands]
        agree = sum(engine(h).deadwood == referee(t) for h, t in zip(hands, theirs, strict=True))
        ours_us: list[float] = []
        theirs_us: list[float] = []
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            ours_rounds, theirs_rounds = _rounds(engine, hands), _rounds(referee, theirs)
            for _ in range(PASSES):
                ours_us.append(_pass_us(engine, hands, ours_rounds))
                theirs_us.append(_pass_us(referee, theirs, theirs_rounds))
        finally:
            if was_enabled:
                gc.enable()
        out.append(GinFigure(label, agree, ours_us, theirs_us))
    return out


@dataclass(frozen=True)
class TizFigure:
    hands: int
    median_us: float
    worst_us: float
    worst_hand: str


def tizlapos_hand(rng: random.Random) -> list[Card]:
    """11 cards from two decks with 0 to 4 jokers (each count equally likely)."""
    jokers = rng.randint(0, 4)
    deck = [Card(r, s) for _ in range(2) for s in Suit for r in range(1, 14)]
    return rng.sample(deck, 11 - jokers) + [JOKER] * jokers


def tizlapos_times() -> TizFigure:
    """Median and worst microseconds of one hand, and the worst hand. Each hand is timed
    once a pass, and its fastest pass kept: another program on the machine only ever adds
    time, and the worst hand should be the hand, not a moment the machine was busy."""
    variant = get_variant("tizlapos_romi")
    solve = variant.best_arrangement
    hands = [[card_of(c.rank, c.suit) for c in h] for h in _distinct(tizlapos_hand, TIZ_HANDS, 7)]
    clock = time.process_time_ns
    best = [1 << 62] * len(hands)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(PASSES):
            for k, hand in enumerate(hands):
                start = clock()
                solve(hand)
                took = clock() - start
                if took < best[k]:
                    best[k] = took
    finally:
        if was_enabled:
            gc.enable()
    worst = max(range(len(hands)), key=best.__getitem__)
    return TizFigure(
        len(hands),
        statistics.median(best) / 1000,
        best[worst] / 1000,
        " ".join(c.code for c in sorted(hands[worst], key=_order)),
    )


def _order(card: Card) -> tuple[int, str]:
    return (card.rank, card.suit.value if card.suit else "")


def rows(gin: list[GinFigure], tiz: TizFigure) -> list[Row]:
    """The figures as ``make bench`` lists them: (name, median µs, the rest)."""
    out: list[Row] = [
        (
            f"gin_romi vs RLCard, {g.label} 10 cards",
            g.engine_us,
            f"RLCard {g.rlcard_us:.1f} µs: {g.ratio:.1f}x (goal ≥ 5x); {g.agree}/{HANDS} agree",
        )
        for g in gin
    ]
    out.append(
        (
            f"tizlapos_romi 11 cards 0-4 jokers (x{tiz.hands})",
            tiz.median_us,
            f"worst {tiz.worst_us:.0f} µs (goal < 1000 µs)",
        )
    )
    return out


def report(gin: list[GinFigure], tiz: TizFigure) -> list[str]:
    lines = []
    for g in gin:
        passes = " / ".join(
            f"{a:.1f}:{b:.1f}" for a, b in zip(g.engine_passes_us, g.rlcard_passes_us, strict=True)
        )
        lines.append(
            f"gin_romi {g.label:<9} agree {g.agree}/{HANDS}  engine {g.engine_us:6.1f} µs  "
            f"RLCard {g.rlcard_us:7.1f} µs  ratio {g.ratio:5.1f}x (goal ≥ 5x)  "
            f"passes engine:RLCard µs {passes}"
        )
    lines.append(
        f"tizlapos_romi 11 cards, 0-4 jokers ({tiz.hands} hands): median {tiz.median_us:.1f} µs,"
        f" worst {tiz.worst_us:.1f} µs (goal < 1000 µs): {tiz.worst_hand}"
    )
    return lines


def main(argv: Sequence[str]) -> int:
    found = _rlcard()
    if found is None:
        print(HOW_TO.format(python=sys.executable), file=sys.stderr)
        return 2
    gin = gin_versus(*found)
    tiz = tizlapos_times()
    if "--json" in argv:
        # For `make bench`: the report on stderr, the rows it lists on stdout.
        print("\n".join(report(gin, tiz)), file=sys.stderr)
        print(json.dumps(rows(gin, tiz)))
    else:
        print("\n".join(report(gin, tiz)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
