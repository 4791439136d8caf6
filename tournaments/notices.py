"""Mail to players about an event (registration, their table, the results): each one a
Notice row made inside the action's own transaction, so it exists exactly when the action
committed; sending happens later, in the background, and never fails the action.

The notices an action makes are sent by one job queued when it commits (a 250-player
draw queues one job, not 250). When the job queue is down the notices stay QUEUED and the
sweep (`notices_sweep_task`, on Celery beat) sends them later.

The tasks live here, beside what queues them (tournaments.tasks imports the services,
which queue these: one module keeps that from going round in a circle)."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Sequence
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Count, Q
from django.utils import timezone

from core.models import TaskRun
from core.tasks import QueueUnavailable, TrackedTask, enqueue_on_commit
from tournaments.models import (
    Club,
    Event,
    MailOptOut,
    Notice,
    NoticeKind,
    NoticeStatus,
    Player,
    Registration,
    Seat,
    Stage,
    StageStatus,
)
from tournaments.notice_mail import notices_send

log = logging.getLogger(__name__)

# Retried after 1, 2, 4, 8, 16 minutes (capped at an hour): a mail server that is down for
# a moment loses nothing; one down for half an hour leaves the mails FAILED, on the
# director's page, to be sent again.
MAX_RETRIES = 5
FIRST_RETRY = 60
# A notice still waiting this long after it was made missed its job (the queue was down
# when the action committed): the sweep sends it.
SWEEP_AFTER = datetime.timedelta(minutes=10)
SWEEP_BATCH = 500


class MailNotSent(Exception):
    """Some of a batch's mails failed; the job is retried with those alone."""


@shared_task(base=TrackedTask, bind=True, name="tournaments.notices_send", max_retries=MAX_RETRIES)
def notices_send_task(self: TrackedTask, notice_ids: list[int]) -> int:
    """Takes the notices' ids (never an address): safe to run twice, a sent one is not
    sent again. Returns how many failed for good."""
    last_try = self.request.retries >= MAX_RETRIES
    failed = notices_send(notice_ids=notice_ids, last_try=last_try)
    if failed and not last_try:
        countdown = min(FIRST_RETRY * 2**self.request.retries, 3600)
        raise self.retry(
            args=[failed], countdown=countdown, exc=MailNotSent(f"{len(failed)} not sent")
        )
    return len(failed)


def notices_waiting(*, now: datetime.datetime | None = None) -> list[int]:
    """The notices left waiting past SWEEP_AFTER, oldest first, at most SWEEP_BATCH."""
    before = (now or timezone.now()) - SWEEP_AFTER
    # Tried already: its own job is retrying it (two jobs at once could mail it twice).
    waiting = Notice.objects.filter(status=NoticeStatus.QUEUED, attempts=0, created_at__lt=before)
    return list(waiting.order_by("pk").values_list("pk", flat=True)[:SWEEP_BATCH])


# A draw's table mails that could not be queued are queued again within this long; later
# the players are at their tables already and the mail would only confuse.
TABLES_SWEEP_WITHIN = datetime.timedelta(hours=3)


def table_jobs_requeue(*, now: datetime.datetime | None = None) -> int:
    """Queue again the table-mail jobs the queue was down for (their records say
    NOT_QUEUED), with their own ids: how many went."""
    now = now or timezone.now()
    runs = TaskRun.objects.filter(
        name=table_notices_task.name,
        state=TaskRun.State.NOT_QUEUED,
        queued_at__gte=now - TABLES_SWEEP_WITHIN,
    )
    count = 0
    for run in runs:
        # Its record first: the job (at once, when eager) writes its own state over it.
        TaskRun.objects.filter(pk=run.pk).update(
            state=TaskRun.State.QUEUED, finished_at=None, detail="", lost_after=now + SWEEP_AFTER
        )
        try:
            table_notices_task.apply_async(args=run.args, task_id=run.task_id)
        except Exception:
            TaskRun.objects.filter(pk=run.pk).update(state=TaskRun.State.NOT_QUEUED)
            raise
        count += 1
    return count


@shared_task(name="tournaments.notices_sweep")
def notices_sweep_task() -> int:
    """Celery beat's: send what no job took (run every few minutes; safe to run twice)."""
    ids = notices_waiting()
    if ids:
        notices_send_task.delay(ids)
    return len(ids) + table_jobs_requeue()


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
    """Record a mail of `kind` (a NoticeKind) to `email`, else the registration's address
    (else its player's account's), in `language`, else the registration's (else the
    account's, else the club's); sent once the action commits. No address, or an address that
    unsubscribed from this kind at this club: recorded as not sent, never mailed."""
    if event is None:
        assert registration is not None, "a notice is about an event or a registration"
        event = registration.event
    address, person_language = email, language
    if registration is not None and not (address and language):
        # The registration's own address and language, else the member account's.
        found_address, found_language = recipient(
            registration=registration, player=registration.player, club=event.club
        )
        address, person_language = address or found_address, language or found_language
    opted_out = bool(address) and (
        MailOptOut.objects.filter(club_id=event.club_id, email__iexact=address, kind=kind).exists()
    )
    notice = Notice.objects.create(
        event=event,
        registration=registration,
        kind=kind,
        email=address,
        language=person_language,
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


def table_notices_request(*, stage: Stage) -> None:
    """Have "You are at table 7" mailed to the stage's players, when the club mails tables:
    one job, queued when the confirmation commits, makes the notices and has them sent, so
    the confirmation itself does no more than before (the job's record is made with it: a
    queue that is down leaves it NOT_QUEUED, and the sweep queues it again)."""
    # Asked of the database, not through stage.event.club: the caller's objects stay as
    # they were (the club not loaded onto them behind its back).
    if Club.objects.filter(events__stages=stage.pk, mail_tables=True).exists():
        enqueue_on_commit(table_notices_task, stage.pk)


@shared_task(
    base=TrackedTask,
    bind=True,
    name="tournaments.table_notices",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def table_notices_task(self: TrackedTask, stage_id: int) -> int:
    """Takes the stage's id; safe to run twice (a stage's table mails are made once)."""
    return len(table_notices_queue(stage_id=stage_id))


def table_notices_queue(*, stage_id: int) -> list[Notice]:
    """ "You are at table 7": one notice per player seated in the stage, with the table's
    number and link, made once per stage (the stage's row locked while they are) and sent
    by one job. None for a stage gone, not confirmed, or of a club that stopped mailing
    tables since. A few queries however many players."""
    with transaction.atomic():
        stage = (
            Stage.objects.select_for_update(of=("self",))
            .select_related("event__club")
            .filter(pk=stage_id)
            .first()
        )
        if (
            stage is None
            or stage.status != StageStatus.CONFIRMED
            or not stage.event.club.mail_tables
            or Notice.objects.filter(
                event_id=stage.event_id, kind=NoticeKind.TABLE, context__stage_id=stage.pk
            ).exists()
        ):
            return []
        event, club = stage.event, stage.event.club
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
                "stage_id": stage.pk,
                "table": seat.table.number,
                "table_path": seat.table.get_entry_url(),
            }
            rows.append(
                Notice(registration=registration, email=email, language=language, context=context)
            )
        return notices_queue_many(event=event, kind=NoticeKind.TABLE, rows=rows)


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
    return notices_queue_many(event=event, kind=NoticeKind.RESULTS, rows=rows)


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
