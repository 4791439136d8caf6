"""django-allauth, fitted to the site: its mails go through the job queue in the person's
language, its rate limits count the client's address behind the site's proxies, and a
verified sign-up is signed in by Django's own model backend (axes stays in front of every
password check)."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest
from django.utils.translation import get_language

from accounts.tasks import account_mail_task
from core.mail import mail_send_on_commit
from core.ratelimit import client_ip

# The backend a signed-up person's session is tied to. allauth would take the first one
# with `get_user`, which is axes' (it only guards; it never finds a user).
SESSION_BACKEND = "django.contrib.auth.backends.ModelBackend"


def person_language(user: object, fallback: str | None = None) -> str:
    """The language a person reads their mail in: the one they picked (their profile's,
    reached through the relation so this app needs no import of the app that keeps it),
    else `fallback`, else the current request's."""
    chosen = getattr(getattr(user, "profile", None), "language", "") if user else ""
    return chosen or fallback or get_language() or "en"


class AccountAdapter(DefaultAccountAdapter):
    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        """Queue the mail on commit instead of sending it in the request. Only the template,
        the address, the user's id and the language are queued: the job makes the link
        (and its key) itself, as the password-reset mail does."""
        user = context.get("user")
        mail_send_on_commit(
            account_mail_task,
            template_prefix,
            email,
            getattr(user, "pk", None),
            person_language(user),
        )

    def get_client_ip(self, request: HttpRequest) -> str:
        return client_ip(request)

    def login(self, request: HttpRequest, user: AbstractBaseUser) -> None:
        user.backend = SESSION_BACKEND  # type: ignore[attr-defined]
        super().login(request, user)
