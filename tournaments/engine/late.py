"""Seating late arrivals: where each player checked in after the draw would sit.

Pure functions, no models, like `draw.py`: the manage page proposes this placement, the
director adjusts it, and the service checks it again under the tables' locks.

The rule, simple enough to say aloud at the desk: late arrivals enough for a table of their
own get one (or more), so the tables already seated are not disturbed; the others each join
the smallest table that has not started and has a free chair; whoever is left waits for the
next late arrival.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from rules.errors import RuleViolation
from tournaments.engine.draw import TableBounds, table_sizes

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True)
class OpenTable:
    """A table a late arrival may still join: seated, no deal played yet."""

    key: int
    number: int
    size: int


@dataclass
class LatePlacement(Generic[P]):
    # player → the key of the table they join
    joins: dict[P, int] = field(default_factory=dict)
    # players of each new table, in seat order (the first deals first)
    new_tables: list[list[P]] = field(default_factory=list)
    waiting: list[P] = field(default_factory=list)


def _own_tables(players: int, bounds: TableBounds) -> list[int]:
    """The sizes of the new tables for the most of `players` that balanced tables can seat
    (Gin's tables of two leave an odd one out), or none when they are too few."""
    for seated in range(players, bounds.min_size - 1, -1):
        try:
            return table_sizes(seated, bounds)
        except RuleViolation:
            continue
    return []


def late_placement(
    players: Sequence[P], tables: Sequence[OpenTable], bounds: TableBounds
) -> LatePlacement[P]:
    """Propose a seat for each of `players` (in the order they checked in)."""
    placement: LatePlacement[P] = LatePlacement()
    start = 0
    for size in _own_tables(len(players), bounds):
        placement.new_tables.append(list(players[start : start + size]))
        start += size
    sizes = {table.key: table.size for table in tables}
    for player in players[start:]:
        free = [table for table in tables if sizes[table.key] < bounds.max_size]
        if not free:
            placement.waiting.append(player)
            continue
        smallest = min(free, key=lambda table: (sizes[table.key], table.number))
        placement.joins[player] = smallest.key
        sizes[smallest.key] += 1
    return placement
