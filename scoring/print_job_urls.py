"""Print jobs: start one from the manage page, follow it, download its PDF, retry it."""

from __future__ import annotations

from django.urls import URLPattern, path

from scoring import print_job_views

event = "clubs/<slug:slug>/events/<int:event_id>/"

urlpatterns: list[URLPattern] = [
    path(event + "print/", print_job_views.print_job_start, name="print_job_start"),
    path(event + "print/<int:job_id>/", print_job_views.print_job_page, name="print_job"),
    path(
        event + "print/<int:job_id>/download/",
        print_job_views.print_job_download,
        name="print_job_download",
    ),
    path(
        event + "print/<int:job_id>/retry/",
        print_job_views.print_job_retry_view,
        name="print_job_retry",
    ),
]
