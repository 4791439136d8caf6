"""Writes for an event's settings that the director may change while it runs."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from rules import RuleViolation
from rules.i18n import _
from tournaments.changes import results_change
from tournaments.engine.tiebreaks import tie_break_precedence
from tournaments.models import Event, RankingMode


def ranking_settings_refusal(*, event: Event) -> RuleViolation | None:
    """Why the event's ranking settings may not be changed, or None: the rule for the
    services below and the manage page. A format that ranks otherwise (by match wins) has
    none that mean anything."""
    if event.spec.ranking_settings:
        return None
    return RuleViolation(
        _("This format ranks by match wins: the ranking settings do not apply to it."),
        code="ranking_settings_not_used",
    )


def event_ranking_mode_set(*, event: Event, mode: str) -> Event:
    """How the event's ranking orders players while the tables are at different deals
    (RankingMode). Any time, finished or not: it changes what the ranking shows, never a
    score."""
    if refusal := ranking_settings_refusal(event=event):
        raise refusal
    if mode not in RankingMode.values:
        raise RuleViolation(
            _("%(mode)s is not a way to rank the event."),
            code="ranking_mode",
            field="ranking_mode",
            mode=mode,
        )
    with transaction.atomic():
        event.ranking_mode = mode
        event.save(update_fields=["ranking_mode"])
        # The public pages and feeds show the ranking: their copies are out of date.
        results_change(event_id=event.pk, reason="settings")
    return event


def event_tie_breaks_set(*, event: Event, order: Sequence[str]) -> Event:
    """The event's tie-break precedence (`tournaments.engine.tiebreaks`): `order`, the names best
    first (the total first, listed or not); empty for the game's default. Refused with the
    reason for an unknown name, one listed twice, or the total after another
    (RuleViolation). Any time: it changes how equal players are ordered, never a score."""
    if refusal := ranking_settings_refusal(event=event):
        raise refusal
    stored = list(tie_break_precedence(list(order), game=event.variant_id)) if order else []
    with transaction.atomic():
        event.tie_breaks = stored
        event.save(update_fields=["tie_breaks"])
        results_change(event_id=event.pk, reason="settings")
    return event
