"""Self-registration's services: the refusals, places and the waitlist, confirmation,
approval, cancelling and promotion, the director's actions, and what each one records (a
RegistrationChange per step, a Notice per mail)."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
from django.core import mail
from django.utils import timezone

from rules import RuleViolation
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tests.support.registration import anonymous, guest, open_event
from tournaments.models import (
    NoticeKind,
    Player,
    Registration,
    RegistrationChange,
    RegistrationOpenTo,
    RegistrationStatus,
    Role,
)
from tournaments.registration import (
    places_left,
    registration_cancel,
    registration_confirm,
    registration_counts,
    registration_director_act,
    registration_director_add,
    registration_refusal,
    registration_self_add,
    registration_settings_set,
    waitlist,
)
from tournaments.registration_links import (
    CANCEL,
    CONFIRM,
    LinkRefused,
    registration_from_token,
    registration_token,
)
from tournaments.selectors import event_registrations, registerable_players
from tournaments.services import registration_add, registration_guest_add, registration_status_set

pytestmark = pytest.mark.django_db

S = RegistrationStatus


def kinds(registration):
    return list(registration.notices.order_by("pk").values_list("kind", flat=True))


def steps(registration):
    return list(registration.changes.values_list("old_status", "new_status"))


# -- refusals -------------------------------------------------------------------------------------


def test_an_event_not_opened_takes_no_self_registration():
    event = open_event(open_to=RegistrationOpenTo.NOBODY)
    refusal = registration_refusal(event=event, user=anonymous())
    assert refusal is not None and refusal.code == "registration_closed_to_all"
    with pytest.raises(RuleViolation):
        registration_self_add(event=event, user=anonymous(), name="Ann", email="a@x.example")
    assert not Registration.objects.exists()


@pytest.mark.parametrize(
    ("opens", "closes", "code"),
    [(1, None, "registration_not_open"), (None, -1, "registration_over")],
)
def test_registration_before_it_opens_or_after_it_closes_is_refused(opens, closes, code):
    event = open_event()
    now = timezone.now()
    hours = datetime.timedelta(hours=1)
    event = registration_settings_set(
        event=event,
        open_to=RegistrationOpenTo.ANYONE,
        opens_at=now + opens * hours if opens else None,
        closes_at=now + closes * hours if closes else None,
        capacity=None,
        approval=False,
    )
    refusal = registration_refusal(event=event, user=anonymous())
    assert refusal is not None and refusal.code == code


def test_a_started_or_past_event_refuses():
    event = open_event()
    event.date = timezone.localdate() - datetime.timedelta(days=1)
    event.save()
    assert registration_refusal(event=event, user=anonymous()).code == "registration_started"


def test_members_only_refuses_the_signed_out_and_outsiders_but_not_members():
    club = ClubFactory()
    event = open_event(club, open_to=RegistrationOpenTo.MEMBERS)
    member = MembershipFactory(club=club, role=Role.MEMBER).user
    assert registration_refusal(event=event, user=anonymous()).code == "registration_sign_in"
    assert registration_refusal(event=event, user=UserFactory()).code == (
        "registration_members_only"
    )
    assert registration_refusal(event=event, user=member) is None


def test_closing_before_opening_is_refused():
    event = open_event()
    now = timezone.now()
    with pytest.raises(RuleViolation) as error:
        registration_settings_set(
            event=event,
            open_to=RegistrationOpenTo.ANYONE,
            opens_at=now,
            closes_at=now - datetime.timedelta(minutes=1),
            capacity=None,
            approval=False,
        )
    assert error.value.field == "closes_at"


# -- places, the waitlist, confirmation ------------------------------------------------------------


def test_a_guest_holds_no_place_until_the_mailed_link_confirms(django_capture_on_commit_callbacks):
    event = open_event(capacity=1)
    with django_capture_on_commit_callbacks(execute=True):
        registration = registration_self_add(
            event=event, user=anonymous(), name="Ann", email="ann@mail.example"
        )
    assert registration.status == S.UNCONFIRMED
    assert places_left(event=event) == 1
    assert mail.outbox[-1].to == ["ann@mail.example"]
    assert "/registration/confirm/" in mail.outbox[-1].body
    assert not event_registrations(event=event).exists()  # not on the manage page's list
    registration = registration_confirm(registration=registration)
    assert registration.status == S.REGISTERED
    assert places_left(event=event) == 0
    assert kinds(registration) == [NoticeKind.RECEIVED]
    assert steps(registration) == [("", S.UNCONFIRMED), (S.UNCONFIRMED, S.REGISTERED)]


def test_a_confirmation_link_works_once():
    event = open_event()
    registration = registration_self_add(
        event=event, user=anonymous(), name="Ann", email="ann@mail.example"
    )
    registration_confirm(registration=registration)
    with pytest.raises(RuleViolation) as error:
        registration_confirm(registration=registration)
    assert error.value.code == "link_used"
    assert registration.changes.count() == 2


def test_the_full_event_waitlists_in_order_and_a_cancellation_promotes_the_first():
    event = open_event(capacity=1)
    first = guest(event, "Ann")
    second = guest(event, "Bea")
    third = guest(event, "Cid")
    assert (first.status, second.status, third.status) == (S.REGISTERED, S.WAITLISTED, S.WAITLISTED)
    assert list(waitlist(event=event)) == [second, third]
    assert kinds(second) == [NoticeKind.WAITLISTED]

    registration_cancel(registration=first, by=None)

    second.refresh_from_db()
    third.refresh_from_db()
    assert (second.status, third.status) == (S.REGISTERED, S.WAITLISTED)
    assert second.waitlisted_at is None
    promotion = second.changes.last()
    assert (promotion.new_status, promotion.changed_by) == (S.REGISTERED, None)
    assert kinds(second) == [NoticeKind.WAITLISTED, NoticeKind.PROMOTED]
    first.refresh_from_db()
    assert first.status == S.CANCELLED
    assert kinds(first)[-1] == NoticeKind.CANCELLED


def test_a_second_cancel_changes_nothing():
    event = open_event()
    registration = guest(event, "Ann")
    registration_cancel(registration=registration, by=None)
    with pytest.raises(RuleViolation):
        registration_cancel(registration=registration, by=None)
    assert registration.changes.filter(new_status=S.CANCELLED).count() == 1


def test_cancelling_from_the_waitlist_promotes_no_one():
    event = open_event(capacity=1)
    guest(event, "Ann")
    waiting = guest(event, "Bea")
    last = guest(event, "Cid")
    registration_cancel(registration=waiting, by=None)
    last.refresh_from_db()
    assert last.status == S.WAITLISTED


def test_more_places_promote_the_waitlist_at_once():
    event = open_event(capacity=1)
    guest(event, "Ann")
    waiting = guest(event, "Bea")
    registration_settings_set(
        event=event,
        open_to=RegistrationOpenTo.ANYONE,
        opens_at=None,
        closes_at=None,
        capacity=2,
        approval=False,
    )
    waiting.refresh_from_db()
    assert waiting.status == S.REGISTERED


def test_a_returning_guest_is_the_same_player():
    club = ClubFactory()
    first = guest(open_event(club), "Ann", "Ann@Mail.example")
    again = guest(open_event(club), "Ann Again", "ann@mail.example")
    assert again.player_id == first.player_id
    assert Player.objects.filter(club=club).count() == 1


def test_registering_twice_is_refused():
    event = open_event()
    guest(event, "Ann")
    with pytest.raises(RuleViolation) as error:
        registration_self_add(event=event, user=anonymous(), name="Ann", email="ann@mail.example")
    assert error.value.code == "already"


def test_a_member_registers_with_one_tap_and_their_account_address():
    club = ClubFactory()
    event = open_event(club, open_to=RegistrationOpenTo.MEMBERS)
    member = MembershipFactory(
        club=club, role=Role.MEMBER, user__email="mia@mail.example", user__first_name="Mia"
    ).user
    registration = registration_self_add(event=event, user=member)
    assert registration.status == S.REGISTERED
    assert registration.email == "mia@mail.example"
    assert registration.player.user == member and not registration.player.guest
    assert registration.changes.first().changed_by == member


# -- approval and the director's actions -----------------------------------------------------------


def test_approval_keeps_a_confirmed_registration_pending_until_a_director_approves():
    club = ClubFactory()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    event = open_event(club, capacity=1, approval=True)
    first, second = guest(event, "Ann"), guest(event, "Bea")
    assert (first.status, second.status) == (S.PENDING, S.PENDING)
    assert places_left(event=event) == 1
    registration_director_act(registration=first, action="approve", by=director)
    registration_director_act(registration=second, action="approve", by=director)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == (S.REGISTERED, S.WAITLISTED)
    assert first.approved_by == director
    assert kinds(first) == [NoticeKind.RECEIVED, NoticeKind.APPROVED]
    assert kinds(second) == [NoticeKind.RECEIVED, NoticeKind.WAITLISTED]
    assert first.changes.last().changed_by == director


def test_director_moves_to_the_waitlist_gives_places_and_removes_after_asking():
    club = ClubFactory()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    event = open_event(club, capacity=1)
    ann, bea = guest(event, "Ann"), guest(event, "Bea")
    registration_director_act(registration=ann, action="waitlist", by=director)
    ann.refresh_from_db()
    bea.refresh_from_db()
    # Bea waited first: the place Ann left is hers, and Ann waits behind.
    assert (ann.status, bea.status) == (S.WAITLISTED, S.REGISTERED)
    registration_director_act(registration=ann, action="place", by=director)
    ann.refresh_from_db()
    assert ann.status == S.REGISTERED  # over the capacity: the director's choice
    assert registration_counts(event=event).taken == 2
    with pytest.raises(RuleViolation):
        registration_director_act(registration=ann, action="remove", by=director)
    registration_director_act(registration=ann, action="remove", by=director, confirmed=True)
    ann.refresh_from_db()
    assert ann.status == S.WITHDRAWN
    with pytest.raises(RuleViolation):
        registration_director_act(registration=ann, action="approve", by=director)


def test_director_adds_by_name_and_address_over_the_capacity():
    club = ClubFactory()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    event = open_event(club, capacity=1)
    guest(event, "Ann")
    added = registration_director_add(event=event, name="Dan", email="dan@x.example", by=director)
    assert added.status == S.REGISTERED
    assert kinds(added) == [NoticeKind.APPROVED]
    with pytest.raises(RuleViolation):
        registration_director_add(event=event, name="Dan", email="dan@x.example", by=director)


# -- the one rule of a place, and the existing services recording their steps ---------------------


def test_no_one_without_a_place_is_an_entrant_and_the_picker_offers_them_again():
    event = open_event(capacity=1)
    guest(event, "Ann")
    waiting = guest(event, "Bea")
    assert waiting.player in registerable_players(event=event, search="Bea")
    assert waiting not in event_registrations(event=event)
    revived = registration_add(event=event, player=waiting.player, checked_in=True)
    assert revived.status == S.CHECKED_IN
    assert revived.waitlisted_at is None


def test_the_directors_existing_services_record_every_step():
    club = ClubFactory()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    event = open_event(club)
    registration = registration_guest_add(event=event, name="Gus", checked_in=False)
    registration_status_set(registration=registration, status=S.CHECKED_IN, by=director)
    registration_status_set(
        registration=registration, status=S.WITHDRAWN, confirmed=True, by=director
    )
    registration_add(event=event, player=registration.player, by=director)
    assert steps(registration) == [
        ("", S.REGISTERED),
        (S.REGISTERED, S.CHECKED_IN),
        (S.CHECKED_IN, S.WITHDRAWN),
        (S.WITHDRAWN, S.REGISTERED),
    ]
    assert RegistrationChange.objects.filter(changed_by=director).count() == 3


# -- links --------------------------------------------------------------------------------------


def test_a_forged_or_other_kind_of_link_is_refused():
    event = open_event()
    registration = guest(event, "Ann")
    token = registration_token(registration=registration, salt=CANCEL)
    assert registration_from_token(token=token, salt=CANCEL) == registration
    for bad, salt in [(token, CONFIRM), (token[:-1] + "x", CANCEL), ("1", CANCEL)]:
        with pytest.raises(LinkRefused):
            registration_from_token(token=bad, salt=salt)


def test_an_expired_confirmation_link_is_refused():
    event = open_event()
    registration = registration_self_add(
        event=event, user=anonymous(), name="Ann", email="ann@mail.example"
    )
    token = registration_token(registration=registration, salt=CONFIRM)
    later = timezone.now() + datetime.timedelta(days=3)
    with (
        mock.patch("django.core.signing.time.time", return_value=later.timestamp()),
        pytest.raises(LinkRefused) as error,
    ):
        registration_from_token(token=token, salt=CONFIRM)
    assert "expired" in error.value.message
