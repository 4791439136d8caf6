"""One announcement for "an event's results changed", sent by every write that changes
what a results page, feed or league table shows.

The writes call :func:`results_change` inside their transaction; receivers of
:data:`results_changed` do their part: keep a table's stored standing current (in the same
transaction), mark a season's league table out of date and queue its recomputation, drop
cached public pages (those two on commit). The event's ``results_changed_at`` is the
pages' Last-Modified and what a cached copy is checked against.
"""

from __future__ import annotations

from django.dispatch import Signal
from django.utils import timezone

from tournaments.models import Event

# Sent with event_id (int), table_id (int | None: the change concerns one table) and
# reason (one of REASONS).
results_changed = Signal()

REASONS = frozenset(
    {
        "deal_saved",
        "deal_confirmed",
        "deal_voided",
        "seating_changed",
        "stage_closed",
        "event_finished",
        "publication",
        "settings",
    }
)


def results_change(*, event_id: int, reason: str, table_id: int | None = None) -> None:
    """Record that `event_id`'s results changed now, and tell the receivers."""
    if reason not in REASONS:
        raise ValueError(f"not a reason for a results change: {reason!r}")
    Event.objects.filter(pk=event_id).update(results_changed_at=timezone.now())
    results_changed.send(sender=Event, event_id=event_id, table_id=table_id, reason=reason)
