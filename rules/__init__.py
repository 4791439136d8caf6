"""The referee: cards, melds, contracts, penalties and deal scoring for every variant.

Pure Python, no Django. The site, the command line (``python -m rules``) and the tests all
ask the same functions::

    >>> import rules
    >>> variant = rules.get_variant("ravaytys")
    >>> rules.format_cards(rules.parse_cards("pata-5-8 JK"))
    '5S 6S 7S 8S JK'
    >>> rules.price_text(rules.get_variant("rutupeli"), "A K 7 7")
    40

Each game is described once, by its module, in a :class:`GameSpec` (:mod:`rules.games`):
``rules.GAMES`` holds them by id and ``rules.game_spec(variant)`` finds one::

    >>> rules.game_spec("tizlapos_romi").family
    'tizlapos'

Every entry point bounds what it reads by the game (``Variant.max_hand_cards``,
``max_laydown_cards``, ``max_text_length``, ``max_buys``, ``max_deals``; see
:mod:`rules.limits`), and answers anything it cannot read with :class:`RuleViolation`.
"""

from __future__ import annotations

from rules.cards import JOKER, Card, Suit, full_deck
from rules.contracts import check_contract, check_contract_text
from rules.errors import RulesError, RuleViolation
from rules.games import GAMES, GameSpec, Option, TableSizes, game_spec
from rules.gin import GinVariant, Settlement
from rules.melds import meld_readings, validate_meld
from rules.notation import MAX_TEXT_LENGTH, format_cards, parse_card, parse_cards, parse_ranks
from rules.penalties import Hand, check_feasible, hand_from_text, price_hand, price_text
from rules.results import Arrangement, DealScore, Meld, MeldKind, TableStanding
from rules.scoring import parse_entry, playoff_variant, score_deal, table_standing
from rules.tizlapos import BuliLedger, TizVariant
from rules.variants import (
    VARIANT_IDS,
    Contract,
    Variant,
    describe_options,
    describe_penalties,
    get_variant,
)

__all__ = [
    "GAMES",
    "JOKER",
    "MAX_TEXT_LENGTH",
    "VARIANT_IDS",
    "Arrangement",
    "BuliLedger",
    "Card",
    "Contract",
    "DealScore",
    "GameSpec",
    "GinVariant",
    "Hand",
    "Meld",
    "MeldKind",
    "Option",
    "RuleViolation",
    "RulesError",
    "Settlement",
    "Suit",
    "TableSizes",
    "TableStanding",
    "TizVariant",
    "Variant",
    "check_contract",
    "check_contract_text",
    "check_feasible",
    "describe_options",
    "describe_penalties",
    "format_cards",
    "full_deck",
    "game_spec",
    "get_variant",
    "hand_from_text",
    "meld_readings",
    "parse_card",
    "parse_cards",
    "parse_entry",
    "parse_ranks",
    "playoff_variant",
    "price_hand",
    "price_text",
    "score_deal",
    "table_standing",
    "validate_meld",
]
