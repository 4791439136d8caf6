"""The big screen's addresses (under the event's public address)."""

from __future__ import annotations

from django.urls import URLPattern, path

from scoring import screen_views

event = "clubs/<slug:slug>/events/<int:event_id>/"

urlpatterns: list[URLPattern] = [
    path(event + "screen/", screen_views.event_screen, name="event_screen"),
    path(event + "screen/live/", screen_views.event_screen_live, name="event_screen_live"),
]
