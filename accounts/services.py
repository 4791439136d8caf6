"""Writes of the accounts app: the password-reset mail and the sign-up mails."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

# allauth's mails that carry the verification link (made when the mail is sent).
CONFIRMATION_MAILS = frozenset(
    {"account/email/email_confirmation", "account/email/email_confirmation_signup"}
)


def site_link(path: str) -> str:
    """An absolute link for a mail: SITE_URL, never whatever Host a request claimed."""
    return settings.SITE_URL + path


def mail_render_send(
    *, templates: tuple[str, str], to: str, context: dict[str, Any], language: str
) -> None:
    """Render the (subject, body) `templates` in `language` and send the mail to `to`."""
    with translation.override(language):
        subject = render_to_string(templates[0], context)
        body = render_to_string(templates[1], context)
    EmailMessage(" ".join(subject.split()), body.strip() + "\n", to=[to]).send()


def password_reset_mail_send(*, user: AbstractBaseUser, language: str) -> None:
    """Mail `user` a link that sets a new password, in `language`.

    The link is made here, when the mail is sent, not when it was asked for: no token ever
    waits in the job queue. It starts with SITE_URL, as the printed QR codes do, so a mail
    never carries whatever Host a request claimed. The token stops working once the
    password changes (or after PASSWORD_RESET_TIMEOUT), so a link sets a password once.
    """
    path = reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    context = {"user": user, "link": site_link(path), "site_url": settings.SITE_URL}
    address = getattr(user, user.get_email_field_name())
    mail_render_send(
        templates=(
            "registration/password_reset_subject.txt",
            "registration/password_reset_email.txt",
        ),
        to=address,
        context=context,
        language=language,
    )


def account_mail_send(
    *, template_prefix: str, email: str, user: AbstractBaseUser | None, language: str
) -> None:
    """Send one of allauth's mails (`template_prefix`, e.g. the sign-up's verification) to
    `email` in `language`. A verification link is made now, from the address's id; an
    address verified (or removed) since the mail was queued gets none."""
    context: dict[str, Any] = {
        "user": user,
        "email": email,
        "site_url": settings.SITE_URL,
        "signup_url": site_link(reverse("account_signup")),
        "password_reset_url": site_link(reverse("password_reset")),
    }
    if template_prefix in CONFIRMATION_MAILS:
        address = EmailAddress.objects.filter(user=user, email__iexact=email).first()
        if address is None or address.verified:
            return
        key = EmailConfirmationHMAC(address).key
        context |= {
            "key": key,
            "activate_url": site_link(reverse("account_confirm_email", args=[key])),
        }
    mail_render_send(
        templates=(f"{template_prefix}_subject.txt", f"{template_prefix}_message.txt"),
        to=email,
        context=context,
        language=language,
    )
