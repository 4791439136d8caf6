"""Two phones at one door tap the same name at once, on PostgreSQL: the second waits for
the first, then finds the player checked in and changes nothing: one change recorded."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.db import connection, transaction

from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.locks import waiting_for_a_lock
from tournaments.checkin import checkin_set
from tournaments.models import Player, Registration, RegistrationChange, RegistrationStatus, Role
from tournaments.services import event_create, registration_add

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_phones_tapping_one_name_record_one_check_in():
    club = ClubFactory()
    scorer = MembershipFactory(club=club, role=Role.SCORER).user
    event = event_create(
        club=club, name="Night", date=datetime.date(2026, 12, 4), variant_id="rutupeli"
    )
    anna = registration_add(event=event, player=Player.objects.create(club=club, name="Anna"))
    locked, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def first_phone():
        try:
            with transaction.atomic():
                Registration.objects.select_for_update().get(pk=anna.pk)
                locked.set()
                release.wait(timeout=20)
                checkin_set(registration=Registration.objects.get(pk=anna.pk), here=True, by=scorer)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    def second_phone():
        try:
            # Loaded before the first saved: it still reads "registered".
            stale = Registration.objects.get(pk=anna.pk)
            checkin_set(registration=stale, here=True, by=scorer)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    one = threading.Thread(target=first_phone)
    one.start()
    assert locked.wait(timeout=20)
    two = threading.Thread(target=second_phone)
    two.start()
    assert waiting_for_a_lock()
    release.set()
    one.join(timeout=30)
    two.join(timeout=30)
    assert not errors, errors
    anna.refresh_from_db()
    assert anna.status == RegistrationStatus.CHECKED_IN
    # Its registration, then one check-in: the second tap recorded nothing.
    assert list(
        RegistrationChange.objects.filter(registration=anna)
        .order_by("pk")
        .values_list("old_status", "new_status")
    ) == [("", "registered"), ("registered", "checked_in")]
