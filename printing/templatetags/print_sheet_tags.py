"""The printed sheets on a page: whether its reader may download them, each download's
links on both papers in the reader's language, and which tables' paper sheets came back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser
from django.utils.http import urlencode
from django.utils.translation import get_language

from printing.pdf import PAPER_NAMES, PAPERS
from printing.returns import SheetsReturned, sheets_returned
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


@register.filter
def paper_name(size: str | None) -> str:
    """`{{ job.params.paper|paper_name }}`: "A4", or "Letter" in the reader's words."""
    return str(PAPER_NAMES.get(size or "", size or ""))


@register.inclusion_tag("printing/_paper_links.html")
def paper_links(url: str, label: str) -> dict[str, Any]:
    """`{% paper_links url _("Score sheet (PDF)") %}` → "Score sheet (PDF): A4 Letter",
    one link a paper, each in the reader's language as the batch print job prints (a
    director reading English gets English sheets, whatever the club's language)."""
    language = get_language()
    links = [
        (PAPER_NAMES.get(size, size), f"{url}?{urlencode({'lang': language, 'paper': size})}")
        for size in PAPERS
    ]
    return {"label": label, "links": links, "language": language}


@register.simple_tag(takes_context=True)
def sheets_returned_of(
    context: dict[str, Any], club: Club, sheets: Sequence[Any]
) -> SheetsReturned:
    """`{% sheets_returned_of club sheets as returned %}`: which of the tables' (scoring's
    TableSheet) paper sheets came back, and whether the reader may mark them."""
    user = getattr(context.get("request"), "user", None) or AnonymousUser()
    return sheets_returned(club=club, tables=[sheet.table for sheet in sheets], user=user)
