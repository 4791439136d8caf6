"""The formats' addresses: the event's manage page and finish, a championship's stage close,
tie-breaks and drift decisions, a series' next round, a head-to-head round's pairing."""

from __future__ import annotations

from django.urls import URLPattern, path

from formats import manage_views, views

event = "clubs/<slug:slug>/events/<int:event_id>/"

urlpatterns: list[URLPattern] = [
    path(event + "manage/", manage_views.event_manage, name="event_manage"),
    path(event + "finish/", manage_views.event_finish_view, name="event_finish"),
    path(event + "championship/close/", views.stage_close_view, name="championship_stage_close"),
    path(
        event + "championship/tie-break/",
        views.tie_break_view,
        name="championship_stage_tie_break",
    ),
    path(
        event + "championship/tables/<int:table_id>/tie-break/",
        views.tie_break_view,
        name="championship_tie_break",
    ),
    path(
        event + "championship/tables/<int:table_id>/play-off/",
        views.playoff_view,
        name="championship_playoff",
    ),
    path(
        event + "championship/drift/",
        views.drift_decision_view,
        name="championship_drift_decision",
    ),
    path(event + "series/draw/", views.series_round_draw_view, name="series_round_draw"),
    path(event + "rounds/pair/", views.h2h_round_pair, name="h2h_round_pair"),
]
