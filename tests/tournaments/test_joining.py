"""A club starts and people join it: club_create and the invitation services (who may
invite whom, expiry, single use, revoking, roles never lowered, a roster player claimed),
their mail (queued on commit, in the invitee's language), and their pages."""

from __future__ import annotations

import datetime
import re
from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from demo.invitations import demo_invitations
from rules import RuleViolation
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments import tasks as tournament_tasks
from tournaments.joining import (
    club_create,
    invitable_roles,
    invitation_accept,
    invitation_create,
    invitation_revoke,
)
from tournaments.models import (
    Club,
    Invitation,
    InvitationStatus,
    Membership,
    MembershipChange,
    Player,
    Profile,
    Role,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(club):
    return MembershipFactory(club=club, role=Role.DIRECTOR).user


@pytest.fixture
def invitee(db):
    return UserFactory(username="ilona", email="ilona@club.example")


def _invite(club, by, role=Role.MEMBER, email="ilona@club.example", **kwargs):
    return invitation_create(club=club, email=email, role=role, by=by, **kwargs)


def _link(message) -> str:
    found = re.search(re.escape(settings.SITE_URL) + r"(/invite/\S+/)", message.body)
    assert found, message.body
    return found[1]


# --- club_create -----------------------------------------------------------------------


def test_starting_a_club_makes_its_owner_and_records_it(user_factory):
    person = user_factory(username="aino")
    club = club_create(
        name="Kerho", slug="kerho", language="hu", time_zone="Europe/Budapest", by=person
    )
    assert (club.language, club.time_zone) == ("hu", "Europe/Budapest")
    membership = Membership.objects.get(club=club, user=person)
    assert membership.role == Role.OWNER
    change = MembershipChange.objects.get(club=club)
    assert (change.user, change.changed_by, change.old_role, change.new_role) == (
        person,
        person,
        "",
        Role.OWNER,
    )
    assert Player.objects.filter(club=club, user=person).exists()
    assert club.member_count == 1


def test_a_taken_or_reserved_address_is_refused(club, user_factory):
    person = user_factory()
    for slug in (club.slug, "new"):
        with pytest.raises(RuleViolation) as refused:
            club_create(name="X", slug=slug, language="fi", by=person)
        assert refused.value.code == "slug_taken"
    assert Club.objects.count() == 1


# --- who may invite whom -----------------------------------------------------------------


def test_roles_follow_the_inviters_rank(club, owner, director, member):
    assert invitable_roles(club=club, user=owner) == list(Role)
    assert invitable_roles(club=club, user=director) == [Role.DIRECTOR, Role.SCORER, Role.MEMBER]
    assert invitable_roles(club=club, user=member) == []
    with pytest.raises(RuleViolation):
        _invite(club, director, role=Role.OWNER)
    with pytest.raises(RuleViolation):
        _invite(club, member)
    assert _invite(club, owner, role=Role.OWNER).role == Role.OWNER


def test_one_waiting_invitation_per_address(club, director):
    _invite(club, director)
    with pytest.raises(RuleViolation) as refused:
        _invite(club, director, email="ILONA@club.example")
    assert refused.value.code == "already_invited"


def test_a_member_with_the_role_already_is_not_invited_again(club, director, member):
    member.email = "m@club.example"
    member.save()
    with pytest.raises(RuleViolation) as refused:
        _invite(club, director, email="m@club.example", role=Role.MEMBER)
    assert refused.value.code == "already_member"
    assert _invite(club, director, email="m@club.example", role=Role.SCORER)


# --- accepting -----------------------------------------------------------------------------


def test_accepting_makes_a_member_and_records_who_invited(club, director, invitee):
    invitation = _invite(club, director, role=Role.SCORER)
    membership = invitation_accept(invitation=invitation, user=invitee)
    assert membership.role == Role.SCORER
    invitation.refresh_from_db()
    assert invitation.accepted_by == invitee and invitation.status == InvitationStatus.ACCEPTED
    change = MembershipChange.objects.filter(user=invitee).get()
    assert (change.changed_by, change.new_role) == (director, Role.SCORER)


def test_a_token_is_used_once(club, director, invitee, user_factory):
    invitation = _invite(club, director)
    invitation_accept(invitation=invitation, user=invitee)
    with pytest.raises(RuleViolation) as refused:
        invitation_accept(invitation=invitation, user=user_factory())
    assert refused.value.code == "invitation_accepted"


def test_an_expired_invitation_is_refused(club, director, invitee):
    invitation = _invite(club, director)
    later = timezone.now() + datetime.timedelta(days=7, seconds=1)
    with pytest.raises(RuleViolation) as refused:
        invitation_accept(invitation=invitation, user=invitee, now=later)
    assert refused.value.code == "invitation_expired"
    assert not Membership.objects.filter(user=invitee).exists()
    # A day before it runs out it still works.
    soon = timezone.now() + datetime.timedelta(days=6)
    assert invitation_accept(invitation=invitation, user=invitee, now=soon).role == Role.MEMBER


def test_a_revoked_invitation_is_refused(club, director, invitee):
    invitation = _invite(club, director)
    invitation_revoke(invitation=invitation, by=director)
    with pytest.raises(RuleViolation) as refused:
        invitation_accept(invitation=invitation, user=invitee)
    assert refused.value.code == "invitation_revoked"
    with pytest.raises(RuleViolation):
        invitation_revoke(invitation=invitation, by=director)  # twice: said, not done again


def test_a_director_cannot_revoke_an_owners_invitation(club, owner, director):
    invitation = _invite(club, owner, role=Role.OWNER)
    with pytest.raises(RuleViolation):
        invitation_revoke(invitation=invitation, by=director)
    assert Invitation.objects.get().revoked_at is None


def test_a_role_is_raised_never_lowered(club, director, owner, invitee):
    MembershipFactory(club=club, user=invitee, role=Role.SCORER)
    raised = invitation_accept(invitation=_invite(club, director, role=Role.DIRECTOR), user=invitee)
    assert raised.role == Role.DIRECTOR
    kept = invitation_accept(
        invitation=_invite(club, owner, role=Role.SCORER, email="x@club.example"), user=invitee
    )
    assert kept.role == Role.DIRECTOR
    assert Membership.objects.get(club=club, user=invitee).role == Role.DIRECTOR


def test_the_invited_player_is_claimed_with_their_history(club, director, invitee):
    player = Player.objects.create(club=club, name="Ilona Kovács")
    invitation_accept(invitation=_invite(club, director, player=player), user=invitee)
    player.refresh_from_db()
    assert player.user == invitee
    assert Player.objects.filter(club=club, user=invitee).count() == 1  # no second player


def test_a_person_with_a_player_already_cannot_claim_another(club, director, invitee):
    MembershipFactory(club=club, user=invitee, role=Role.MEMBER)  # has a player now
    player = Player.objects.create(club=club, name="Ilona K")
    invitation = _invite(club, director, player=player, role=Role.SCORER)
    with pytest.raises(RuleViolation) as refused:
        invitation_accept(invitation=invitation, user=invitee)
    assert refused.value.code == "has_player"
    player.refresh_from_db()
    assert player.user is None
    assert Membership.objects.get(club=club, user=invitee).role == Role.MEMBER
    assert Invitation.objects.get().accepted_at is None


def test_a_player_with_an_account_cannot_be_invited(club, director, member):
    player = Player.objects.get(club=club, user=member)
    with pytest.raises(RuleViolation):
        _invite(club, director, player=player)
    other = ClubFactory()
    with pytest.raises(RuleViolation):
        _invite(club, director, player=Player.objects.create(club=other, name="Elsewhere"))


# --- the mail ----------------------------------------------------------------------------


def test_the_mail_waits_for_the_commit(club, director, django_capture_on_commit_callbacks):
    with mock.patch.object(tournament_tasks.invitation_mail_task, "delay") as delay:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            invitation = _invite(club, director)
        delay.assert_not_called()
        for callback in callbacks:
            callback()
    delay.assert_called_once_with(invitation.pk)  # an id: the queue never holds the token


def test_the_mail_is_in_the_clubs_language_for_a_stranger(
    club, director, django_capture_on_commit_callbacks
):
    club.language = "hu"
    club.save()
    with django_capture_on_commit_callbacks(execute=True):
        invitation = _invite(club, director, email="new@club.example")
    (message,) = mail.outbox
    assert message.to == ["new@club.example"]
    assert message.subject.startswith("Lappu: meghívó")
    assert _link(message) == reverse("invitation_accept", args=[invitation.token])


def test_the_mail_is_in_the_invitees_own_language(
    club, director, invitee, django_capture_on_commit_callbacks
):
    Profile.objects.create(user=invitee, language="fi")
    with django_capture_on_commit_callbacks(execute=True):
        _invite(club, director)
    assert mail.outbox[0].subject.startswith("Lappu: kutsu")


def test_a_queue_that_is_down_still_mails(club, director, django_capture_on_commit_callbacks):
    with (
        mock.patch.object(
            tournament_tasks.invitation_mail_task, "delay", side_effect=OperationalError("down")
        ),
        django_capture_on_commit_callbacks(execute=True),
    ):
        _invite(club, director)
    assert len(mail.outbox) == 1


def test_a_revoked_invitation_is_not_mailed_late(club, director):
    invitation = _invite(club, director)
    invitation_revoke(invitation=invitation, by=director)
    tournament_tasks.invitation_mail_task.apply(args=[invitation.pk])
    assert mail.outbox == []


# --- pages -------------------------------------------------------------------------------


def test_a_new_club_is_not_offered_an_empty_player_list(client, club, director):
    client.force_login(director)
    page = client.get(reverse("invitation_new", args=[club.slug])).content.decode()
    assert 'name="player"' not in page


def test_start_a_club_page(client, user_factory):
    person = user_factory(username="aino")
    client.force_login(person)
    assert client.get(reverse("club_start")).status_code == 200
    response = client.post(
        reverse("club_start"),
        {
            "name": "Römi  Klubi Ääkkönen",
            "slug": "",
            "language": "fi",
            "time_zone": "Europe/Helsinki",
        },
    )
    club = Club.objects.get()
    assert club.slug == "romi-klubi-aakkonen" and club.name == "Römi Klubi Ääkkönen"
    assert response.status_code == 302 and response["Location"] == club.get_absolute_url()
    page = client.get(response["Location"]).content.decode()
    assert reverse("invitation_new", args=[club.slug]) in page  # the next steps
    assert reverse("season_new", args=[club.slug]) in page


@pytest.mark.parametrize(
    "data",
    [
        {"name": "", "slug": "", "language": "fi", "time_zone": "Europe/Helsinki"},
        {"name": "X", "slug": "taken", "language": "fi", "time_zone": "Europe/Helsinki"},
        {"name": "X", "slug": "new", "language": "fi", "time_zone": "Europe/Helsinki"},
        {"name": "Δέλτα", "slug": "", "language": "fi", "time_zone": "Europe/Helsinki"},
        {"name": "X", "slug": "bad slug!", "language": "fi", "time_zone": "Europe/Helsinki"},
        {"name": "X", "slug": "x", "language": "de", "time_zone": "Europe/Helsinki"},
        {"name": "X", "slug": "x", "language": "fi", "time_zone": "Mars/Olympus"},
        {"name": "X" * 500, "slug": "x", "language": "fi", "time_zone": "Europe/Helsinki"},
    ],
)
def test_start_a_club_refuses_bad_input(client, user_factory, data):
    ClubFactory(slug="taken")
    client.force_login(user_factory())
    page = client.post(reverse("club_start"), data)
    assert page.status_code == 200 and 'class="error"' in page.content.decode()
    assert Club.objects.count() == 1


def test_start_a_club_needs_a_verified_account(client, user_factory):
    assert client.get(reverse("club_start")).status_code == 302  # to sign in
    person = user_factory()
    EmailAddress.objects.create(user=person, email="p@club.example", verified=False, primary=True)
    client.force_login(person)
    assert client.get(reverse("club_start")).status_code == 403


def test_invitation_pages_for_directors_only(client, club, director, member, outsider):
    _invite(club, director)
    urls = [
        reverse("invitation_list", args=[club.slug]),
        reverse("invitation_new", args=[club.slug]),
    ]
    for url in urls:
        assert client.get(url).status_code == 302  # sign in first
    for person in (member, outsider):
        client.force_login(person)
        assert [client.get(url).status_code for url in urls] == [403, 403]
    client.force_login(director)
    assert [client.get(url).status_code for url in urls] == [200, 200]


def test_a_director_sends_an_invitation_from_the_page(
    client, club, director, django_capture_on_commit_callbacks
):
    player = Player.objects.create(club=club, name="Ábel Ünőké")
    client.force_login(director)
    page = client.get(reverse("invitation_new", args=[club.slug]) + f"?player={player.pk}")
    assert "Ábel Ünőké" in page.content.decode()
    assert client.get(reverse("invitation_new", args=[club.slug]) + "?player=x'").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("invitation_new", args=[club.slug]),
            {"email": "abel@club.example", "role": "scorer", "player": player.pk},
        )
    assert response.status_code == 302
    invitation = Invitation.objects.get()
    assert (invitation.role, invitation.player) == (Role.SCORER, player)
    assert len(mail.outbox) == 1


