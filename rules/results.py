"""Value types the engine hands back (shared by every variant module)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from rules.cards import Card

__all__ = ["Arrangement", "DealScore", "Meld", "MeldKind", "TableStanding"]


class MeldKind(enum.StrEnum):
    """A set (cards of one rank) or a run (consecutive cards of one suit)."""

    SET = "set"
    RUN = "run"


@dataclass(frozen=True)
class Meld:
    """A valid meld. ``represents[i]`` is the natural card ``cards[i]`` stands for.

    For a natural card that is the card itself; for a wild it is the card the engine
    inferred. Runs are stored in rank order, lowest first.
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    represents: tuple[Card, ...]

    @property
    def wilds(self) -> int:
        """How many cards stand for another card."""
        return sum(1 for c, r in zip(self.cards, self.represents, strict=True) if c != r)

    def __len__(self) -> int:
        return len(self.cards)


@dataclass(frozen=True)
class Arrangement:
    """A hand split into melds and unmatched cards; ``deadwood`` is the unmatched cards' value."""

    melds: tuple[Meld, ...]
    unmatched: tuple[Card, ...]
    deadwood: int


@dataclass(frozen=True)
class DealScore:
    """One deal's result: ``points`` per seat (what goes on the sheet) and notable ``flags``."""

    points: tuple[int, ...]
    flags: dict[str, object] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class TableStanding:
    """A table's standing after the deals played so far."""

    totals: tuple[int, ...]
    lower_is_better: bool
    finished: bool
    ranking: tuple[int, ...]
    winner: int | None
    extra: dict[str, object] = field(default_factory=dict, hash=False)
