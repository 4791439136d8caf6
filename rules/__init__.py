"""The referee: cards, melds, contracts, penalties and deal scoring for every variant."""

from __future__ import annotations

from rules.cards import JOKER, Card, Suit, full_deck
from rules.errors import RulesError, RuleViolation
from rules.results import Arrangement, DealScore, Meld, MeldKind, TableStanding
from rules.variants import VARIANT_IDS, Contract, Variant, describe_options, get_variant

__all__ = [
    "JOKER",
    "VARIANT_IDS",
    "Arrangement",
    "Card",
    "Contract",
    "DealScore",
    "Meld",
    "MeldKind",
    "RuleViolation",
    "RulesError",
    "Suit",
    "TableStanding",
    "Variant",
    "describe_options",
    "full_deck",
    "get_variant",
]
