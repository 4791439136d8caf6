"""Invitations under concurrent use, on PostgreSQL: an accept that meets another accept
(or a revoke) of the same link waits for it, then is refused; one membership, never two."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from rules import RuleViolation
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tests.support.locks import waiting_for_a_lock
from tournaments.joining import invitation_accept, invitation_create
from tournaments.models import Invitation, Membership, Role

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("first", ["accept", "revoke"])
def test_a_second_use_of_one_link_waits_then_is_refused(first):
    club = ClubFactory()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    invitation = invitation_create(club=club, email="a@club.example", role=Role.SCORER, by=director)
    one, two = UserFactory(), UserFactory()
    locked, release = threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def first_use():
        try:
            with transaction.atomic():
                Invitation.objects.select_for_update().get(pk=invitation.pk)
                locked.set()
                release.wait(timeout=20)
                if first == "accept":
                    invitation_accept(invitation=invitation, user=one)
                else:
                    Invitation.objects.filter(pk=invitation.pk).update(
                        revoked_at=invitation.created_at
                    )
        finally:
            connection.close()

    def second_use():
        try:
            outcome["second"] = invitation_accept(invitation=invitation, user=two)
        except Exception as error:
            outcome["second"] = error
        finally:
            connection.close()

    holder = threading.Thread(target=first_use)
    holder.start()
    assert locked.wait(timeout=10)
    other = threading.Thread(target=second_use)
    other.start()
    try:
        assert waiting_for_a_lock()
    finally:
        release.set()
        holder.join(timeout=30)
        other.join(timeout=30)
    assert isinstance(outcome["second"], RuleViolation), outcome
    assert (
        outcome["second"].code
        == {"accept": "invitation_accepted", "revoke": "invitation_revoked"}[first]
    )
    assert not Membership.objects.filter(user=two).exists()
    assert Membership.objects.filter(user=one).exists() == (first == "accept")
