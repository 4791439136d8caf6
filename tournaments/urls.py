from __future__ import annotations

from django.urls import path, register_converter

from scoring import views as scoring_views
from tournaments import club_views, event_views, views

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
    path("", views.home, name="home"),
    path("language/", views.language_set, name="language_set"),
    path("tasks/<str:task_id>/", views.task_status, name="task_status"),
    path("clubs/<slug:slug>/", views.club_detail, name="club_detail"),
    path("clubs/<slug:slug>/members/", views.club_member_list, name="club_members"),
    path("clubs/<slug:slug>/roles/", club_views.club_roles, name="club_roles"),
    path(
        "clubs/<slug:slug>/roles/<int:membership_id>/",
        club_views.club_role_set,
        name="club_role_set",
    ),
    path("clubs/<slug:slug>/recount/", views.club_stats_refresh, name="club_stats_refresh"),
    path("clubs/<slug:slug>/events/new/", event_views.event_new, name="event_new"),
    path(event, scoring_views.event_public, name="event_public"),
    path(event + "live/", scoring_views.event_live, name="event_live"),
    path(event + "manage/", event_views.event_manage, name="event_manage"),
    path(event + "registrations/", event_views.registration_create, name="registration_create"),
    path(
        event + "registrations/<int:registration_id>/",
        event_views.registration_update,
        name="registration_update",
    ),
    path(event + "draw/", event_views.draw, name="draw"),
    path(event + "draw/confirm/", event_views.draw_confirm, name="draw_confirm"),
    path(event + "draw/swap/", event_views.seats_swap, name="seats_swap"),
    path(event + "tables/<int:table_id>/revoke/", event_views.table_revoke, name="table_revoke"),
    path(
        event + "tables/<int:table_id>/history/", scoring_views.table_history, name="table_history"
    ),
    path(
        event + "tables/<int:table_id>/deals/<int:number>/void/",
        scoring_views.deal_void_view,
        name="deal_void",
    ),
    path(
        event + "tables/<int:table_id>/free-seat/",
        scoring_views.seat_free_view,
        name="seat_free",
    ),
    path(event + "finish/", scoring_views.event_finish_view, name="event_finish"),
    # The table's private link: no account, the key is the permission.
    path("t/<key:key>/", scoring_views.table_entry, name="table_entry"),
    path("t/<key:key>/seat/", scoring_views.table_seat, name="table_seat"),
    path("t/<key:key>/check/", scoring_views.table_check, name="table_check"),
    path("t/<key:key>/live/", scoring_views.table_live, name="table_live"),
    path("t/<key:key>/qr.svg", scoring_views.table_qr, name="table_qr"),
    path("t/<key:key>/deals/<int:number>/", scoring_views.deal_save, name="deal_save"),
    path("t/<key:key>/deals/<int:number>/edit/", scoring_views.deal_edit, name="deal_edit"),
    path(
        "t/<key:key>/deals/<int:number>/confirm/",
        scoring_views.deal_confirm_view,
        name="deal_confirm",
    ),
]
