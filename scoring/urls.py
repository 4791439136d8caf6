"""Score entry at the table (the key is the permission) and the director's pages of one
table: its history, voids, seat releases and PIN unlocks; the tables' entry links."""

from __future__ import annotations

from django.urls import path, register_converter

from scoring import director_views, install, views

event = "clubs/<slug:slug>/events/<int:event_id>/"


class TableKey:
    """A table's private key as the site makes them (url-safe base64): anything else is no
    table's, and is a 404 before any query runs."""

    regex = "[A-Za-z0-9_-]{16,43}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TableKey, "key")

urlpatterns = [
    path(event + "tables/", director_views.event_tables, name="event_tables"),
    path(
        event + "tables/<int:table_id>/history/", director_views.table_history, name="table_history"
    ),
    path(
        event + "tables/<int:table_id>/deals/<int:number>/void/",
        director_views.deal_void_view,
        name="deal_void",
    ),
    path(
        event + "tables/<int:table_id>/free-seat/", director_views.seat_free_view, name="seat_free"
    ),
    path(
        event + "tables/<int:table_id>/pin-unlock/",
        director_views.seat_pin_unlock_view,
        name="seat_pin_unlock",
    ),
    # The table's private link: no account, the key is the permission.
    path("t/<key:key>/", views.table_entry, name="table_entry"),
    path("t/<key:key>/seat/", views.table_seat, name="table_seat"),
    path("t/<key:key>/check/", views.table_check, name="table_check"),
    path("t/<key:key>/live/", views.table_live, name="table_live"),
    path("t/<key:key>/qr.svg", views.table_qr, name="table_qr"),
    path("t/<key:key>/manifest.webmanifest", install.table_manifest, name="table_manifest"),
    path("t/<key:key>/sw.js", install.table_worker, name="table_worker"),
    path("t/<key:key>/deals/<int:number>/", views.deal_save, name="deal_save"),
    path("t/<key:key>/deals/<int:number>/edit/", views.deal_edit, name="deal_edit"),
    path("t/<key:key>/deals/<int:number>/confirm/", views.deal_confirm_view, name="deal_confirm"),
]
