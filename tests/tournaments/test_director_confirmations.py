"""What a director cannot take back is asked first, without script (tournaments.confirm):
a withdrawal here; finishing the event and freeing a seat in
tests/scoring/test_seats_and_finish.py. And a correction says why, in the history."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules import RuleViolation
from scoring.models import Deal, DealAction, DealVersion
from tests.support.entry import deal_post, seated_client
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Player, RegistrationStatus, Role
from tournaments.services import registration_add, registration_status_set

pytestmark = pytest.mark.django_db

LONG_NAME = "Kristiina Väisänen-Lindqvist"


def _director(client, event):
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    return client


def test_a_withdrawal_is_asked_first_and_refused_unconfirmed(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    player = Player.objects.create(club=event.club, name=LONG_NAME)
    registration = registration_add(event=event, player=player, checked_in=True)
    with pytest.raises(RuleViolation):
        registration_status_set(registration=registration, status="withdrawn")
    url = reverse("registration_update", args=[event.club.slug, event.pk, registration.pk])
    asked = _director(client, event).post(url, {"status": "withdrawn"})
    assert asked.status_code == 200
    html = asked.content.decode()
    assert f"Withdraw {LONG_NAME} from {event.name}?" in html
    assert 'name="status" value="withdrawn"' in html and 'name="confirm" value="yes"' in html
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.CHECKED_IN
    # Only "yes" confirms; anything else asks again.
    client.post(url, {"status": "withdrawn", "confirm": "1"})
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.CHECKED_IN
    assert client.post(url, {"status": "withdrawn", "confirm": "yes"}).status_code == 302
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.WITHDRAWN
    # Checking back in is no loss, and is not asked.
    assert client.post(url, {"status": "checked_in"}).status_code == 302
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.CHECKED_IN


def test_a_correction_keeps_its_reason_in_the_history(client):
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    alice, bob = seated_client(table, 0), seated_client(table, 1)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    bob.post(
        reverse("deal_confirm", args=[table.entry_key, 1]),
        {"expected_version": 1, "request_id": "c1"},
    )
    director = _director(client, event)
    deal = Deal.objects.get()
    form = director.get(reverse("deal_edit", args=[table.entry_key, 1])).content.decode()
    assert 'id="correction-reason"' in form
    reason = "Scoresheet said 7H, not AS"
    director.post(
        reverse("deal_save", args=[table.entry_key, 1]),
        deal_post(hands=("", "AS", "7H", "QS"), request_id="d1", expected=deal.version,
                  reason=reason),
    )  # fmt: skip
    correction = DealVersion.objects.get(action=DealAction.CORRECT)
    assert correction.note == reason
    assert correction.by_user is not None
    history = director.get(reverse("table_history", args=[event.club.slug, event.pk, table.pk]))
    html = history.content.decode()
    # In the correction's row of the deal's history table (not only in a form).
    assert re.search(rf"<td[^>]*>{reason}</td>", html), html


def test_a_refused_correction_keeps_its_reason_on_the_page(client):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    alice = seated_client(table, 0)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    response = alice.post(
        reverse("deal_save", args=[table.entry_key, 1]),
        deal_post(hands=("", "AS ZZ", "7H", "QS"), request_id="r2", expected=1,
                  reason="Mervi miscounted"),
    )  # fmt: skip
    assert response.status_code == 422
    assert 'value="Mervi miscounted"' in response.content.decode()


def test_a_finished_events_manage_page_offers_no_withdrawal_or_check_in(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    _director(client, event)
    assert 'name="status" value="withdrawn"' in client.get(manage).content.decode()
    event.status = "finished"
    event.save(update_fields=["status"])
    page = client.get(manage).content.decode()
    assert 'name="status" value="withdrawn"' not in page
    assert 'name="status" value="checked_in"' not in page
