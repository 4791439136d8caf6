"""Mail to players about an event (registration, their table, the results): each one a
Notice row made inside the action's own transaction, so it exists exactly when the action
committed; sending happens later, in the background, and never fails the action."""

from __future__ import annotations

from typing import Any

from tournaments.models import Event, MailOptOut, Notice, NoticeStatus, Registration


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
    its language. No address, or an address that unsubscribed from this kind at this club:
    recorded as not sent, never mailed."""
    if event is None:
        assert registration is not None, "a notice is about an event or a registration"
        event = registration.event
    address = email or (registration.email if registration else "")
    opted_out = bool(address) and (
        MailOptOut.objects.filter(club_id=event.club_id, email__iexact=address, kind=kind).exists()
    )
    return Notice.objects.create(
        event=event,
        registration=registration,
        kind=kind,
        email=address,
        language=language or (registration.language if registration else "") or "",
        context=context or {},
        status=NoticeStatus.SKIPPED if not address or opted_out else NoticeStatus.QUEUED,
    )
