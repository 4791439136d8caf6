"""The one door the site uses to score a deal, whatever the game.

Each game's spec (:func:`rules.game_spec`) names its ``parse_entry``, ``score_deal`` and
``standing``; these functions call them. Nothing here knows any game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.entries import deal_number
from rules.errors import RuleViolation
from rules.games import game_spec
from rules.i18n import _
from rules.results import DealScore, TableStanding
from rules.variants import Variant

__all__ = ["parse_entry", "playoff_variant", "score_deal", "table_standing"]


def parse_entry(variant: Variant, number: int, data: Mapping[str, object]) -> object:
    """Check the shape of deal ``number``'s entry and read its cards (no scoring)."""
    return game_spec(variant).parse_entry(variant, deal_number(variant, number), data)


def score_deal(variant: Variant, number: int, data: Mapping[str, object]) -> DealScore:
    """Validate and score deal ``number`` of a table from its entry dict.

    Raises :class:`rules.RuleViolation` with ``field`` set for anything a person must fix.
    The entry is taken as posted: a number that is no deal (``code`` ``"bad_deal"``), an
    entry or a value inside it of any wrong type, and cards beyond the game's limits
    (:mod:`rules.limits`) are violations too, never another exception.
    """
    spec = game_spec(variant)
    return spec.score_deal(variant, spec.parse_entry(variant, deal_number(variant, number), data))


def table_standing(variant: Variant, seats: int, deal_scores: Sequence[DealScore]) -> TableStanding:
    """A table's totals, ranking and end of game after ``deal_scores`` (in deal order).

    The scores are taken as stored: ``seats`` that is no table of the game, scores that
    are not a sequence of :class:`DealScore`, points not one whole number per seat, flags
    of the wrong shape (``code`` ``"bad_score"``), and a deal that does not fit the table
    (after the game ended, a player out of the buli scoring) raise
    :class:`rules.RuleViolation`; a deal's own violation names it in ``params["number"]``.
    The game's typed account is in ``standing.settlement`` (Gin Römi) or
    ``standing.ledger`` (Tízlapos Römi).
    """
    return game_spec(variant).standing(variant, seats, deal_scores)


def playoff_variant(variant: Variant) -> Variant:
    """The game of one play-off deal between players a table of ``variant`` left level
    (its spec's ``playoff``): a table of it ends after that deal, ranked as the game ranks.
    A game with none (Gin Römi, Tízlapos Römi) raises :class:`rules.RuleViolation`
    (``"no_playoff"``).

    >>> import rules
    >>> game = rules.playoff_variant(rules.get_variant("ravaytys"))
    >>> (game.max_deals, game.min_players, game.contract(1).runs)
    (1, 2, 1)
    """
    spec = game_spec(variant)
    if spec.playoff is None:
        raise RuleViolation(
            _("%(game)s has no play-off deal: record how the tie was settled."),
            code="no_playoff",
            game=spec.name,
        )
    return spec.playoff(variant)
