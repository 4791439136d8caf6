"""The confirmation mail of a self-registration: rendered when it is sent, in the
registrant's language, with a link made then (the queue never holds a token)."""

from __future__ import annotations

from django.conf import settings

from accounts.services import mail_render_send
from tournaments.models import Registration, RegistrationStatus
from tournaments.registration_links import CANCEL, CONFIRM, registration_link


def registration_confirm_mail_send(*, registration_id: int) -> None:
    """Mail the confirmation link, unless the registration was confirmed or cancelled since
    it was queued (sending it twice sends a working link twice: harmless)."""
    registration = (
        Registration.objects.select_related("event__club", "player")
        .filter(pk=registration_id, status=RegistrationStatus.UNCONFIRMED)
        .first()
    )
    if registration is None or not registration.email:
        return
    context = {
        "registration": registration,
        "event": registration.event,
        "club": registration.event.club,
        "link": registration_link(registration=registration, salt=CONFIRM),
        "cancel_link": registration_link(registration=registration, salt=CANCEL),
        "site_url": settings.SITE_URL,
    }
    mail_render_send(
        templates=(
            "tournaments/registration/confirm_subject.txt",
            "tournaments/registration/confirm_message.txt",
        ),
        to=registration.email,
        context=context,
        language=registration.language or registration.event.club.language,
    )
