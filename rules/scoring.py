"""The one door the site uses to score a deal, whatever the game.

Each variant module (``contract_games``, ``gin``, ``tizlapos``) offers ``parse_entry``,
``score_deal`` and ``standing``; this module picks the right one by ``variant.id``. The
variant modules are imported on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Protocol, cast

from rules.entries import deal_number
from rules.errors import RulesError
from rules.results import DealScore, TableStanding
from rules.variants import Variant

__all__ = ["parse_entry", "score_deal", "table_standing", "variant_module"]

_MODULES = {
    "ravaytys": "rules.contract_games",
    "rutupeli": "rules.contract_games",
    "gin_romi": "rules.gin",
    "tizlapos_romi": "rules.tizlapos",
}


class VariantModule(Protocol):
    """What every variant module provides."""

    def parse_entry(self, variant: Variant, number: int, data: Mapping[str, object]) -> object:
        """Check an entry's shape and read its cards."""

    def score_deal(self, variant: Variant, entry: object) -> DealScore:
        """Score one parsed deal."""

    def standing(self, variant: Variant, seats: int, deals: Sequence[DealScore]) -> TableStanding:
        """Totals and ranking after the deals so far."""


def variant_module(variant: Variant) -> VariantModule:
    """The module that scores ``variant``."""
    name = _MODULES.get(variant.id)
    if name is None:
        raise RulesError(f"no scoring module for variant {variant.id!r}")
    return cast(VariantModule, importlib.import_module(name))


def parse_entry(variant: Variant, number: int, data: Mapping[str, object]) -> object:
    """Check the shape of deal ``number``'s entry and read its cards (no scoring)."""
    module = variant_module(variant)
    return module.parse_entry(variant, deal_number(variant, number), data)


def score_deal(variant: Variant, number: int, data: Mapping[str, object]) -> DealScore:
    """Validate and score deal ``number`` of a table from its entry dict.

    Raises :class:`rules.RuleViolation` with ``field`` set for anything a person must fix.
    The entry is taken as posted: a number that is no deal (``code`` ``"bad_deal"``), an
    entry or a value inside it of any wrong type, and cards beyond the game's limits
    (:mod:`rules.limits`) are violations too, never another exception.
    """
    module = variant_module(variant)
    return module.score_deal(
        variant, module.parse_entry(variant, deal_number(variant, number), data)
    )


def table_standing(variant: Variant, seats: int, deal_scores: Sequence[DealScore]) -> TableStanding:
    """A table's totals, ranking and end of game after ``deal_scores`` (in deal order).

    The scores are taken as stored: ``seats`` that is no table of the game, scores that
    are not a sequence of :class:`DealScore`, points not one whole number per seat, flags
    of the wrong shape (``code`` ``"bad_score"``), and a deal that does not fit the table
    (after the game ended, a player out of the buli scoring) raise
    :class:`rules.RuleViolation`; a deal's own violation names it in ``params["number"]``.
    """
    return variant_module(variant).standing(variant, seats, deal_scores)
