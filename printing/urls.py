"""Printing's addresses: one table's sheets, the notice-board sheets, and print jobs."""

from __future__ import annotations

from django.urls import URLPattern, path

from printing import board_views, job_views, sheet_views

event = "clubs/<slug:slug>/events/<int:event_id>/"
season = "clubs/<slug:slug>/seasons/<int:season_id>/"
table = event + "tables/<int:table_id>/"

urlpatterns: list[URLPattern] = [
    path(table + "sheet.pdf", sheet_views.table_sheet_pdf, name="print_table_sheet"),
    path(table + "continued.pdf", sheet_views.table_continued_pdf, name="print_table_continued"),
    path(table + "result.pdf", sheet_views.table_result_pdf, name="print_table_result"),
    path(table + "returned/", sheet_views.table_sheet_returned, name="print_sheet_returned"),
    path(event + "standings.pdf", board_views.standings_pdf, name="print_standings"),
    path(event + "stages/<int:number>/seating.pdf", board_views.seating_pdf, name="print_seating"),
    path(event + "championship/bracket.pdf", board_views.bracket_pdf, name="print_bracket"),
    # Before the league's own downloads (clubsite/urls.py includes printing first): their
    # "league.<str:export_format>" would take "league.pdf" too.
    path(season + "league.pdf", board_views.league_pdf, name="print_league"),
    path(event + "print/", job_views.print_job_start, name="print_job_start"),
    path(event + "print/<int:job_id>/", job_views.print_job_page, name="print_job"),
    path(
        event + "print/<int:job_id>/download/",
        job_views.print_job_download,
        name="print_job_download",
    ),
    path(
        event + "print/<int:job_id>/retry/", job_views.print_job_retry_view, name="print_job_retry"
    ),
]
