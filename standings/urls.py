"""Standings' addresses: the event's public page and its live part, the big screen, the
stages' pages, the downloads and the JSON feed, and the director's ranking settings."""

from __future__ import annotations

from django.urls import URLPattern, path

from standings import exports, feeds, ranking_settings, screen, stages, views

event = "clubs/<slug:slug>/events/<int:event_id>/"

urlpatterns: list[URLPattern] = [
    path(event, views.event_public, name="event_public"),
    path(event + "live/", views.event_live, name="event_live"),
    path(event + "screen/", screen.event_screen, name="event_screen"),
    path(event + "screen/live/", screen.event_screen_live, name="event_screen_live"),
    # Spreadsheet downloads of the public results: ranking.csv, tables/7/totals.xlsx
    path(event + "ranking.<str:export_format>", exports.ranking_export, name="ranking_export"),
    path(
        event + "tables/<int:table_id>/totals.<str:export_format>",
        exports.table_totals_export,
        name="table_totals_export",
    ),
    path(event + "stages/<int:number>/", stages.stage_standings, name="stage_standings"),
    path(
        event + "stages/<int:number>/standings.<str:export_format>",
        stages.stage_standings_export,
        name="stage_standings_export",
    ),
    path(f"api/v1/{event}standings.json", feeds.event_standings_feed, name="event_standings_feed"),
    path(event + "ranking-mode/", ranking_settings.event_ranking_mode, name="event_ranking_mode"),
    path(event + "tie-breaks/", ranking_settings.event_tie_breaks, name="event_tie_breaks"),
]
