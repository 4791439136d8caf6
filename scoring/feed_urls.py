"""The standings feed (JSON, versioned), a stage's standings page and its downloads, and the
director's tie-break setting."""

from __future__ import annotations

from django.urls import URLPattern, path

from scoring import event_settings_views, feed_views, stage_views

event = "clubs/<slug:slug>/events/<int:event_id>/"

urlpatterns: list[URLPattern] = [
    path(
        f"api/v1/{event}standings.json",
        feed_views.event_standings_feed,
        name="event_standings_feed",
    ),
    path(f"{event}stages/<int:number>/", stage_views.stage_standings, name="stage_standings"),
    path(
        f"{event}stages/<int:number>/standings.<str:export_format>",
        stage_views.stage_standings_export,
        name="stage_standings_export",
    ),
    path(
        f"{event}tie-breaks/",
        event_settings_views.event_tie_breaks,
        name="event_tie_breaks",
    ),
]
