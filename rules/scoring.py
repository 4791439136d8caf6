"""The one door the site uses to score a deal, whatever the game.

Each variant module (``contract_games``, ``gin``, ``tizlapos``) offers ``parse_entry``,
``score_deal`` and ``standing``; this module picks the right one by ``variant.id``. The
variant modules are imported on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Protocol, cast

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
    return variant_module(variant).parse_entry(variant, number, data)


def score_deal(variant: Variant, number: int, data: Mapping[str, object]) -> DealScore:
    """Validate and score deal ``number`` of a table from its entry dict.

    Raises :class:`rules.RuleViolation` with ``field`` set for anything a person must fix.
    """
    module = variant_module(variant)
    return module.score_deal(variant, module.parse_entry(variant, number, data))


def table_standing(variant: Variant, seats: int, deal_scores: Sequence[DealScore]) -> TableStanding:
    """A table's totals, ranking and end of game after ``deal_scores`` (in deal order)."""
    return variant_module(variant).standing(variant, seats, deal_scores)
