"""Seating: who sits at which table. Pure functions, no models, so they are easy to prove.

A draw is reproducible: the same players, bounds and seed give the same tables, so a stored
seed lets anyone check a director's draw afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from rules.errors import RuleViolation
from rules.i18n import _, ngettext

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class TableBounds:
    """How many players a table may seat, and how many the club prefers."""

    min_size: int
    max_size: int
    preferred: int = 4

    def __post_init__(self) -> None:
        if not 2 <= self.min_size <= self.max_size:
            raise ValueError(f"bad table bounds {self.min_size}..{self.max_size}")


def table_sizes(players: int, bounds: TableBounds) -> list[int]:
    """Balanced table sizes for `players`: within bounds, differing by at most one.

    Among the table counts that fit, take the one whose average size is closest to the
    preferred size; on a tie, the larger tables (fewer tables to staff).
    """
    fitting = [
        tables
        for tables in range(1, players + 1)
        if bounds.min_size * tables <= players <= bounds.max_size * tables
    ]
    if not fitting:
        if players < bounds.min_size:
            raise RuleViolation(
                ngettext(
                    "%(players)d player checked in; a table needs at least %(min)d.",
                    "%(players)d players checked in; a table needs at least %(min)d.",
                    players,
                ),
                code="draw_too_few",
                players=players,
                min=bounds.min_size,
            )
        raise RuleViolation(
            _(
                "%(players)d players cannot be seated at tables of %(min)d to %(max)d: "
                "check in or withdraw a player."
            ),
            code="draw_impossible",
            players=players,
            min=bounds.min_size,
            max=bounds.max_size,
        )
    tables = min(fitting, key=lambda t: (abs(players / t - bounds.preferred), t))
    small, extra = divmod(players, tables)
    # Larger tables first: table 1 is the one nearest the director's desk, usually the biggest.
    return [small + 1] * extra + [small] * (tables - extra)


def draw_tables(players: Sequence[P], bounds: TableBounds, *, seed: int) -> list[list[P]]:
    """Shuffle `players` with `seed` and deal them onto balanced tables, in seat order.

    The first player of each table is its first dealer. The input order does not matter:
    players are sorted before shuffling, so a re-ordered list with the same seed draws the same.
    """
    sizes = table_sizes(len(players), bounds)
    pool = sorted(players, key=repr)
    random.Random(seed).shuffle(pool)
    tables: list[list[P]] = []
    start = 0
    for size in sizes:
        tables.append(pool[start : start + size])
        start += size
    return tables
