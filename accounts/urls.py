from __future__ import annotations

from django.urls import path, re_path

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
    # Sign-up and e-mail verification: django-allauth's views, only these three.
    path("accounts/signup/", views.sign_up, name="account_signup"),
    path(
        "accounts/confirm-email/",
        views.email_verification_sent,
        name="account_email_verification_sent",
    ),
    re_path(
        r"^accounts/confirm-email/(?P<key>[-:\w]+)/$",
        views.email_confirm,
        name="account_confirm_email",
    ),
    # The names allauth links to, pointing at the site's own pages (never resolved to:
    # the paths above come first).
    path("accounts/login/", views.sign_in, name="account_login"),
    path("accounts/logout/", views.sign_out, name="account_logout"),
    path("accounts/login/", views.sign_in, name="account_inactive"),
    path("accounts/password/reset/", views.password_reset, name="account_reset_password"),
]
