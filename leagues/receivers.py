"""What a results change does to a season's league table: marked out of date, recomputed on
commit. So does an event of the season edited or deleted (its name and date are in the table)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from leagues.selectors import COUNTED_STATUSES
from leagues.services import league_mark_stale, league_mark_stale_many
from leagues.tasks import league_recompute_queue
from tournaments.changes import results_changed, results_changed_many
from tournaments.models import Event, Table
from tournaments.visibility import is_public, public_events_q

# A change the table hears of even from a private event: it became countable or stopped.
ALWAYS = frozenset({"event_finished", "publication"})
# What decides whether an event's change reaches its season's table.
FIELDS = ("season_id", "status", "published_at")


def _fields(event: Event) -> dict[str, Any]:
    return {name: getattr(event, name) for name in FIELDS}


@receiver(results_changed, dispatch_uid="leagues.receivers.season_stale")
def season_stale(
    sender: Any,
    *,
    event_id: int,
    reason: str,
    seasons: Sequence[int] = (),
    table: Table | None = None,
    **kwargs: Any,
) -> None:
    """Only an event of a season that is in play or finished feeds its table (a published
    one, or one just published or taken back private): an event of no season, a private
    one, or one still taking registrations changes no table and costs no write. An event
    moved between seasons (`seasons`) changes both tables."""
    for season_id in seasons:
        _mark(season_id)
    if seasons:
        return
    event = (
        _fields(table.stage.event)
        if table is not None
        else Event.objects.filter(pk=event_id).values(*FIELDS).first()
    )
    if event is None or event["season_id"] is None or event["status"] not in COUNTED_STATUSES:
        return
    if event["published_at"] is None and reason not in ALWAYS:
        return
    _mark(event["season_id"])


@receiver(results_changed_many, dispatch_uid="leagues.receivers.seasons_stale")
def seasons_stale(sender: Any, *, event_ids: Sequence[int], **kwargs: Any) -> None:
    """Many events changed at once: each season one of them feeds (published, in play or
    finished) is marked out of date, in two queries however many events there are."""
    season_ids = sorted(
        set(
            Event.objects.filter(
                public_events_q(),
                pk__in=event_ids,
                season__isnull=False,
                status__in=COUNTED_STATUSES,
            ).values_list("season_id", flat=True)
        )
    )
    if not season_ids:
        return
    league_mark_stale_many(season_ids=season_ids)
    for season_id in season_ids:
        league_recompute_queue(season_id=season_id)


def _counted(event: Event) -> bool:
    return event.season_id is not None and event.status in COUNTED_STATUSES and is_public(event)


@receiver(post_save, sender=Event, dispatch_uid="leagues.receivers.event_saved")
def event_saved(sender: Any, instance: Event, created: bool, **kwargs: Any) -> None:
    """An event edited (renamed, given another date or settings) shows so in its season's
    table: the table stores each event's name and date with its rows."""
    if not created and instance.season_id is not None and _counted(instance):
        _mark(instance.season_id)


@receiver(post_delete, sender=Event, dispatch_uid="leagues.receivers.event_deleted")
def event_deleted(sender: Any, instance: Event, **kwargs: Any) -> None:
    """A deleted event leaves its season's table."""
    if instance.season_id is not None:
        _mark(instance.season_id)


def _mark(season_id: int) -> None:
    league_mark_stale(season_id=season_id)
    league_recompute_queue(season_id=season_id)
