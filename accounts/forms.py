"""The accounts forms: signing in (refused until a signed-up address is verified), and the
password-reset request (its mail sent by a job and counted per address)."""

from __future__ import annotations

import logging
from typing import Any

from allauth.core import ratelimit as allauth_ratelimit
from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.contrib.auth.models import User
from django.core.validators import MaxLengthValidator
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from accounts.selectors import unverified_address
from accounts.tasks import password_reset_mail_task
from core.mail import mail_send
from core.ratelimit import hit, rate_for

log = logging.getLogger(__name__)

# Reset mails to one address: a few an hour is plenty for a person who lost a password.
ADDRESS_RATE = "3/h"


def _address_allowed(address: str) -> bool:
    """Whether another reset mail may go to `address` now (`password_reset_address` in
    RATE_LIMITS): a stranger asking again and again must not fill someone's inbox. Over the
    limit nothing is sent and the page says the same as ever; with the cache down, the
    mail goes."""
    rate = rate_for("password_reset_address", ADDRESS_RATE)
    if rate is None or not getattr(settings, "RATE_LIMIT_ENABLED", True):
        return True
    try:
        return hit("password_reset_address", address.casefold(), rate).allowed
    except Exception:
        log.warning("password reset: the cache cannot be reached; not counting", exc_info=True)
        return True


class QueuedPasswordResetForm(PasswordResetForm):
    def save(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        """Queue one mail per active account with this address; the same page whatever
        happens, so the page never tells whether an address has an account."""
        address = self.cleaned_data["email"]
        # Counted for every address, known or not, so the answer takes the same time.
        allowed = _address_allowed(address)
        users = list(self.get_users(address))
        if not allowed:
            log.info("password reset: too many requests for one address; none sent")
            return
        language = get_language()
        for user in users:
            # Not on commit: nothing is saved here, and the page's timing must not tell.
            mail_send(password_reset_mail_task, user.pk, language)


class SignInForm(AuthenticationForm):
    """Django's sign-in form, with its user name length actually enforced.

    AuthenticationForm sets the field's max_length after the field is built, so no length
    validator exists and any length reaches authenticate(); a failed attempt is then stored
    (django-axes) in a 255-character column, which PostgreSQL refuses with a server error.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(getattr(field, "max_length", None) or 150))

    def confirm_login_allowed(self, user: User) -> None:
        """A person who signed up may sign in once their address is verified (accounts made
        in the admin or the demo have no address record and are let in as before). The
        link is mailed again, at most once every few minutes (allauth's `confirm_email`
        limit), so a lost mail never locks anyone out for good."""
        super().confirm_login_allowed(user)
        address = unverified_address(user)
        if address is None:
            return
        if self.request is not None and allauth_ratelimit.consume(
            self.request, action="confirm_email", key=address.email.lower()
        ):
            address.send_confirmation(self.request, signup=False)
        raise forms.ValidationError(
            _(
                "Confirm your e-mail address first: open the link we sent to %(email)s "
                "(we have just sent it again). Check the spam folder too."
            ),
            code="unverified",
            params={"email": address.email},
        )
