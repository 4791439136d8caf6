"""Events open for registration and guests who sign up by the mailed link."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from tests.support.factories import ClubFactory
from tournaments.models import RegistrationOpenTo
from tournaments.registration import (
    registration_confirm,
    registration_self_add,
    registration_settings_set,
)
from tournaments.services import event_create


def open_event(
    club=None, *, capacity=2, open_to=RegistrationOpenTo.ANYONE, approval=False, name="Friday"
):
    """A published event a week ahead, open for registration now."""
    club = club or ClubFactory()
    event = event_create(
        club=club,
        name=name,
        date=timezone.localdate() + datetime.timedelta(days=7),
        variant_id="rutupeli",
        published=True,
    )
    return registration_settings_set(
        event=event,
        open_to=open_to,
        opens_at=None,
        closes_at=None,
        capacity=capacity,
        approval=approval,
    )


def guest(event, name, email=None):
    """A guest registers and confirms by the mailed link."""
    registration = registration_self_add(
        event=event,
        user=anonymous(),
        name=name,
        email=email or f"{name.lower()}@mail.example",
    )
    return registration_confirm(registration=registration)


def anonymous():
    return AnonymousUser()


def register_in_browser(page, base: str, event, name: str, email: str, button: str) -> None:
    """A guest registers (or joins the waitlist: `button`) on the public event page in a
    real browser, and is told a link was mailed."""
    page.goto(base + event.get_absolute_url())
    page.get_by_role("link", name=button).click()
    page.fill("#id_name", name)
    page.fill("#id_email", email)
    page.get_by_role("button", name=button).click()
    page.get_by_text(f"we mailed a link to {email}").wait_for()
