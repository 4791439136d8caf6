"""`{% ranking_table %}` and `{% totals_table %}`: the score screens' tables, built from the
rows the page already has, wherever the partial is included (the public page and its poll,
the table's phones and their poll)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from scoring import tables
from scoring.selectors import RankingRow, TableSheet, sheet_points_matrix
from tournaments.models import Event

register = template.Library()


@register.simple_tag(takes_context=True)
def ranking_table(context: template.Context, rows: list[RankingRow], event: Event) -> SafeString:
    """The event's ranking, a page of it sorted as the reader asked (the public page's
    address holds the order and page, also when its live part is polled)."""
    request = context.get("request")
    table = tables.ranking_table(rows, request=request, page_path=event.get_absolute_url())
    return table.as_html(getattr(table, "request", None) or request)


@register.simple_tag
def totals_table(sheet: TableSheet, actor: Any = None, director: bool = False) -> SafeString:
    """A table's sheet: `actor`'s own seat marked, deal numbers linked for a director."""
    table = tables.totals_table(
        sheet_points_matrix(sheet=sheet),
        my_seat=getattr(actor, "seat", None),
        director=bool(director),
    )
    return table.as_html(None)
