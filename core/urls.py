from __future__ import annotations

from django.urls import path

from core import task_views, views

urlpatterns = [
    path("favicon.ico", views.favicon, name="favicon"),
    path("robots.txt", views.robots_txt, name="robots_txt"),
    path("tasks/<str:task_id>/", task_views.task_status, name="task_status"),
]
