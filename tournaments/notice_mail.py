"""Sending the players' mail (tournaments.notices records it): each Notice rendered in its
own language from templates/tournaments/notices/<kind>_subject.txt and _message.txt, with
its kind's own unsubscribe link, over one connection to the mail server per batch.

A batch is read in one query and written back in a few (sent, and failed per error), so a
250-player draw's mails cost the database as much as one player's."""

from __future__ import annotations

import datetime
import io
import logging
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import segno
from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage, get_connection
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.services import site_link
from tournaments.models import (
    BEFORE_PLACE,
    PLACE_HOLDING,
    Notice,
    NoticeKind,
    NoticeStatus,
    RegistrationStatus,
)
from tournaments.registration_links import (
    CANCEL,
    registration_link,
    registration_qr_png,
    registration_qr_url,
)

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "tournaments.notices.unsubscribe"
# The mails about a registration's own steps: they carry its door code and cancel link.
REGISTRATION_KINDS = frozenset(
    {NoticeKind.RECEIVED, NoticeKind.APPROVED, NoticeKind.PROMOTED, NoticeKind.WAITLISTED}
)


def unsubscribe_token(*, club_id: int, email: str, kind: str) -> str:
    """The signed part of an unsubscribe link: which club, address and kind it stops. It
    never expires (an old mail's link must still work) and names nothing else."""
    return signing.dumps({"c": club_id, "e": email.lower(), "k": kind}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_read(token: str) -> tuple[int, str, str] | None:
    """(club id, address, kind) of a link made by `unsubscribe_token`; None when forged,
    garbled or naming no kind of mail."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    club_id, email, kind = data.get("c"), data.get("e"), data.get("k")
    if not isinstance(club_id, int) or not isinstance(email, str) or kind not in NoticeKind:
        return None
    return club_id, email, str(kind)


def unsubscribe_link(notice: Notice) -> str:
    token = unsubscribe_token(club_id=notice.event.club_id, email=notice.email, kind=notice.kind)
    return site_link(reverse("notice_unsubscribe", args=[token]))


def notice_message(notice: Notice) -> EmailMessage:
    """The mail of `notice`, rendered in its language (the club's when it has none)."""
    event = notice.event
    unsubscribe = unsubscribe_link(notice)
    context: dict[str, Any] = {
        "notice": notice,
        "event": event,
        "club": event.club,
        "registration": notice.registration,
        "player": notice.registration.player.name if notice.registration else "",
        "event_link": site_link(event.get_absolute_url()),
        "unsubscribe_link": unsubscribe,
        "site_url": settings.SITE_URL,
        **notice.context,
    }
    table_link = site_link(notice.context["table_path"]) if "table_path" in notice.context else ""
    context["table_link"] = table_link
    context.update(_registration_links(notice))
    prefix = f"tournaments/notices/{notice.kind}"
    with translation.override(notice.language or event.club.language):
        subject = " ".join(render_to_string(f"{prefix}_subject.txt", context).split())
        body = render_to_string(f"{prefix}_message.txt", context).strip() + "\n"
    message = EmailMessage(
        subject,
        body,
        to=[notice.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            # RFC 8058: the mail client may unsubscribe with one POST, no page shown.
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    if table_link:
        name = f"table-{notice.context.get('table', '')}.png"
        message.attach(name, table_qr_png(table_link), "image/png")
    if context.get("door_link") and notice.registration is not None:
        # The personal code itself, so the door can scan the mail as it is, offline too.
        message.attach("door-code.png", registration_qr_png(notice.registration), "image/png")
    return message


def _registration_links(notice: Notice) -> dict[str, str]:
    """A registration mail's own links, as the registration stands when the mail goes: the
    personal code for the door while it holds a place, and the cancel link while it may
    still be cancelled (the cancel page itself says when that has passed)."""
    registration = notice.registration
    if registration is None or notice.kind not in REGISTRATION_KINDS:
        return {}
    links = {}
    if registration.status in PLACE_HOLDING:
        links["door_link"] = registration_qr_url(registration)
    if registration.status in (RegistrationStatus.REGISTERED, *BEFORE_PLACE):
        links["cancel_link"] = registration_link(registration=registration, salt=CANCEL)
    return links


def table_qr_png(link: str) -> bytes:
    """The table's link as a PNG QR code: mail clients drop SVG images."""
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="png", scale=6, border=2)
    return buffer.getvalue()


def notices_send(*, notice_ids: Sequence[int], last_try: bool) -> list[int]:
    """Send the notices of `notice_ids` still waiting (a sent, skipped or failed one is
    never sent again: a batch run twice mails nobody twice). Returns the ids that failed
    this time; on the `last_try` they are marked FAILED, else they stay QUEUED for the
    retry. Every try counts in the notice's `attempts`, its last error kept."""
    notices = list(
        Notice.objects.select_related("event__club", "registration__player")
        .filter(pk__in=list(notice_ids), status=NoticeStatus.QUEUED)
        .order_by("pk")
    )
    if not notices:
        return []
    sent: list[int] = []
    failed: dict[str, list[int]] = defaultdict(list)
    try:
        connection = get_connection()
        try:
            connection.open()
        except Exception as error:  # the server is down: every mail of the batch fails so
            failed[_error_text(error)] = [notice.pk for notice in notices]
            return failed[_error_text(error)]
        try:
            for notice in notices:
                try:
                    connection.send_messages([notice_message(notice)])
                except Exception as error:
                    log.warning("mail %s to %s failed: %r", notice.pk, notice.email, error)
                    failed[_error_text(error)].append(notice.pk)
                else:
                    sent.append(notice.pk)
        finally:
            connection.close()
    finally:
        # Written even when the batch stops halfway: what went out is never sent again.
        _record(sent, failed, last_try=last_try, now=timezone.now())
    return [pk for ids in failed.values() for pk in ids]


def _error_text(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:300]


def _record(
    sent: list[int], failed: dict[str, list[int]], *, last_try: bool, now: datetime.datetime
) -> None:
    if sent:
        Notice.objects.filter(pk__in=sent).update(
            status=NoticeStatus.SENT, sent_at=now, attempts=F("attempts") + 1, error=""
        )
    status = NoticeStatus.FAILED if last_try else NoticeStatus.QUEUED
    for error, ids in failed.items():
        Notice.objects.filter(pk__in=ids).update(
            status=status, attempts=F("attempts") + 1, error=error
        )
