"""A player's record: its download, and the signed-in person's own ("My record"). The page
itself is `player_record` in scoring/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, path

from scoring import player_views

urlpatterns: list[URLPattern] = [
    path(
        "clubs/<slug:slug>/players/<int:player_id>/record.<str:export_format>",
        player_views.player_record_export,
        name="player_record_export",
    ),
    path("me/record/", player_views.my_record, name="my_record"),
]
