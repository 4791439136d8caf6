"""The notice-board sheets' addresses (PDF): standings, seating, bracket, league table."""

from __future__ import annotations

from django.urls import URLPattern, path

from scoring import print_board_views

event = "clubs/<slug:slug>/events/<int:event_id>/"
season = "clubs/<slug:slug>/seasons/<int:season_id>/"

urlpatterns: list[URLPattern] = [
    path(event + "standings.pdf", print_board_views.standings_pdf, name="print_standings"),
    path(
        event + "stages/<int:number>/seating.pdf",
        print_board_views.seating_pdf,
        name="print_seating",
    ),
    path(event + "championship/bracket.pdf", print_board_views.bracket_pdf, name="print_bracket"),
    # Shadowed while scoring/league_urls.py's "league.<str:export_format>" comes first (see
    # the report of issue 12): that view answers 404 for "pdf".
    path(season + "league.pdf", print_board_views.league_pdf, name="print_league"),
]
