"""Two people taking the last place at once, on PostgreSQL: each confirmation locks the
event's row, so one gets the place and the other the waitlist, never two places."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.support.registration import open_event
from tournaments.models import RegistrationStatus
from tournaments.registration import places_left, registration_confirm, registration_self_add
from tournaments.registration_links import CONFIRM, registration_token

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_requests_for_the_last_place_at_once_give_one_place_and_one_waitlist():
    event = open_event(capacity=1)
    registrations = [
        registration_self_add(
            event=event, user=AnonymousUser(), name=name, email=f"{name}@mail.example"
        )
        for name in ("ann", "bea")
    ]
    start = threading.Barrier(len(registrations))
    errors: list[BaseException] = []

    def confirm(registration):
        # Each person's browser posts the confirmation link's button: a request of its own.
        link = reverse(
            "registration_confirm",
            args=[registration_token(registration=registration, salt=CONFIRM)],
        )
        try:
            start.wait(timeout=10)
            response = Client(raise_request_exception=True).post(link)
            assert response.status_code == 200, response.status_code
        except BaseException as error:  # reported below, not lost in the thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=[r]) for r in registrations]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    statuses = sorted(event.registrations.values_list("status", flat=True))
    assert statuses == sorted([RegistrationStatus.REGISTERED, RegistrationStatus.WAITLISTED])
    assert places_left(event=event) == 0


def test_many_at_once_never_take_more_places_than_there_are():
    event = open_event(capacity=3)
    registrations = [
        registration_self_add(
            event=event, user=AnonymousUser(), name=f"p{n}", email=f"p{n}@mail.example"
        )
        for n in range(8)
    ]
    start = threading.Barrier(len(registrations))

    def confirm(registration):
        try:
            start.wait(timeout=10)
            registration_confirm(registration=registration)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=[r]) for r in registrations]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    registered = event.registrations.filter(status=RegistrationStatus.REGISTERED).count()
    waiting = event.registrations.filter(status=RegistrationStatus.WAITLISTED)
    assert (registered, waiting.count()) == (3, 5)
    # The waitlist's order is the order the confirmations got the lock: distinct times.
    assert len(set(waiting.values_list("waitlisted_at", flat=True))) == 5
