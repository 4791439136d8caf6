"""Value types the engine hands back (shared by every variant module)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules.cards import Card

if TYPE_CHECKING:
    from rules.gin import Settlement
    from rules.tizlapos import BuliLedger

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
    """One deal's result: ``points`` per seat (what goes on the sheet) and notable ``flags``.

    ``flags`` is a JSON-ready dict (the site stores it as it is and hands it back): what
    each game's ``standing`` reads from it is that game's to check.
    """

    points: tuple[int, ...]
    flags: dict[str, object] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class TableStanding:
    """A table's standing after the deals played so far.

    ``extra`` is the game's account as a JSON-ready dict (each game's ``standing`` says
    what it holds). ``details`` is the same account typed, where the game has one: read it
    through :attr:`settlement` (Gin Römi) and :attr:`ledger` (Tízlapos Römi), which are
    None for every other game (and for a Gin Römi game not yet over).
    """

    totals: tuple[int, ...]
    lower_is_better: bool
    finished: bool
    ranking: tuple[int, ...]
    winner: int | None
    extra: dict[str, object] = field(default_factory=dict, hash=False)
    details: object = None

    @property
    def settlement(self) -> Settlement | None:
        """Gin Römi's final account (:class:`rules.gin.Settlement`) once the game is over."""
        from rules.gin import Settlement

        return self.details if isinstance(self.details, Settlement) else None

    @property
    def ledger(self) -> BuliLedger | None:
        """Tízlapos Römi's buli so far (:class:`rules.tizlapos.BuliLedger`): who is in, the
        units, the pot."""
        from rules.tizlapos import BuliLedger

        return self.details if isinstance(self.details, BuliLedger) else None
