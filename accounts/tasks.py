"""The accounts app's Celery jobs: the password-reset mail and the sign-up mails.

Queued, so that asking for a reset takes the same time whether the address belongs to an
account or not (a mail server's round trip would tell them apart). A job takes ids and
loads what it needs, so the queue never holds a token; a mail server that is briefly away
is retried, with the broker's redelivery for a worker that dies.
"""

from __future__ import annotations

import smtplib

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import InterfaceError, OperationalError

from accounts.services import account_mail_send, password_reset_mail_send

TRANSIENT = (smtplib.SMTPException, OSError, OperationalError, InterfaceError)


@shared_task(
    name="accounts.password_reset_mail_task",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=6,
)
def password_reset_mail_task(user_id: int, language: str) -> None:
    user = get_user_model()._default_manager.filter(pk=user_id, is_active=True).first()
    if user is not None and user.has_usable_password():
        password_reset_mail_send(user=user, language=language)


@shared_task(
    name="accounts.account_mail_task",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=6,
)
def account_mail_task(template_prefix: str, email: str, user_id: int | None, language: str) -> None:
    user = None
    if user_id is not None:
        user = get_user_model()._default_manager.filter(pk=user_id, is_active=True).first()
        if user is None:
            return  # the account is gone: nothing to verify any more
    account_mail_send(template_prefix=template_prefix, email=email, user=user, language=language)
