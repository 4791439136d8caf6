"""Standings' receivers: "The results are published" mails, each with the player's place
read from the event's one standings object (the page's), made once the event is both
finished and published, whichever came last. tournaments announces both (its
results_changed signal) and cannot read standings itself: this app sits above it."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from standings.standings import event_standings
from tournaments.changes import results_changed
from tournaments.models import Event, EventStatus, Notice, NoticeKind
from tournaments.notices import results_notices_queue
from tournaments.visibility import is_public

REASONS = frozenset({"event_finished", "publication"})


@receiver(results_changed, dispatch_uid="standings.receivers.results_published_mail")
def results_published_mail(sender: Any, event_id: int, reason: str, **kwargs: Any) -> None:
    if reason in REASONS:
        # After the commit: the standings are read from what the action saved, and reading
        # them never slows the director's finish or publish (robust: a failure here is
        # logged, the action stands).
        transaction.on_commit(lambda: results_mail_queue(event_id=event_id), robust=True)


def results_mail_queue(*, event_id: int) -> list[Notice]:
    """Queue each ranked player's results mail, once per event (the event's row locked,
    so two publications at once make one set)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().filter(pk=event_id).first()
        if (
            event is None
            or event.status != EventStatus.FINISHED
            or not is_public(event)
            or event.spec.imported
            or Notice.objects.filter(event=event, kind=NoticeKind.RESULTS).exists()
        ):
            return []
        event = Event.objects.select_related("club").get(pk=event_id)
        standings = event_standings(event=event)
        places = [(row.player_id, row.place, row.place_label) for row in standings.rows]
        return results_notices_queue(event=event, places=places)
