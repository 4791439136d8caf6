from __future__ import annotations

from django.urls import include, path

from tournaments import (
    club_views,
    event_views,
    history_views,
    joining_views,
    merge_views,
    notice_views,
    roster_views,
    season_views,
    views,
)

event = "clubs/<slug:slug>/events/<int:event_id>/"


urlpatterns = [
    path("", views.home, name="home"),
    path("language/", views.language_set, name="language_set"),
    # Before the club's own page: "new" is no club's slug.
    path("clubs/new/", joining_views.club_start, name="club_start"),
    path("clubs/<slug:slug>/", views.club_detail, name="club_detail"),
    path("clubs/<slug:slug>/invitations/", joining_views.invitation_list, name="invitation_list"),
    path("clubs/<slug:slug>/invitations/new/", joining_views.invitation_new, name="invitation_new"),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        joining_views.invitation_revoke_view,
        name="invitation_revoke",
    ),
    path("invite/<str:token>/", joining_views.invitation_accept_view, name="invitation_accept"),
    path("clubs/<slug:slug>/members/", views.club_member_list, name="club_members"),
    path("clubs/<slug:slug>/roles/", club_views.club_roles, name="club_roles"),
    path(
        "clubs/<slug:slug>/roles/<int:membership_id>/",
        club_views.club_role_set,
        name="club_role_set",
    ),
    # The club's published events as a calendar (before the spreadsheets' pattern takes it).
    path("clubs/<slug:slug>/events.ics", notice_views.club_calendar, name="club_calendar"),
    # The club's published events as a spreadsheet: events.csv, events.xlsx
    path(
        "clubs/<slug:slug>/events.<str:export_format>",
        views.club_events_export,
        name="club_events_export",
    ),
    path("clubs/<slug:slug>/players/", roster_views.club_players, name="club_players"),
    # The roster as a spreadsheet: players.csv, players.xlsx
    path(
        "clubs/<slug:slug>/players.<str:export_format>",
        roster_views.club_players_export,
        name="club_players_export",
    ),
    path("clubs/<slug:slug>/players/new/", roster_views.player_new, name="player_new"),
    path("clubs/<slug:slug>/players/paste/", roster_views.roster_paste, name="roster_paste"),
    path("clubs/<slug:slug>/players/upload/", roster_views.roster_upload, name="roster_upload"),
    path("clubs/<slug:slug>/players/confirm/", roster_views.roster_confirm, name="roster_confirm"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/club-player/",
        roster_views.player_make_member_view,
        name="player_make_member",
    ),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/rename/",
        roster_views.player_rename_view,
        name="player_rename",
    ),
    path("clubs/<slug:slug>/settings/", club_views.club_settings, name="club_settings"),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/merge/",
        merge_views.player_merge_page,
        name="player_merge",
    ),
    path("clubs/<slug:slug>/merges/", merge_views.player_merges, name="player_merges"),
    path(
        "clubs/<slug:slug>/merges/<int:merge_id>/undo/",
        merge_views.player_merge_undo_view,
        name="player_merge_undo",
    ),
    path("clubs/<slug:slug>/recount/", views.club_stats_refresh, name="club_stats_refresh"),
    path("clubs/<slug:slug>/events/new/", event_views.event_new, name="event_new"),
    path(
        "clubs/<slug:slug>/history/import/",
        history_views.history_import_view,
        name="history_import",
    ),
    path(
        "clubs/<slug:slug>/history/import/confirm/",
        history_views.history_import_confirm,
        name="history_import_confirm",
    ),
    path("clubs/<slug:slug>/seasons/new/", season_views.season_edit, name="season_new"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/edit/",
        season_views.season_edit,
        name="season_edit",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/close/",
        season_views.season_close_view,
        name="season_close",
    ),
    path(event + "season/", season_views.event_season, name="event_season"),
    path(event + "publish/", event_views.event_publish_view, name="event_publish"),
    # event + "registrations/": the registration list (tournaments.registration_urls).
    path(
        event + "registrations/<int:registration_id>/",
        event_views.registration_update,
        name="registration_update",
    ),
    path(event + "draw/", event_views.draw, name="draw"),
    path(event + "draw/confirm/", event_views.draw_confirm, name="draw_confirm"),
    path(event + "draw/swap/", event_views.seats_swap, name="seats_swap"),
    path(event + "draw/late/", event_views.late_seat, name="late_seat"),
    path(event + "tables/<int:table_id>/revoke/", event_views.table_revoke, name="table_revoke"),
    path(
        event + "tables/<int:table_id>/revoke/confirm/",
        event_views.table_revoke_confirm,
        name="table_revoke_confirm",
    ),
    # Self-registration, check-in at the door, and the mail and calendar of events.
    path("", include("tournaments.registration_urls")),
    path("", include("tournaments.checkin_urls")),
    path("", include("tournaments.notice_urls")),
]