@pytest.mark.parametrize(
    "data",
    [
        {"email": "not an address", "role": "member"},
        {"email": "a@club.example", "role": "owner"},  # a director cannot
        {"email": "a@club.example", "role": "king"},
        {"email": "a@club.example", "role": "member", "player": "999999"},
        {"email": "a" * 300 + "@club.example", "role": "member"},
    ],
)
def test_bad_invitations_are_refused_on_the_page(client, club, director, data):
    Player.objects.create(club=club, name="Someone")  # the player list is offered
    client.force_login(director)
    page = client.post(reverse("invitation_new", args=[club.slug]), data)
    assert page.status_code == 200 and 'class="error"' in page.content.decode()
    assert not Invitation.objects.exists()


def test_a_waiting_invitation_again_is_an_error_on_the_form(client, club, director):
    _invite(club, director)
    client.force_login(director)
    page = client.post(
        reverse("invitation_new", args=[club.slug]),
        {"email": "ilona@club.example", "role": "member"},
    )
    assert page.status_code == 200 and "revoke it first" in page.content.decode()


def test_revoking_asks_first(client, club, director):
    invitation = _invite(club, director)
    client.force_login(director)
    url = reverse("invitation_revoke", args=[club.slug, invitation.pk])
    assert client.get(url).status_code == 405
    asked = client.post(url)
    assert asked.status_code == 200 and 'name="confirm"' in asked.content.decode()
    assert Invitation.objects.get().revoked_at is None
    done = client.post(url, {"confirm": "yes"})
    assert done.status_code == 302
    assert Invitation.objects.get().revoked_by == director
    again = client.post(url, {"confirm": "yes"}, follow=True)
    assert again.status_code == 200  # said, not a server error


