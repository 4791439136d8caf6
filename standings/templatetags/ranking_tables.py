"""`{% ranking_table %}`: the event's standings (or rows), from what the page already has,
wherever the partial is included (the public page and its poll)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from standings import tables
from standings.selectors import RankingRow
from standings.standings import Standings
from tournaments.models import Event

register = template.Library()


@register.simple_tag(takes_context=True)
def ranking_table(
    context: template.Context, rows: list[RankingRow] | Standings, event: Event
) -> SafeString:
    """The event's ranking, a page of it sorted as the reader asked (the public page's
    address holds the order and page, also when its live part is polled)."""
    request = context.get("request")
    table = tables.ranking_table(rows, request=request, page_path=event.get_absolute_url())
    return table.as_html(getattr(table, "request", None) or request)
