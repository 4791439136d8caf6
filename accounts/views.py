"""Signing in, out, changing and resetting a password: Django's own views in the site's look;
signing up and verifying the address: django-allauth's, in the same look."""

from __future__ import annotations

from allauth.account import views as allauth_views
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.decorators import method_decorator
from django.views.decorators.http import require_GET

from accounts.forms import QueuedPasswordResetForm, SignInForm
from core.ratelimit import client_ip, rate_limit

# Asking for reset mails from one address: enough for a club's shared Wi-Fi, not for a script.
RESET_RATE = "10/h"
# New accounts from one address: a club signing up its people together, not a script.
SIGNUP_RATE = "10/h"

sign_in = auth_views.LoginView.as_view(authentication_form=SignInForm)
sign_out = auth_views.LogoutView.as_view()
password_change = auth_views.PasswordChangeView.as_view()
password_change_done = auth_views.PasswordChangeDoneView.as_view()
password_reset = method_decorator(
    rate_limit(scope="password_reset", rate=RESET_RATE, key=client_ip, methods=("POST",)),
    name="dispatch",
)(auth_views.PasswordResetView).as_view(form_class=QueuedPasswordResetForm)
sign_up = rate_limit(scope="signup", rate=SIGNUP_RATE, key=client_ip, methods=("POST",))(
    allauth_views.signup
)
email_verification_sent = allauth_views.email_verification_sent
email_confirm = allauth_views.confirm_email
password_reset_done = auth_views.PasswordResetDoneView.as_view()
password_reset_confirm = auth_views.PasswordResetConfirmView.as_view()
password_reset_complete = auth_views.PasswordResetCompleteView.as_view()


@login_required
@require_GET
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/account.html", {"person": request.user})
