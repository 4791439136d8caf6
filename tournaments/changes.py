"""One announcement for "an event's results changed", sent by every write that changes
what a results page, feed or league table shows, and the results version it moves on.

The writes call :func:`results_change` inside their transaction; receivers of
:data:`results_changed` do their part: mark a season's league table out of date and queue
its recomputation, drop cached public pages (on commit).

An event's *results version* is the latest of its own ``results_changed_at`` (what concerns
every table: seating, a stage closed, the event finished, its settings) and its tables'
``results_changed_at`` (a deal saved, confirmed or voided at that table). A change at one
table is written on that table's row, which the save has locked already: a save never
waits on, or deadlocks with, another table's save or a director's redraw holding the event
(the house lock order is event → stage → tables; a save holds only its table). The version
is the public pages' Last-Modified, what a cached copy is checked against, and what tells a
print job or a stored league table that it is out of date.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db.models import DateTimeField, F, Max, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce, Greatest
from django.dispatch import Signal
from django.utils import timezone

from tournaments.models import Event, Table

# Sent with event_id (int), table_id (int | None: the change concerns one table), reason
# (one of REASONS) and table (Table | None): that table as the caller holds it locked, with
# its stage, event and club, so a receiver reads what it needs from it and not the database
# (a save and a confirmation at 250 tables are most of a night's writes).
results_changed = Signal()
# Sent with event_ids (list[int]) and reason, by a change that reaches many events at once
# (players merged): the receivers do for all of them together what they do for one, in a
# fixed number of queries however many events it is.
results_changed_many = Signal()

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
        "season",
        "privacy",
        # Past results brought in from a spreadsheet (tournaments.history).
        "imported",
        "players_merged",
    }
)


def results_change(
    *,
    event_id: int,
    reason: str,
    table_id: int | None = None,
    seasons: Sequence[int] = (),
    table: Table | None = None,
    **table_fields: Any,
) -> None:
    """Record that `event_id`'s results changed now (at table `table_id` only, when given:
    the caller holds that table's lock), and tell the receivers.

    `table_fields` are written to the table's row in the same UPDATE: on PostgreSQL a
    second update of a row in one transaction checks its foreign keys again (the stage's
    row then needs a share lock, which a redraw holding the stage would make a deadlock of),
    so a save writes its table's row once. `seasons`: the seasons whose league tables the
    change reaches besides the event's own (one it just left). `table`: table `table_id` as
    the caller read it under its lock (its stage, event and club loaded), for the receivers.
    """
    if reason not in REASONS:
        raise ValueError(f"not a reason for a results change: {reason!r}")
    if table_id is not None:
        Table.everything.filter(pk=table_id).update(
            results_changed_at=timezone.now(), **table_fields
        )
    else:
        Event.objects.filter(pk=event_id).update(results_changed_at=timezone.now())
    held = table if table is not None and table.pk == table_id else None
    results_changed.send(
        sender=Event,
        event_id=event_id,
        table_id=table_id,
        reason=reason,
        seasons=seasons,
        table=held,
    )


def results_change_many(*, event_ids: Sequence[int], reason: str) -> None:
    """Record that the results of every event of `event_ids` changed now, in one UPDATE,
    and tell the receivers of :data:`results_changed_many` once."""
    if reason not in REASONS:
        raise ValueError(f"not a reason for a results change: {reason!r}")
    ids = sorted(set(event_ids))
    if not ids:
        return
    Event.objects.filter(pk__in=ids).update(results_changed_at=timezone.now())
    results_changed_many.send(sender=Event, event_ids=ids, reason=reason)


def with_results_version(events: QuerySet[Event]) -> QuerySet[Event]:
    """`events` annotated with `results_version`: the latest change recorded on the event or
    on any of its tables (its creation before any), in one query."""
    latest_table = (
        Table.objects.filter(stage__event=OuterRef("pk"))
        .order_by()
        .values("stage__event")
        .annotate(latest=Max("results_changed_at"))
        .values("latest")
    )
    own = F("results_changed_at")
    tables = Subquery(latest_table, output_field=DateTimeField())
    # The later of the two that are set (SQLite's MAX() of a NULL is NULL, PostgreSQL's
    # GREATEST skips it: the Coalesces make both read the same); the creation if neither.
    return events.annotate(
        results_version=Coalesce(
            Greatest(Coalesce(own, tables), Coalesce(tables, own)), "created_at"
        )
    )


def event_results_version(event: Event) -> datetime.datetime:
    """The event's results version: annotated on it already (:func:`with_results_version`),
    else asked of the database."""
    known = getattr(event, "results_version", None)
    if known is not None:
        return known  # type: ignore[no-any-return]
    version = (
        with_results_version(Event.objects.filter(pk=event.pk))
        .values_list("results_version", flat=True)  # type: ignore[misc]  # annotated above
        .first()
    )
    return version or event.results_changed_at or event.created_at
