"""The manage page's mail panel (its slot templates/tournaments/notices/_manage.html): the
counts of the event's mails and the failed ones with *Send again*, for directors only."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser, User

from tournaments.models import Event, Role
from tournaments.notices import failed_notices, notice_counts
from tournaments.permissions import club_allows

register = template.Library()


@register.inclusion_tag("tournaments/notices/_panel.html")
def notice_panel(event: Event, user: User | AnonymousUser) -> dict[str, Any]:
    shown = bool(getattr(user, "is_superuser", False)) or club_allows(
        club=event.club, user=user, role=Role.DIRECTOR
    )
    if not shown:
        return {"shown": False}
    counts = notice_counts(event=event)
    counts["total"] = sum(counts.values())
    return {"shown": True, "event": event, "counts": counts, "failed": failed_notices(event=event)}
