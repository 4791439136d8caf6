"""A season's league table: its permanent public address, downloads, embed, feed and the
director's scheme page."""

from __future__ import annotations

from django.urls import URLPattern, path

from leagues import views as league_views

season = "clubs/<slug:slug>/seasons/<int:season_id>/"

urlpatterns: list[URLPattern] = [
    path(season, league_views.season_league_page, name="season_league"),
    path(
        season + "league.<str:export_format>",
        league_views.season_league_export,
        name="season_league_export",
    ),
    path(season + "embed/", league_views.season_league_embed, name="season_league_embed"),
    path(season + "scheme/", league_views.season_scheme_edit, name="season_scheme_edit"),
    path(
        "api/v1/" + season + "league.json",
        league_views.season_league_feed,
        name="season_league_feed",
    ),
]
