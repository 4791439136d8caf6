"""The signed links of a registration: confirm the address, cancel (each the registration's
id signed with its own salt and a time stamp, so a link can be neither forged nor
stretched past its age; a used one is caught by the registration's status), and the
personal code shown at the door (no time stamp: one code for the mail and the account)."""

from __future__ import annotations

import datetime
import io

import segno
from django.core import signing
from django.urls import reverse

from accounts.services import site_link
from rules.i18n import _
from tournaments.models import Event, Registration

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


# -- the personal code shown at the door (tournaments.checkin reads it back)

# Its own salt: a token made for anything else on the site never opens a registration.
QR_SALT = "lappu.checkin.registration-qr"


def registration_qr_token(registration: Registration) -> str:
    """The registration's personal token: its id and event, signed (the same token every
    time, so the mail's code and the account page's are one)."""
    return signing.Signer(salt=QR_SALT).sign_object([registration.pk, registration.event_id])


def registration_for_token(token: str, *, event: Event | None = None) -> Registration | None:
    """The registration a token names, or None for a forged, garbled or removed one (and,
    given `event`, for a token of another event: a code shown at the wrong door)."""
    try:
        registration_id, event_id = signing.Signer(salt=QR_SALT).unsign_object(token)
    except (signing.BadSignature, TypeError, ValueError):
        return None
    if event is not None and event_id != event.pk:
        return None
    registrations = Registration.objects.select_related("player", "event__club")
    return registrations.filter(pk=registration_id, event_id=event_id).first()


def registration_qr_url(registration: Registration) -> str:
    """The absolute link of the registration's personal code page (for a mail: SITE_URL,
    never a request's Host)."""
    return site_link(reverse("registration_qr", args=[registration_qr_token(registration)]))


def _qr_file(registration: Registration, *, kind: str, scale: int) -> bytes:
    buffer = io.BytesIO()
    segno.make(registration_qr_url(registration), error="m").save(
        buffer, kind=kind, scale=scale, border=2
    )
    return buffer.getvalue()


def registration_qr_svg(registration: Registration, *, scale: int = 6) -> bytes:
    """The personal code as an SVG file (segno's own, made from the link alone)."""
    return _qr_file(registration, kind="svg", scale=scale)


def registration_qr_png(registration: Registration, *, scale: int = 6) -> bytes:
    """The personal code as PNG bytes: for a mail's attachment, which mail programs show
    where they hide SVG."""
    return _qr_file(registration, kind="png", scale=scale)
