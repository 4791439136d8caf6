"""The addresses of registration pages."""

from __future__ import annotations

from django.urls import URLPattern, path

from tournaments import registration_views as views

event = "clubs/<slug:slug>/events/<int:event_id>/"

urlpatterns: list[URLPattern] = [
    path(event + "register/", views.register, name="register"),
    # The director's list; the manage page's add-a-player form posts to the same address
    # under its old name.
    path(event + "registrations/", views.registration_list, name="registration_list"),
    path(event + "registrations/", views.registration_list, name="registration_create"),
    path(
        event + "registrations/settings/",
        views.registration_settings,
        name="registration_settings",
    ),
    path(event + "registrations/add/", views.registration_add_view, name="registration_add"),
    path(
        event + "registrations/<int:registration_id>/act/",
        views.registration_act,
        name="registration_act",
    ),
    path("registration/confirm/<str:token>/", views.confirm, name="registration_confirm"),
    path("registration/cancel/<str:token>/", views.cancel_link, name="registration_cancel_link"),
    path("accounts/registrations/", views.my_registrations, name="my_registrations"),
    path(
        "accounts/registrations/<int:registration_id>/cancel/",
        views.my_registration_cancel,
        name="my_registration_cancel",
    ),
]