def test_the_list_asks_a_fixed_number_of_queries(
    client, club, director, django_assert_max_num_queries
):
    client.force_login(director)
    url = reverse("invitation_list", args=[club.slug])
    for n in range(3):
        _invite(
            club,
            director,
            email=f"p{n}@club.example",
            player=Player.objects.create(club=club, name=f"P{n}"),
        )
    with django_assert_max_num_queries(30) as few:
        client.get(url)
    for n in range(3, 20):
        _invite(
            club,
            director,
            email=f"p{n}@club.example",
            player=Player.objects.create(club=club, name=f"P{n}"),
        )
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = client.get(url)
    assert "p19@club.example" in page.content.decode()


def test_the_accept_page_for_a_stranger_links_to_sign_in_and_up(client, club, director):
    invitation = _invite(club, director, role=Role.DIRECTOR)
    url = reverse("invitation_accept", args=[invitation.token])
    page = client.get(url).content.decode()
    assert f"{reverse('login')}?next={url}" in page
    assert f"{reverse('account_signup')}?next={url}" in page
    assert client.post(url).status_code == 200  # no accepting without an account
    assert not Membership.objects.filter(role=Role.DIRECTOR).exclude(user=director).exists()


def test_accepting_on_the_page(client, club, director, invitee):
    invitation = _invite(club, director, role=Role.DIRECTOR)
    client.force_login(invitee)
    url = reverse("invitation_accept", args=[invitation.token])
    assert client.get(url).status_code == 200
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == club.get_absolute_url()
    assert Membership.objects.get(club=club, user=invitee).role == Role.DIRECTOR
    gone = client.get(url)
    assert gone.status_code == 410 and "already been used" in gone.content.decode()
    assert client.post(url).status_code == 410


