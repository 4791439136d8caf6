"""`{% totals_table %}`: a table's sheet, built from the rows the page already has, wherever
the partial is included (the table's phones and their poll, the public page)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from scoring import tables
from scoring.as_entered import EnteredDeal, entered_deal
from scoring.models import Deal
from scoring.selectors import TableSheet, sheet_points_matrix

register = template.Library()


@register.simple_tag
def totals_table(sheet: TableSheet, director: bool = False) -> SafeString:
    """A table's sheet, deal numbers linked for a director. The phone's own row is marked
    by the page around it (`data-me` on #table-live, static/css/site.css)."""
    table = tables.totals_table(sheet_points_matrix(sheet=sheet), director=bool(director))
    return table.as_html(None)


@register.simple_tag
def entered(deal: Deal, sheet: TableSheet) -> EnteredDeal:
    """`{% entered deal sheet as shown %}`: a deal waiting for confirmation as its table
    entered it (`scoring.as_entered`)."""
    return entered_deal(deal=deal, seats=sheet.seats, variant=sheet.variant)


@register.simple_tag
def entered_table(shown: EnteredDeal) -> SafeString:
    """That deal seat by seat, in seat order: what each seat entered and its points."""
    return tables.EnteredTable(shown.seats).as_html(None)
