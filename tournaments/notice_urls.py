"""The addresses of notice pages: unsubscribing, sending a failed mail again, calendars."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournaments import notice_views

urlpatterns: list[URLPattern] = [
    path("unsubscribe/<str:token>/", notice_views.notice_unsubscribe, name="notice_unsubscribe"),
    path(
        "clubs/<slug:slug>/events/<int:event_id>/mail/<int:notice_id>/send-again/",
        notice_views.notice_send_again,
        name="notice_send_again",
    ),
    path(
        "clubs/<slug:slug>/events/<int:event_id>/calendar.ics",
        notice_views.event_calendar,
        name="event_calendar",
    ),
]