def test_expired_revoked_and_unknown_links(client, club, director):
    expired = _invite(club, director)
    Invitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now())
    revoked = _invite(club, director, email="r@club.example")
    invitation_revoke(invitation=revoked, by=director)
    assert (
        "expired" in client.get(reverse("invitation_accept", args=[expired.token])).content.decode()
    )
    assert client.get(reverse("invitation_accept", args=[expired.token])).status_code == 410
    assert client.get(reverse("invitation_accept", args=[revoked.token])).status_code == 410
    assert client.get(reverse("invitation_accept", args=["nope"])).status_code == 404


def test_a_refused_claim_is_said_on_the_page(client, club, director, invitee):
    MembershipFactory(club=club, user=invitee, role=Role.MEMBER)
    player = Player.objects.create(club=club, name="Ilona K")
    invitation = _invite(club, director, player=player, role=Role.SCORER)
    client.force_login(invitee)
    page = client.post(reverse("invitation_accept", args=[invitation.token]), follow=True)
    assert page.status_code == 200 and "merge" in page.content.decode()


def test_signing_up_from_an_invitation_needs_no_second_verification(
    client, club, director, django_capture_on_commit_callbacks, settings
):
    settings.ACCOUNT_RATE_LIMITS = False
    invitation = _invite(club, director, email="uusi@club.example", role=Role.DIRECTOR)
    url = reverse("invitation_accept", args=[invitation.token])
    client.get(url)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("account_signup") + f"?next={url}",
            {
                "username": "uusi",
                "email": "uusi@club.example",
                "password1": "a long new password 7",
                "password2": "a long new password 7",
                "next": url,
            },
        )
    assert response.status_code == 302 and response["Location"] == url
    assert EmailAddress.objects.get(email="uusi@club.example").verified
    assert client.post(url).status_code == 302
    assert Membership.objects.get(club=club, user__username="uusi").role == Role.DIRECTOR


