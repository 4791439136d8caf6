"""The signed links of a registration's mail: confirm the address, cancel. Each link is the
registration's id signed with its own salt and a time stamp, so a link can be neither
forged nor stretched past its age; a used one is caught by the registration's status."""

from __future__ import annotations

import datetime

from django.core import signing
from django.urls import reverse

from accounts.services import site_link
from rules.i18n import _
from tournaments.models import Registration

CONFIRM = "tournaments.registration.confirm"
CANCEL = "tournaments.registration.cancel"
# A confirmation is for now (the person is at their mail); the cancel link rides in every
# registration mail and must last until the event.
MAX_AGE = {CONFIRM: datetime.timedelta(days=2), CANCEL: datetime.timedelta(days=365)}
URL_NAME = {CONFIRM: "registration_confirm", CANCEL: "registration_cancel_link"}


class LinkRefused(Exception):
    """A link forged, expired or pointing at nothing: what to tell the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def registration_token(*, registration: Registration, salt: str) -> str:
    return signing.TimestampSigner(salt=salt).sign(str(registration.pk))


def registration_link(*, registration: Registration, salt: str) -> str:
    """The absolute link for a mail (`salt`: CONFIRM or CANCEL)."""
    token = registration_token(registration=registration, salt=salt)
    return site_link(reverse(URL_NAME[salt], args=[token]))


def registration_from_token(*, token: str, salt: str) -> Registration:
    """The registration a link names; LinkRefused (with the reason, untranslated) when the
    link is forged, expired, or its registration is gone."""
    try:
        pk = signing.TimestampSigner(salt=salt).unsign(token, max_age=MAX_AGE[salt])
    except signing.SignatureExpired as error:
        raise LinkRefused(_("This link has expired.")) from error
    except signing.BadSignature as error:
        raise LinkRefused(
            _("This link is not valid: copy the whole link from the mail.")
        ) from error
    registration = (
        Registration.objects.select_related("event__club", "player").filter(pk=int(pk)).first()
    )
    if registration is None:
        raise LinkRefused(_("This registration no longer exists."))
    return registration
