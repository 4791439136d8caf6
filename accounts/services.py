"""Writes of the accounts app: the password-reset mail."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode


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
    context = {"user": user, "link": settings.SITE_URL + path, "site_url": settings.SITE_URL}
    with translation.override(language):
        subject = render_to_string("registration/password_reset_subject.txt", context)
        body = render_to_string("registration/password_reset_email.txt", context)
    address = getattr(user, user.get_email_field_name())
    EmailMessage(" ".join(subject.split()), body, to=[address]).send()
