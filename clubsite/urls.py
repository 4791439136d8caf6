from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from clubsite import views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("accounts.urls")),
    path("", include("core.urls")),
    path("", include("tournaments.urls")),
    path("", include("scoring.urls")),
    path("", include("formats.urls")),
    path("", include("standings.urls")),
    path("", include("ratings.urls")),
    path("", include("records.urls")),
    # Printing before the leagues: "league.pdf" is printing's (see printing/urls.py).
    path("", include("printing.urls")),
    path("", include("leagues.urls")),
    path("", include("privacy.urls")),
    # The directors' and players' help (clubsite/help.py).
    path("help/", views.help_index, name="help_index"),
    path("help/<slug:slug>/", views.help_page, name="help_page"),
]

# The site's own error pages (translated, phone-sized); used only when DEBUG is off.
handler400 = "core.views.bad_request"
handler403 = "core.views.permission_denied"
handler404 = "core.views.page_not_found"
handler500 = "core.views.server_error"
