"""What a results change does to the ratings: a replay queued on commit, from the first
game it can touch.

* past results imported: each game's imported events, from the earliest of them;
* a stage closed, a night (or a series, a head-to-head event) finished, a round drawn that
  closed the one before, the event's settings changed: from the event's first game (its games already rated are replayed; a new stage after every game
  rated is the incremental path);
* a deal saved, confirmed or voided at a table of a closed stage (a correction): from that
  table on; at a table still in play, nothing (it is rated when its stage closes);
* players merged, or a merge undone: from the earliest of the events it reached;
* an event's date changed, or an event with rated games deleted: from where it was (or
  from nothing).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import receiver

from ratings.games import RATED_GAMES, GameKey
from ratings.models import RatingStep
from ratings.services import ratings_ask_many
from ratings.tasks import ratings_update_queue
from tournaments.changes import results_changed, results_changed_many
from tournaments.event_formats import format_ids
from tournaments.models import Event, Stage, StageStatus, Table

# A change to the event as a whole that can add or change rated games.
EVENT_REASONS = frozenset(
    {"stage_closed", "event_finished", "seating_changed", "imported", "settings"}
)
# A change at one table: rated only when the table's stage is closed.
TABLE_REASONS = frozenset({"deal_saved", "deal_confirmed", "deal_voided"})


@receiver(results_changed, dispatch_uid="ratings.receivers.results_changed")
def event_results_changed(
    sender: Any,
    *,
    event_id: int,
    reason: str,
    table_id: int | None = None,
    table: Table | None = None,
    **kwargs: Any,
) -> None:
    if reason in TABLE_REASONS and table_id is not None:
        if table is not None and not _rated_now(table):
            return  # a table still in play, as nearly every save is: rated at its stage's close
        _table_changed(table_id)
    elif reason in EVENT_REASONS:
        _event_changed(event_id, reason)


def _rated_now(table: Table) -> bool:
    """Whether a change at `table` (its stage and event loaded) can touch rated games: the
    same test as `_table_changed`'s query, on the row the caller holds."""
    return (
        table.stage.status == StageStatus.FINISHED and table.stage.event.variant_id in RATED_GAMES
    )


def _table_changed(table_id: int) -> None:
    table = (
        Table.everything.filter(
            pk=table_id,
            stage__status=StageStatus.FINISHED,
            stage__event__variant_id__in=RATED_GAMES,
        )
        .values(
            "number",
            "playoff_of__number",
            "stage__number",
            "stage__event_id",
            "stage__event__date",
            "stage__event__club_id",
            "stage__event__variant_id",
        )
        .first()
    )
    if table is None:
        return
    # A play-off's deal settles its parent table's tie: the parent's places change.
    number = table["playoff_of__number"] or table["number"]
    ratings_update_queue(
        club_id=table["stage__event__club_id"],
        game=table["stage__event__variant_id"],
        since=(
            table["stage__event__date"],
            table["stage__event_id"],
            table["stage__number"],
            number,
        ),
    )


def _event_changed(event_id: int, reason: str) -> None:
    event = (
        Event.objects.filter(pk=event_id, variant_id__in=RATED_GAMES)
        .values("club_id", "variant_id", "date", "format")
        .first()
    )
    if event is None:
        return
    if reason == "imported":
        _imported(event["club_id"])
        return
    if reason in ("seating_changed", "settings") and not (
        event["format"] in format_ids(imported=True)
        or Stage.objects.filter(event_id=event_id, status=StageStatus.FINISHED).exists()
    ):
        return  # nothing of the event is rated, nor was: a seating of a stage in play
    ratings_update_queue(
        club_id=event["club_id"], game=event["variant_id"], since=(event["date"], event_id, 0, 0)
    )


def _imported(club_id: int) -> None:
    """Past results imported: the import tells of one event per season, so each game's
    imported events are replayed from the earliest of them (one query; an import is rare,
    and its events are usually the club's oldest)."""
    earliest: dict[str, GameKey] = {}
    for event_id, game, day in Event.objects.filter(
        club_id=club_id, format__in=format_ids(imported=True), variant_id__in=RATED_GAMES
    ).values_list("pk", "variant_id", "date"):
        key: GameKey = (day, event_id, 0, 0)
        if game not in earliest or key < earliest[game]:
            earliest[game] = key
    for game, since in sorted(earliest.items()):
        ratings_update_queue(club_id=club_id, game=game, since=since)


@receiver(results_changed_many, dispatch_uid="ratings.receivers.results_changed_many")
def events_results_changed(sender: Any, *, event_ids: list[int], **kwargs: Any) -> None:
    """Players merged (or a merge undone): each club game the events are of, replayed from
    the earliest of them."""
    for (club_id, game), since in sorted(ratings_ask_many(event_ids=event_ids).items()):
        ratings_update_queue(club_id=club_id, game=game, since=since)


@receiver(post_save, sender=Event, dispatch_uid="ratings.receivers.event_saved")
def event_saved(sender: Any, instance: Event, created: bool, **kwargs: Any) -> None:
    """An event given another date moves its games in the order played."""
    if created or instance.variant_id not in RATED_GAMES:
        return
    rated_on = RatingStep.objects.filter(event=instance).values_list("played_on", flat=True).first()
    if rated_on is None or rated_on == instance.date:
        return
    day: datetime.date = min(rated_on, instance.date)
    ratings_update_queue(club_id=instance.club_id, game=instance.variant_id, since=(day, 0, 0, 0))


@receiver(pre_delete, sender=Event, dispatch_uid="ratings.receivers.event_deleting")
def event_deleting(sender: Any, instance: Event, **kwargs: Any) -> None:
    instance.__dict__["_rated"] = RatingStep.objects.filter(event=instance).exists()


@receiver(post_delete, sender=Event, dispatch_uid="ratings.receivers.event_deleted")
def event_deleted(sender: Any, instance: Event, **kwargs: Any) -> None:
    """A deleted event's games leave the history: everything is rated again (rare)."""
    if instance.__dict__.get("_rated"):
        ratings_update_queue(club_id=instance.club_id, game=instance.variant_id, since=None)
