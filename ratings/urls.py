"""A club's ratings: its rated games, the list per game, the list's downloads and feed."""

from __future__ import annotations

from django.urls import URLPattern, path

from ratings import views

ratings = "clubs/<slug:slug>/ratings/"

urlpatterns: list[URLPattern] = [
    path(ratings, views.club_ratings_index, name="club_ratings"),
    path(ratings + "<str:game>/", views.club_rating_list, name="club_rating_list"),
    path(
        ratings + "<str:game>/ratings.<str:export_format>",
        views.club_rating_export,
        name="club_rating_export",
    ),
    path(
        "api/v1/" + ratings + "<str:game>.json", views.club_ratings_feed, name="club_ratings_feed"
    ),
]
