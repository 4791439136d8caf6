"""Score entry at the table (the key is the permission), results, and the director's pages
that show scores."""

from __future__ import annotations

from django.urls import path, register_converter

from scoring import (
    championship_views,
    director_views,
    event_settings_views,
    export_views,
    feed_urls,
    headtohead_views,
    league_urls,
    player_urls,
    player_views,
    print_board_urls,
    print_job_urls,
    print_sheet_urls,
    screen_urls,
    series_views,
    views,
)

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
    path(event, views.event_public, name="event_public"),
    path(event + "live/", views.event_live, name="event_live"),
    # Spreadsheet downloads of the public results: ranking.csv, tables/7/totals.xlsx
    path(event + "ranking.<str:export_format>", export_views.ranking_export, name="ranking_export"),
    path(
        event + "tables/<int:table_id>/totals.<str:export_format>",
        export_views.table_totals_export,
        name="table_totals_export",
    ),
    path(event + "manage/", director_views.event_manage, name="event_manage"),
    path(
        event + "tables/<int:table_id>/history/", director_views.table_history, name="table_history"
    ),
    path(
        event + "tables/<int:table_id>/deals/<int:number>/void/",
        director_views.deal_void_view,
        name="deal_void",
    ),
    path(
        event + "tables/<int:table_id>/free-seat/",
        director_views.seat_free_view,
        name="seat_free",
    ),
    path(
        event + "tables/<int:table_id>/pin-unlock/",
        director_views.seat_pin_unlock_view,
        name="seat_pin_unlock",
    ),
    path(event + "finish/", director_views.event_finish_view, name="event_finish"),
    path(
        event + "championship/close/",
        championship_views.stage_close_view,
        name="championship_stage_close",
    ),
    path(
        event + "championship/tie-break/",
        championship_views.tie_break_view,
        name="championship_stage_tie_break",
    ),
    path(
        event + "championship/tables/<int:table_id>/tie-break/",
        championship_views.tie_break_view,
        name="championship_tie_break",
    ),
    path(
        event + "championship/drift/",
        championship_views.drift_decision_view,
        name="championship_drift_decision",
    ),
    path(event + "series/draw/", series_views.series_round_draw_view, name="series_round_draw"),
    path(event + "rounds/pair/", headtohead_views.h2h_round_pair, name="h2h_round_pair"),
    path(event + "tables/", director_views.event_tables, name="event_tables"),
    path(
        event + "ranking-mode/",
        event_settings_views.event_ranking_mode,
        name="event_ranking_mode",
    ),
    # A player's public record, under their club's address.
    path(
        "clubs/<slug:slug>/players/<int:player_id>/",
        player_views.player_record_page,
        name="player_record",
    ),
    # The table's private link: no account, the key is the permission.
    path("t/<key:key>/", views.table_entry, name="table_entry"),
    path("t/<key:key>/seat/", views.table_seat, name="table_seat"),
    path("t/<key:key>/check/", views.table_check, name="table_check"),
    path("t/<key:key>/live/", views.table_live, name="table_live"),
    path("t/<key:key>/qr.svg", views.table_qr, name="table_qr"),
    path("t/<key:key>/deals/<int:number>/", views.deal_save, name="deal_save"),
    path("t/<key:key>/deals/<int:number>/edit/", views.deal_edit, name="deal_edit"),
    path(
        "t/<key:key>/deals/<int:number>/confirm/",
        views.deal_confirm_view,
        name="deal_confirm",
    ),
]

# Each part of the public site keeps its own addresses. The printed sheets come before the
# league's: its downloads' `league.<format>` would take `league.pdf` too.
urlpatterns += print_sheet_urls.urlpatterns + print_board_urls.urlpatterns
urlpatterns += league_urls.urlpatterns + screen_urls.urlpatterns + feed_urls.urlpatterns
urlpatterns += player_urls.urlpatterns + print_job_urls.urlpatterns
