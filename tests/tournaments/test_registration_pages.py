"""Self-registration's pages: the public page's Register, the register, confirm and cancel
pages with good and bad links, one's own registrations, the director's list (permissions,
actions, bad input, a constant number of queries), and the rate limit on registering."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.urls import reverse

from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tests.support.registration import guest, open_event
from tournaments.models import (
    Player,
    Registration,
    RegistrationOpenTo,
    RegistrationStatus,
    Role,
)
from tournaments.registration_links import CANCEL, CONFIRM, registration_token

pytestmark = pytest.mark.django_db

S = RegistrationStatus


def url(event, name, *args):
    return reverse(name, args=[event.club.slug, event.pk, *args])


def link_in(message) -> str:
    path = next(word for word in message.body.split() if "/registration/confirm/" in word)
    return path[path.index("/registration/") :]


@pytest.fixture
def event():
    return open_event(capacity=1)


@pytest.fixture
def director(event):
    return MembershipFactory(club=event.club, role=Role.DIRECTOR).user


def test_the_public_page_offers_register_with_the_places_then_the_waitlist(client, event):
    page = client.get(event.get_absolute_url()).content.decode()
    assert "1 place left of 1" in page and ">Register<" in page
    guest(event, "Ann")
    page = client.get(event.get_absolute_url()).content.decode()
    assert "0 places left of 1" in page and "Join the waitlist" in page


def test_an_event_closed_to_self_registration_shows_nothing(client, event):
    event.registration_open_to = RegistrationOpenTo.NOBODY
    event.save()
    page = client.get(event.get_absolute_url()).content.decode()
    assert 'id="registration-heading"' not in page
    assert client.get(url(event, "register")).status_code == 200  # says why, no form
    response = client.post(url(event, "register"), {"name": "Ann", "email": "a@x.example"})
    assert "takes no registrations" in response.content.decode()
    assert not Registration.objects.exists()


def test_a_guest_registers_confirms_by_the_mailed_link_and_cancels_by_the_other(
    client, event, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(event, "register"), {"name": "Ann", "email": "ann@mail.example"})
    assert "we mailed a link to ann@mail.example" in response.content.decode()
    registration = Registration.objects.get()
    assert registration.status == S.UNCONFIRMED
    confirm = link_in(mail.outbox[-1])
    assert "Confirm the registration" in client.get(confirm).content.decode()
    registration.refresh_from_db()
    assert registration.status == S.UNCONFIRMED  # opening the link alone confirms nothing
    assert "is registered" in client.post(confirm).content.decode()
    registration.refresh_from_db()
    assert registration.status == S.REGISTERED
    again = client.post(confirm)
    assert again.status_code == 409 and "used already" in again.content.decode()

    cancel = reverse(
        "registration_cancel_link",
        args=[registration_token(registration=registration, salt=CANCEL)],
    )
    assert "Cancel the registration" in client.get(cancel).content.decode()
    client.post(cancel, {"confirm": "yes"})
    registration.refresh_from_db()
    assert registration.status == S.CANCELLED
    reused = client.post(cancel, {"confirm": "yes"})
    assert reused.status_code == 409 and "nothing to cancel" in reused.content.decode()
    assert registration.changes.filter(new_status=S.CANCELLED).count() == 1


@pytest.mark.parametrize("name", ["registration_confirm", "registration_cancel_link"])
def test_a_forged_link_says_so_and_changes_nothing(client, event, name):
    registration = guest(event, "Ann")
    other_salt = CANCEL if name == "registration_confirm" else CONFIRM
    for token in [
        "forged",
        "1:abc:def",
        registration_token(registration=registration, salt=other_salt),
    ]:
        response = client.post(reverse(name, args=[token]), {"confirm": "yes"})
        assert response.status_code == 400
        assert "not valid" in response.content.decode()
    registration.refresh_from_db()
    assert registration.status == S.REGISTERED


def test_bad_input_is_shown_next_to_the_field(client, event):
    response = client.post(url(event, "register"), {"name": " ", "email": "not-an-address"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "This field is required." in page and "valid email" in page
    assert not Registration.objects.exists()


def test_a_member_taps_once_and_cancels_from_my_registrations(client):
    club = ClubFactory()
    event = open_event(club, open_to=RegistrationOpenTo.MEMBERS)
    member = MembershipFactory(club=club, role=Role.MEMBER, user__email="m@x.example").user
    client.force_login(member)
    client.post(url(event, "register"))
    registration = Registration.objects.get()
    assert registration.status == S.REGISTERED
    public = client.get(event.get_absolute_url()).content.decode()
    assert "Your registration: registered." in public and ">Register<" not in public
    assert "My registrations" in client.get(reverse("account")).content.decode()
    page = client.get(reverse("my_registrations")).content.decode()
    assert "Friday" in page
    cancel = reverse("my_registration_cancel", args=[registration.pk])
    assert "Cancel the registration" in client.post(cancel).content.decode()  # asks first
    registration.refresh_from_db()
    assert registration.status == S.REGISTERED
    client.post(cancel, {"confirm": "yes"})
    registration.refresh_from_db()
    assert registration.status == S.CANCELLED
    assert registration.changes.last().changed_by == member


def test_someone_elses_registration_cannot_be_cancelled(client, event):
    registration = guest(event, "Ann")
    client.force_login(UserFactory())
    response = client.post(
        reverse("my_registration_cancel", args=[registration.pk]), {"confirm": "yes"}
    )
    assert response.status_code == 404


def test_my_registrations_says_what_to_do_when_empty(client):
    client.force_login(UserFactory())
    assert "press Register" in client.get(reverse("my_registrations")).content.decode()


@pytest.mark.rate_limited
def test_a_flood_of_registrations_from_one_address_is_stopped(client, event):
    codes = [
        client.post(
            url(event, "register"), {"name": f"P{n}", "email": f"p{n}@x.example"}
        ).status_code
        for n in range(12)
    ]
    assert codes[:10] == [200] * 10 and codes[10:] == [429, 429]
    assert Registration.objects.count() == 10


# -- the director's list --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("outsider", 403), ("member", 403), ("director", 200)]
)
def test_only_directors_see_the_list(client, event, director, who, status):
    users = {
        "outsider": UserFactory(),
        "member": MembershipFactory(club=event.club, role=Role.MEMBER).user,
        "director": director,
    }
    if who in users:
        client.force_login(users[who])
    assert client.get(url(event, "registration_list")).status_code == status
    response = client.post(url(event, "registration_add"), {"name": "X", "email": "x@x.example"})
    assert response.status_code == (302 if who in ("anonymous", "director") else 403)
    assert Registration.objects.exists() == (who == "director")


def test_the_list_shows_rows_filters_and_history_in_constant_queries(
    client, event, director, django_assert_max_num_queries
):
    client.force_login(director)
    guest(event, "Ann")
    guest(event, "Bea")
    with django_assert_max_num_queries(40) as few:
        client.get(url(event, "registration_list"))
    for n in range(15):
        guest(event, f"Guest{n}")
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = client.get(url(event, "registration_list")).content.decode()
    assert "Guest14" in page
    # Places first, then the waitlist in its order.
    assert page.index("Ann") < page.index("Bea") < page.index("Guest0") < page.index("Guest14")
    waiting = client.get(url(event, "registration_list"), {"status": "waitlisted"})
    text = waiting.content.decode()
    assert "Bea" in text and ">Ann<" not in text
    assert "e-mail not confirmed → on the waitlist · address confirmed" in text  # its history


def test_the_director_acts_on_rows_and_removal_asks_first(client, event, director):
    client.force_login(director)
    ann, bea = guest(event, "Ann"), guest(event, "Bea")
    client.post(url(event, "registration_act", bea.pk), {"action": "place"})
    bea.refresh_from_db()
    assert bea.status == S.REGISTERED
    asked = client.post(url(event, "registration_act", ann.pk), {"action": "remove"})
    assert "Remove Ann" in asked.content.decode()
    ann.refresh_from_db()
    assert ann.status == S.REGISTERED
    client.post(url(event, "registration_act", ann.pk), {"action": "remove", "confirm": "yes"})
    ann.refresh_from_db()
    assert ann.status == S.WITHDRAWN
    refused = client.post(
        url(event, "registration_act", ann.pk), {"action": "approve"}, follow=True
    )
    assert "awaiting approval can be approved" in refused.content.decode()
    bad = client.post(url(event, "registration_act", ann.pk), {"action": "explode"}, follow=True)
    assert "Unknown action" in bad.content.decode()


def test_settings_are_saved_in_the_clubs_time_zone_and_bad_ones_refused(client, event, director):
    client.force_login(director)
    form = {"open_to": "members", "opens_at": "2030-01-02T18:00", "capacity": "12"}
    client.post(url(event, "registration_settings"), form)
    event.refresh_from_db()
    assert event.registration_open_to == RegistrationOpenTo.MEMBERS
    assert event.capacity == 12
    assert event.registration_opens_at == datetime.datetime(
        2030, 1, 2, 16, 0, tzinfo=datetime.UTC
    )  # Helsinki is UTC+2 in winter
    bad = dict(form, closes_at="2030-01-01T10:00", capacity="-3")
    response = client.post(url(event, "registration_settings"), bad)
    assert response.status_code == 400
    event.refresh_from_db()
    assert event.capacity == 12
    assert "greater than or equal to 1" in response.content.decode()


def test_the_manage_page_counts_and_links_to_the_list(client, event, director):
    client.force_login(director)
    guest(event, "Ann")
    guest(event, "Bea")
    page = client.get(url(event, "event_manage")).content.decode()
    assert "Places taken: 1 of 1" in page and "waiting: 1" in page
    assert url(event, "registration_list") in page


def test_the_manage_pages_player_form_still_registers(client, event, director):
    client.force_login(director)
    player = Player.objects.create(club=event.club, name="Pia")
    client.post(url(event, "registration_create"), {"player": player.pk})
    assert Registration.objects.get(player=player).status == S.CHECKED_IN
