"""The addresses of checkin pages: the door's list and its actions, and each
registration's personal code (door/<token>/, the link its QR code holds)."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournaments import checkin_views

event = "clubs/<slug:slug>/events/<int:event_id>/check-in/"

urlpatterns: list[URLPattern] = [
    path(event, checkin_views.checkin_page, name="checkin"),
    path(event + "<int:registration_id>/", checkin_views.checkin_tap, name="checkin_tap"),
    path(event + "scan/", checkin_views.checkin_scan, name="checkin_scan"),
    path(event + "walk-in/", checkin_views.checkin_walk_in, name="checkin_walk_in"),
    path(event + "no-shows/", checkin_views.checkin_no_shows, name="checkin_no_shows"),
    path("door/<str:token>/", checkin_views.registration_qr, name="registration_qr"),
    path(
        "door/<str:token>/qr.svg", checkin_views.registration_qr_image, name="registration_qr_image"
    ),
]
