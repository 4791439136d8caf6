from __future__ import annotations

from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("language/", views.language_set, name="language_set"),
    path("tasks/<str:task_id>/", views.task_status, name="task_status"),
    path("clubs/<slug:slug>/", views.club_detail, name="club_detail"),
    path("clubs/<slug:slug>/members/", views.club_member_list, name="club_members"),
    path("clubs/<slug:slug>/recount/", views.club_stats_refresh, name="club_stats_refresh"),
]
