"""The privacy page, a person's own data ("My data" under the account), and a director's
privacy page for a player of the club."""

from __future__ import annotations

from django.urls import URLPattern, path

from privacy import views

player = "clubs/<slug:slug>/players/<int:player_id>/privacy/"

urlpatterns: list[URLPattern] = [
    path("privacy/", views.privacy_page, name="privacy"),
    path("accounts/data/", views.my_data, name="my_data"),
    path("accounts/data/lappu-data.json", views.my_data_download, name="my_data_download"),
    path(
        "accounts/data/players/<int:player_id>/hide/", views.my_player_hide, name="my_player_hide"
    ),
    path("accounts/data/erase/", views.my_erase, name="my_erase"),
    path(player, views.player_privacy, name="player_privacy"),
    path(player + "hide/", views.player_hide, name="player_privacy_hide"),
    path(player + "data.json", views.player_data_download, name="player_data_download"),
    path(player + "erase/", views.player_erase_page, name="player_erase"),
]
