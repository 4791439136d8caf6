"""The demo's event open for registration: its places taken, two on the waitlist, one
address not confirmed yet and one cancellation, so the public page offers the waitlist, the
director's list shows every state, and the check-in page has a door's worth of names to
tick off. The addresses are the demo's own (example.*): mail to them goes nowhere."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AnonymousUser

from tournaments.models import Club, Event, RegistrationOpenTo
from tournaments.registration import (
    registration_cancel,
    registration_confirm,
    registration_self_add,
    registration_settings_set,
)
from tournaments.services import event_create

OPEN_EVENT = "Rutupeli open Saturday (registration open)"
PLACES = 8
# The first PLACES take the places, the next two wait, the last never confirms; the third
# cancels after the waitlist formed, so the first waiting player is promoted.
NAMES = [
    "Aurora Öhman-Lindqvist", "Bálint Szőke", "Cecilia Järvelä", "Dóra Hegedűs",
    "Eemeli Kärkkäinen", "Fruzsina Bódis", "Heikki Ylä-Mononen", "Ildikó Rácz",
    "Jere Väänänen", "Kata Fülöp", "Linnea Österberg",
]  # fmt: skip


def _address(name: str) -> str:
    return f"{name.split()[0].lower()}@players.lappu.example"


def demo_registration(club: Club) -> None:
    if Event.objects.filter(club=club, name=OPEN_EVENT).exists():
        return
    event = event_create(
        club=club,
        name=OPEN_EVENT,
        date=datetime.date.today() + datetime.timedelta(days=6),
        venue="Kerhohuone",
        variant_id="rutupeli",
        published=True,
    )
    registration_settings_set(
        event=event, open_to=RegistrationOpenTo.ANYONE, opens_at=None, closes_at=None,
        capacity=PLACES, approval=False,
    )  # fmt: skip
    stranger = AnonymousUser()
    registrations = [
        registration_self_add(
            event=event, user=stranger, name=name, email=_address(name), language="fi"
        )
        for name in NAMES
    ]
    for registration in registrations[:-1]:
        registration_confirm(registration=registration)
    registration_cancel(registration=registrations[2], by=None)
