"""The manage page's "Add a player" list: the club's own players first, searchable, guests of
past events only when asked, nobody registered twice, and no club player called a guest."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.factories import MembershipFactory, UserFactory
from tournaments.forms import RegistrationForm
from tournaments.models import Player, Registration, Role
from tournaments.selectors import player_picker, registerable_players
from tournaments.services import (
    event_create,
    registration_add,
    registration_guest_add,
    registration_status_set,
)

pytestmark = pytest.mark.django_db


def night(club, name="Night", day=28):
    return event_create(
        published=True,
        club=club,
        name=name,
        date=datetime.date(2026, 11, day),
        variant_id="rutupeli",
    )


@pytest.fixture
def director(club):
    return MembershipFactory(club=club, role=Role.DIRECTOR, user__first_name="Dora").user


@pytest.fixture
def club_night(club, director):
    """Last week's night had a guest; tonight's has one of its own, and the club has players
    with and without accounts."""
    last_week = night(club, "Last week", day=21)
    old_guest = registration_guest_add(event=last_week, name="Old Guest").player
    tonight = night(club)
    new_guest = registration_guest_add(event=tonight, name="Anna Guest").player
    registration = Registration.objects.get(event=tonight, player=new_guest)
    registration_status_set(registration=registration, status="withdrawn", confirmed=True)
    no_account = Player.objects.create(club=club, name="Zelda No-Account")
    with_account = Player.objects.create(club=club, name="Bruno", user=UserFactory())
    registered = Player.objects.create(club=club, name="Already Here")
    registration_add(event=tonight, player=registered, checked_in=True)
    return {
        "event": tonight,
        "old_guest": old_guest,
        "new_guest": new_guest,
        "no_account": no_account,
        "with_account": with_account,
        "registered": registered,
        "director": Player.objects.get(user=director),
    }


def manage_url(event, **query):
    url = reverse("event_manage", args=[event.club.slug, event.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def picker_options(html: str) -> list[tuple[str, str]]:
    """The picker's (group, option text) pairs, in page order."""
    select = html.split('id="add-player"', 1)[1].split("</select>", 1)[0]
    found = []
    for group, body in re.findall(r'<optgroup label="([^"]*)">(.*?)</optgroup>', select, re.S):
        found += [(group, text) for text in re.findall(r"<option [^>]*>([^<]*)</option>", body)]
    return found


def test_the_clubs_own_players_first_then_this_events_guests(club_night):
    event = club_night["event"]
    picker = player_picker(event=event)
    own = [p.name for p in picker.own]
    assert own == sorted(own)
    assert set(own) == {"Bruno", club_night["director"].name, "Zelda No-Account"}
    assert "Already Here" not in [p.name for p in picker.own]
    assert [p.name for p in picker.guests] == ["Anna Guest"]  # withdrawn tonight: may come back
    assert picker.hidden_guests == 1  # Old Guest


def test_the_page_lists_club_players_then_guests_and_hides_past_guests(
    client, club_night, director
):
    client.force_login(director)
    html = client.get(manage_url(club_night["event"])).content.decode()
    options = picker_options(html)
    groups = [group for group, _text in options]
    assert groups == sorted(groups, key=lambda g: g != "Club players")  # club players first
    own = [text for group, text in options if group == "Club players"]
    assert own == sorted(own) and "Zelda No-Account" in own and "Bruno" in own
    assert [text for group, text in options if group == "Guests"] == ["Anna Guest (guest)"]
    assert "Old Guest" not in html.split('id="add-player"', 1)[1].split("</select>", 1)[0]
    assert "Already Here" not in html.split('id="add-player"', 1)[1].split("</select>", 1)[0]
    assert "Show guests of past events" in html and "(1)" in html
    assert 'src="/static/js/picker.js"' in html


def test_past_guests_when_asked(client, club_night, director):
    client.force_login(director)
    html = client.get(manage_url(club_night["event"], guests="on")).content.decode()
    guests = [text for group, text in picker_options(html) if group == "Guests"]
    assert guests == ["Anna Guest (guest)", "Old Guest (guest)"]
    # The check-in form carries the choice, so the form accepts the past guest it offered.
    form = html.split('id="add-player"', 1)[0].rsplit("<form", 1)[1]
    assert 'name="guests" value="on"' in form


