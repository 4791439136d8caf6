"""Spreadsheet downloads (CSV, XLSX) of the public results: the event's ranking and a
table's sheet. Public like the event's page; every row, never a page of them; headers in
the reader's language; a file name that says which event (and table) it is."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from core.tables import EXPORT_FORMATS, csv_separator, export_name, export_response
from scoring.selectors import sheet_points_matrix, table_sheet
from scoring.tables import totals_table
from standings.parts import public_event_or_404
from standings.selectors import public_table
from standings.standings import event_standings
from standings.tables import standings_download
from tournaments.models import Event
from tournaments.visibility import confirmed_only


def _public_event(request: HttpRequest, slug: str, event_id: int, export_format: str) -> Event:
    if export_format not in EXPORT_FORMATS:
        raise Http404
    return public_event_or_404(request, slug, event_id)


def ranking_export(
    request: HttpRequest, slug: str, event_id: int, export_format: str
) -> HttpResponse:
    event = _public_event(request, slug, event_id, export_format)
    # The event's standings as its page has them (a series' rounds added up, head to
    # head's wins, a championship's every player), confirmed results only where the club
    # says so.
    return standings_download(
        event_standings(event=event), export_format, _("Ranking"), csv_separator(request)
    )


def table_totals_export(
    request: HttpRequest, slug: str, event_id: int, table_id: int, export_format: str
) -> HttpResponse:
    event = _public_event(request, slug, event_id, export_format)
    table = public_table(event=event, table_id=table_id)
    if table is None:
        raise Http404
    only = confirmed_only(club=event.club)
    matrix = sheet_points_matrix(sheet=table_sheet(table=table, confirmed_only=only))
    sheet = totals_table(matrix, export=True)
    # The table's own name ("Table 3", "3. asztal"), as its pages call it.
    return export_response(
        sheet,
        export_format=export_format,
        name=export_name(event.name, table.label),
        title=table.label,
        separator=csv_separator(request),
    )
