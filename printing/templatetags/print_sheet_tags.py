"""Whether the person reading a page may download its tables' printed sheets."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Club, Role
from tournaments.permissions import club_allows

register = template.Library()


@register.simple_tag(takes_context=True)
def prints_sheets(context: dict[str, Any], club: Club) -> bool:
    """`{% prints_sheets club as may_print %}`: the reader directs `club` (the sheets'
    downloads are a director's)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return user is not None and club_allows(club=club, user=user, role=Role.DIRECTOR)