def test_search_narrows_the_list(client, club_night, director):
    client.force_login(director)
    html = client.get(manage_url(club_night["event"], q="zel")).content.decode()
    assert [text for _group, text in picker_options(html)] == ["Zelda No-Account"]
    assert 'value="zel"' in html
    html = client.get(manage_url(club_night["event"], q="nobody-like-this")).content.decode()
    assert picker_options(html) == []
    assert "No player matches" in html
    # A search looks among past guests too (issue 33: a regular once typed in as a guest
    # is found, not typed in again), accents, case and spacing ignored; and the check-in
    # form then accepts the guest it found.
    html = client.get(manage_url(club_night["event"], q="ÓLD  gu")).content.decode()
    assert picker_options(html) == [("Guests", "Old Guest (guest)")]
    form = html.split('id="add-player"', 1)[0].rsplit("<form", 1)[1]
    assert 'name="guests" value="on"' in form


def test_the_form_accepts_what_the_picker_offers(club_night):
    event = club_night["event"]
    offered = set(registerable_players(event=event))
    form = RegistrationForm({"player": club_night["no_account"].pk}, event=event)
    assert set(form.fields["player"].queryset) == offered
    assert form.is_valid()
    for player in (club_night["registered"], club_night["old_guest"]):
        form = RegistrationForm({"player": player.pk}, event=event)
        assert not form.is_valid(), player
    form = RegistrationForm({"player": club_night["old_guest"].pk, "guests": "on"}, event=event)
    assert form.is_valid()
    assert set(form.fields["player"].queryset) == set(
        registerable_players(event=event, past_guests=True)
    )


def test_checking_in_a_past_guest_and_nobody_twice(client, club_night, director):
    event = club_night["event"]
    client.force_login(director)
    url = reverse("registration_create", args=[event.club.slug, event.pk])
    client.post(url, {"player": club_night["old_guest"].pk})  # not offered: refused
    assert not event.registrations.filter(player=club_night["old_guest"]).exists()
    client.post(url, {"player": club_night["old_guest"].pk, "guests": "on"})
    assert event.registrations.get(player=club_night["old_guest"]).status == "checked_in"
    response = client.post(url, {"player": club_night["registered"].pk}, follow=True)
    assert "Pick a player or type a guest" in response.content.decode()
    assert event.registrations.filter(player=club_night["registered"]).count() == 1
    # The withdrawn guest of tonight comes back through the list.
    client.post(url, {"player": club_night["new_guest"].pk})
    assert event.registrations.get(player=club_night["new_guest"]).status == "checked_in"


def test_club_players_without_accounts_are_not_called_guests(client, club_night, director):
    event = club_night["event"]
    registration_add(event=event, player=club_night["no_account"], checked_in=True)
    client.force_login(director)
    html = client.get(manage_url(event)).content.decode()
    rows = html.split('id="registration"', 1)[1].split('id="draw"', 1)[0].split("<tbody", 1)[1]
    cells = {
        " ".join(re.sub(r"<[^>]+>", " ", cell).split())
        for cell in re.findall(r"<td[^>]*>(.*?)</td>", rows, re.S)
    }
    assert "Zelda No-Account" in cells
    assert "Zelda No-Account (guest)" not in cells
    assert "Already Here" in cells
    assert "Anna Guest (guest)" in cells
    assert not club_night["no_account"].is_guest
    assert club_night["old_guest"].is_guest


def test_the_picker_takes_the_same_queries_as_the_club_grows(
    client, club, director, django_assert_max_num_queries
):
    event = night(club)
    past = night(club, "Last week", day=21)
    registration_guest_add(event=past, name="Old Guest")
    registration_add(event=event, player=Player.objects.create(club=club, name="Here"))
    client.force_login(director)
    with CaptureQueriesContext(connection) as small:
        client.get(manage_url(event))
    Player.objects.bulk_create(Player(club=club, name=f"Member {i:03d}") for i in range(300))
    for index in range(40):
        registration_guest_add(event=past, name=f"Guest {index:02d}")
    for player in Player.objects.filter(name__startswith="Member 0")[:30]:
        registration_add(event=event, player=player, checked_in=True)
    with django_assert_max_num_queries(len(small)):
        html = client.get(manage_url(event)).content.decode()
    assert len(picker_options(html)) > 250
    with django_assert_max_num_queries(len(small)):
        client.get(manage_url(event, guests="on", q="e"))
