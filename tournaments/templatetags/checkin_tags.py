"""The check-in's part of other pages: the manage page's count and link (its slot
templates/tournaments/checkin/_manage.html sees only that page's context), and the
person's own check-in codes on their account page."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser, User

from tournaments.checkin import checkin_count, my_checkin_codes, no_shows_allowed
from tournaments.models import Event

register = template.Library()


@register.inclusion_tag("tournaments/checkin/_summary.html")
def checkin_summary(event: Event) -> dict[str, Any]:
    return {
        "event": event,
        "count": checkin_count(event=event),
        "no_shows": no_shows_allowed(event=event),
    }


@register.inclusion_tag("tournaments/checkin/_my_codes.html")
def my_codes(user: User | AnonymousUser) -> dict[str, Any]:
    return {"codes": my_checkin_codes(user=user)}
