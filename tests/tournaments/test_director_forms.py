"""The director's posts go through forms limited to the event: another event's seat or
another club's player is no choice at all."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Player, Role, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk():
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    client = Client()
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    return client, event, table


def test_a_seat_of_another_event_cannot_be_swapped_in(desk):
    client, event, table = desk
    _other, (elsewhere,) = seated_event(variant_id="rutupeli", players=4, club=event.club)
    mine, theirs = table.seats.first(), elsewhere.seats.first()
    before = (mine.player_id, theirs.player_id)
    response = client.post(
        reverse("seats_swap", args=[event.club.slug, event.pk]),
        {"first": mine.pk, "second": theirs.pk},
        follow=True,
    )
    assert "Pick two different seats to swap." in response.content.decode()
    assert (
        Seat.objects.get(pk=mine.pk).player_id,
        Seat.objects.get(pk=theirs.pk).player_id,
    ) == before


def test_another_clubs_player_cannot_be_checked_in(desk):
    client, event, _table = desk
    _other_event, _tables = seated_event(variant_id="rutupeli", players=3)
    stranger = Player.objects.exclude(club=event.club).first()
    response = client.post(
        reverse("registration_create", args=[event.club.slug, event.pk]),
        {"player": stranger.pk},
        follow=True,
    )
    assert "Pick a player or type a guest&#x27;s name." in response.content.decode()
    assert not event.registrations.filter(player=stranger).exists()


def test_a_guest_is_checked_in_by_name(desk):
    client, event, _table = desk
    client.post(
        reverse("registration_create", args=[event.club.slug, event.pk]), {"name": "  Vieras  "}
    )
    assert event.registrations.filter(player__name="Vieras").exists()


def test_a_visiting_guest_keeps_the_club_typed_with_the_name(desk):
    client, event, _table = desk
    client.post(
        reverse("registration_create", args=[event.club.slug, event.pk]),
        {"name": "Vilma", "home_club": " Oulun Rommi "},
    )
    guest = event.registrations.get(player__name="Vilma").player
    assert guest.guest and guest.home_club == "Oulun Rommi"
