"""Mail to players about an event (registration, their table, the results): each one a
Notice row made inside the action's own transaction, so it exists exactly when the action
committed; sending happens later, in the background, and never fails the action.

The notices an action makes are sent by one job queued when it commits (a 250-player
draw queues one job, not 250). When the job queue is down the notices stay QUEUED and the
sweep (tournaments.notice_tasks.notices_sweep_task, on Celery beat) sends them later."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Count, Q

from core.tasks import QueueUnavailable, enqueue_on_commit
from tournaments.models import (
    Club,
    Event,
    MailOptOut,
    Notice,
    NoticeStatus,
    Player,
    Registration,
    Seat,
    Stage,
)
from tournaments.notice_tasks import notices_send_task

log = logging.getLogger(__name__)

# The ids made in this thread's transaction and not yet handed to a job (one list per
# database connection, so per thread, as the transaction is).
_PENDING = "_lappu_notices_pending"


def notice_queue(
    *,
    kind: str,
    registration: Registration | None = None,
    event: Event | None = None,
    email: str = "",
    language: str = "",
    context: dict[str, Any] | None = None,
) -> Notice:
    """Record a mail of `kind` (a NoticeKind) to the registration's address (or `email`) in
    its language, sent once the action commits. No address, or an address that
    unsubscribed from this kind at this club: recorded as not sent, never mailed."""
    if event is None:
        assert registration is not None, "a notice is about an event or a registration"
        event = registration.event
    address = email or (registration.email if registration else "")
    opted_out = bool(address) and (
        MailOptOut.objects.filter(club_id=event.club_id, email__iexact=address, kind=kind).exists()
    )
    notice = Notice.objects.create(
        event=event,
        registration=registration,
        kind=kind,
        email=address,
        language=language or (registration.language if registration else "") or "",
        context=context or {},
        status=NoticeStatus.SKIPPED if not address or opted_out else NoticeStatus.QUEUED,
    )
    if notice.status == NoticeStatus.QUEUED:
        notices_dispatch(notice_ids=[notice.pk])
    return notice


def notices_queue_many(*, event: Event, kind: str, rows: Sequence[Notice]) -> list[Notice]:
    """Record many mails of one `kind` about `event` at once (`rows`: unsaved Notices with
    their registration, address, language and context): the unsubscribed found in one
    query, all saved in one, sent by one job."""
    addresses = {row.email.lower() for row in rows if row.email}
    opted_out = {
        email.lower()
        for email in MailOptOut.objects.filter(
            club_id=event.club_id, kind=kind, email__in=addresses
        ).values_list("email", flat=True)
    }
    for row in rows:
        row.event = event
        row.kind = kind
        skipped = not row.email or row.email.lower() in opted_out
        row.status = NoticeStatus.SKIPPED if skipped else NoticeStatus.QUEUED
    notices = Notice.objects.bulk_create(rows)
    notices_dispatch(notice_ids=[n.pk for n in notices if n.status == NoticeStatus.QUEUED])
    return notices


def notices_dispatch(*, notice_ids: Iterable[int]) -> None:
    """Have the notices sent by one job queued when the current transaction commits,
    together with the others the same transaction made."""
    pending: list[int] = transaction.get_connection().__dict__.setdefault(_PENDING, [])
    before = len(pending)
    pending.extend(notice_ids)
    if len(pending) > before:
        # Every call asks; the first to run takes them all, the others find none.
        transaction.on_commit(_send_pending)


def _send_pending() -> None:
    pending: list[int] = transaction.get_connection().__dict__.pop(_PENDING, [])
    if not pending:
        return
    try:
        enqueue_on_commit(notices_send_task, sorted(set(pending)))
    except QueueUnavailable:
        # The action has committed and must stand: the sweep sends them later.
        log.warning("mail queue down: %d notices left for the sweep", len(pending))


def recipient(*, registration: Registration | None, player: Player, club: Club) -> tuple[str, str]:
    """Where and in which language to mail a player about an event: the registration's
    address, else their account's; its language, else the account's, else the club's.
    (`player.user.profile` loaded with the player: no query here.)"""
    user = player.user
    email = (registration.email if registration else "") or (user.email if user else "")
    profile = getattr(user, "profile", None) if user else None
    language = (
        (registration.language if registration else "")
        or (profile.language if profile else "")
        or club.language
    )
    return email, language


def _registrations(event: Event, player_ids: Iterable[int]) -> dict[int, Registration]:
    rows = Registration.objects.filter(event=event, player_id__in=list(player_ids))
    return {row.player_id: row for row in rows}


def table_notices_queue(*, stage: Stage) -> list[Notice]:
    """ "You are at table 7": one notice per player seated in the stage just confirmed,
    with the table's number and link, when the club mails tables (none otherwise). A few
    queries however many players."""
    event = stage.event
    club = event.club
    if not club.mail_tables:
        return []
    seats = list(
        Seat.objects.filter(table__stage=stage)
        .select_related("table", "player__user__profile")
        .order_by("table__number", "position")
    )
    registrations = _registrations(event, (seat.player_id for seat in seats))
    rows = []
    for seat in seats:
        registration = registrations.get(seat.player_id)
        email, language = recipient(registration=registration, player=seat.player, club=club)
        context = {
            "table": seat.table.number,
            "table_path": seat.table.get_entry_url(),
            "stage": stage.number,
            "player_name": seat.player.name,
        }
        rows.append(
            Notice(registration=registration, email=email, language=language, context=context)
        )
    return notices_queue_many(event=event, kind="table", rows=rows)


def results_notices_queue(*, event: Event, places: Sequence[tuple[int, int, str]]) -> list[Notice]:
    """ "The results are published": one notice per ranked player (`places`: player id,
    place, place as shown, from the event's one standings object), once per event."""
    if Notice.objects.filter(event=event, kind="results").exists():
        return []
    players = Player.objects.select_related("user__profile").in_bulk(
        [player_id for player_id, _place, _label in places]
    )
    registrations = _registrations(event, players)
    rows = []
    for player_id, place, label in places:
        player = players.get(player_id)
        if player is None:
            continue
        registration = registrations.get(player_id)
        email, language = recipient(registration=registration, player=player, club=event.club)
        context = {"place": place, "place_label": label, "players": len(places)}
        rows.append(
            Notice(registration=registration, email=email, language=language, context=context)
        )
    return notices_queue_many(event=event, kind="results", rows=rows)


def notice_resend(*, notice: Notice) -> Notice:
    """Send a failed mail again (the director's *Send again*): it waits again, its tries
    counted from nought. A notice that is not FAILED is left as it is."""
    updated = Notice.objects.filter(pk=notice.pk, status=NoticeStatus.FAILED).update(
        status=NoticeStatus.QUEUED, attempts=0, error=""
    )
    if updated:
        notices_dispatch(notice_ids=[notice.pk])
    notice.refresh_from_db()
    return notice


def notice_counts(*, event: Event) -> dict[str, int]:
    """How many of the event's mails were sent, wait, failed, were not sent: one query."""
    counts = Notice.objects.filter(event=event).aggregate(
        **{status.value: Count("pk", filter=Q(status=status.value)) for status in NoticeStatus}
    )
    return {key: value or 0 for key, value in counts.items()}


def failed_notices(*, event: Event, limit: int = 50) -> list[Notice]:
    """The event's mails that failed for good, newest first (for *Send again*)."""
    failed = Notice.objects.filter(event=event, status=NoticeStatus.FAILED)
    return list(failed.select_related("registration__player").order_by("-created_at", "pk")[:limit])


def mail_opt_out_record(*, club_id: int, email: str, kind: str) -> MailOptOut:
    """Stop mail of `kind` from the club to `email` (its unsubscribe link); asking twice
    changes nothing. Mails of that kind still waiting to be sent are not sent."""
    opt_out, _created = MailOptOut.objects.get_or_create(
        club_id=club_id, email=email.lower(), kind=kind
    )
    Notice.objects.filter(
        event__club_id=club_id, email__iexact=email, kind=kind, status=NoticeStatus.QUEUED
    ).update(status=NoticeStatus.SKIPPED)
    return opt_out
