"""Writes for an event's settings that the director may change while it runs."""

from __future__ import annotations

from rules import RuleViolation
from rules.i18n import _
from tournaments.models import Event, RankingMode


def event_ranking_mode_set(*, event: Event, mode: str) -> Event:
    """How the event's ranking orders players while the tables are at different deals
    (RankingMode). Any time, finished or not: it changes what the ranking shows, never a
    score."""
    if mode not in RankingMode.values:
        raise RuleViolation(
            _("%(mode)s is not a way to rank the event."),
            code="ranking_mode",
            field="ranking_mode",
            mode=mode,
        )
    event.ranking_mode = mode
    event.save(update_fields=["ranking_mode"])
    return event