def test_club_settings_keep_the_time_zone(client, club, owner):
    client.force_login(owner)
    url = reverse("club_settings", args=[club.slug])
    assert "Europe/Helsinki" in client.get(url).content.decode()
    bad = client.post(url, {"time_zone": "Nowhere/Land"})
    assert bad.status_code == 200
    client.post(url, {"time_zone": "America/New_York", "directors_confirm_alone": "on"})
    club.refresh_from_db()
    assert club.time_zone == "America/New_York"


def test_the_home_and_account_pages_link_to_start_a_club(client, user_factory):
    assert reverse("account_signup") in client.get(reverse("home")).content.decode()
    client.force_login(user_factory())
    for name in ("home", "account"):
        assert reverse("club_start") in client.get(reverse(name)).content.decode()


def test_the_roles_page_links_to_invitations(client, club, owner):
    client.force_login(owner)
    page = client.get(reverse("club_roles", args=[club.slug])).content.decode()
    assert reverse("invitation_new", args=[club.slug]) in page


def test_the_demo_shows_each_state_and_loads_twice_the_same(club, user_factory):
    user_factory(username="director")
    Player.objects.create(club=club, name="Roster Only")
    demo_invitations(club)
    demo_invitations(club)
    states = sorted(i.status for i in Invitation.objects.filter(club=club))
    assert states == [InvitationStatus.PENDING, InvitationStatus.PENDING, InvitationStatus.REVOKED]
    assert Invitation.objects.filter(club=club, player__name="Roster Only").exists()
