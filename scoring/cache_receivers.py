"""What a results change does to the public pages' caches.

Every write that changes results calls tournaments.changes.results_change in its
transaction; the event then gets a fresh stamp (scoring.public_cache), so every ETag and
cached part of its public pages is out of date in every web process at once. A change at
one table (its deals) renews that table's token, any other change the event's wide token:
the table pages' polls follow those. A change to the event's or club's own row (a name,
the club's public settings) counts as one for every table; a seat taken or let go, or a
table's link replaced, renews that table's token. Each key is dropped at once and stored
afresh on commit (a page read meanwhile still sees the old results).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from core.conditional import cache_delete_many
from scoring.models import SeatClaim
from scoring.public_cache import (
    change_pending,
    coalesced,
    seat_key,
    stamp_key,
    stamps_store,
    table_version_renew,
    wide_key,
    wide_versions_renew,
)
from tournaments.changes import results_changed, results_changed_many
from tournaments.models import Club, Event, Table


def _event_changed(event_id: int, *, every_table: bool = True) -> None:
    # Dropped at once, so this transaction's own reads (and a test's, whose transaction
    # never commits) see the change; stored afresh on commit for everyone else. A page read
    # in between by another process stores the old version under a new nonce: it is
    # replaced on commit.
    cache_delete_many([stamp_key(event_id), *([wide_key(event_id)] if every_table else [])])
    transaction.on_commit(partial(stamps_store, event_ids=[event_id]))
    if every_table:
        transaction.on_commit(partial(wide_versions_renew, event_ids=[event_id]))


@receiver(results_changed, dispatch_uid="scoring.cache_receivers.results_changed")
def _results_changed(sender: Any, *, event_id: int, table_id: int | None, **kwargs: Any) -> None:
    # A change at one table (its deals) is that table's; any other concerns every table.
    if table_id is None:
        _event_changed(event_id)
        return
    _table_changed(table_id)
    if coalesced():
        # 250 tables change results about every second: the event's public version follows
        # them at most every few seconds (scoring.public_cache.coalesced). Marked at once (a
        # test's transaction never commits) and again on commit, in case a request renewed
        # the version from the database in between, before the change was there to read.
        change_pending(event_id)
        transaction.on_commit(partial(change_pending, event_id))
    else:
        _event_changed(event_id, every_table=False)


@receiver(results_changed_many, dispatch_uid="scoring.cache_receivers.results_changed_many")
def _results_changed_many(sender: Any, *, event_ids: Sequence[int], **kwargs: Any) -> None:
    # As `_event_changed` for each event, with one cache call and one task of each kind.
    ids = list(event_ids)
    cache_delete_many([key for pk in ids for key in (stamp_key(pk), wide_key(pk))])
    transaction.on_commit(partial(stamps_store, event_ids=ids))
    transaction.on_commit(partial(wide_versions_renew, event_ids=ids))


@receiver(post_save, sender=Event, dispatch_uid="scoring.cache_receivers.event_saved")
def _event_saved(sender: Any, instance: Event, **kwargs: Any) -> None:
    _event_changed(instance.pk)


@receiver(post_delete, sender=Event, dispatch_uid="scoring.cache_receivers.event_deleted")
def _event_deleted(sender: Any, instance: Event, **kwargs: Any) -> None:
    transaction.on_commit(
        partial(cache_delete_many, [stamp_key(instance.pk), wide_key(instance.pk)])
    )


@receiver(post_save, sender=Club, dispatch_uid="scoring.cache_receivers.club_saved")
def _club_saved(sender: Any, instance: Club, created: bool, **kwargs: Any) -> None:
    if not created:
        events = list(instance.events.values_list("pk", flat=True))
        cache_delete_many([key for pk in events for key in (stamp_key(pk), wide_key(pk))])
        transaction.on_commit(partial(stamps_store, club_id=instance.pk))
        transaction.on_commit(partial(wide_versions_renew, event_ids=events))


@receiver(post_save, sender=SeatClaim, dispatch_uid="scoring.cache_receivers.seat_claimed")
@receiver(post_delete, sender=SeatClaim, dispatch_uid="scoring.cache_receivers.seat_released")
def _seat_changed(sender: Any, instance: SeatClaim, **kwargs: Any) -> None:
    _table_changed(instance.table_id)


def _table_changed(table_id: int) -> None:
    cache_delete_many([seat_key(table_id)])
    transaction.on_commit(partial(table_version_renew, table_id))


@receiver(post_save, sender=Table, dispatch_uid="scoring.cache_receivers.table_saved")
def _table_saved(sender: Any, instance: Table, created: bool, **kwargs: Any) -> None:
    if not created:
        _table_changed(instance.pk)


@receiver(post_delete, sender=Table, dispatch_uid="scoring.cache_receivers.table_deleted")
def _table_deleted(sender: Any, instance: Table, **kwargs: Any) -> None:
    transaction.on_commit(partial(cache_delete_many, [seat_key(instance.pk)]))
