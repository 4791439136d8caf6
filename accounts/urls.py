from __future__ import annotations

from django.urls import path

from accounts import views

urlpatterns = [
    path("accounts/", views.account, name="account"),
    path("accounts/login/", views.sign_in, name="login"),
    path("accounts/logout/", views.sign_out, name="logout"),
    path("accounts/password/", views.password_change, name="password_change"),
    path("accounts/password/done/", views.password_change_done, name="password_change_done"),
    path("accounts/password/reset/", views.password_reset, name="password_reset"),
    path("accounts/password/reset/sent/", views.password_reset_done, name="password_reset_done"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        views.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path("accounts/reset/done/", views.password_reset_complete, name="password_reset_complete"),
]
