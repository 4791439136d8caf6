"""A player's record under their club's address, its download, and the signed-in person's
own ("My record")."""

from __future__ import annotations

from django.urls import URLPattern, path

from records import views

player = "clubs/<slug:slug>/players/<int:player_id>/"

urlpatterns: list[URLPattern] = [
    path(player, views.player_record_page, name="player_record"),
    path(
        player + "record.<str:export_format>",
        views.player_record_export,
        name="player_record_export",
    ),
    path("me/record/", views.my_record, name="my_record"),
]
