"""The clubs' events as iCalendar: published events only, in the club's time zone, one
stable UID per event."""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar

from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments.models import Event, Role
from tournaments.services import event_create

pytestmark = pytest.mark.django_db


def _event(club, name, *, published=True, start=None, venue=""):
    event = event_create(
        club=club,
        name=name,
        date=datetime.date(2026, 12, 18),
        variant_id="rutupeli",
        venue=venue,
        published=published,
    )
    if start is not None:
        Event.objects.filter(pk=event.pk).update(start_time=start)
    return event


def _events(response):
    assert response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    return {str(entry["summary"]): entry for entry in calendar.walk("VEVENT")}


def test_club_feed_lists_published_events_in_the_clubs_time_zone(client):
    club = ClubFactory(time_zone="Europe/Budapest")
    timed = _event(club, "Christmas cup", start=datetime.time(18, 30), venue="Hall 2")
    _event(club, "Day event")
    _event(club, "Secret night", published=False)
    entries = _events(client.get(f"/clubs/{club.slug}/events.ics"))
    assert set(entries) == {"Christmas cup", "Day event"}
    start = entries["Christmas cup"].decoded("dtstart")
    assert start == datetime.datetime(2026, 12, 18, 18, 30, tzinfo=ZoneInfo("Europe/Budapest"))
    assert start.utcoffset() == datetime.timedelta(hours=1)
    assert str(entries["Christmas cup"]["location"]) == "Hall 2"
    assert str(entries["Christmas cup"]["url"]).endswith(timed.get_absolute_url())
    # No start time: the whole day.
    assert entries["Day event"].decoded("dtstart") == datetime.date(2026, 12, 18)
    assert entries["Day event"].decoded("dtend") == datetime.date(2026, 12, 19)
    # The UID is the same however often (and whatever changed) the feed is read.
    Event.objects.filter(pk=timed.pk).update(name="Christmas cup 2026")
    again = _events(client.get(f"/clubs/{club.slug}/events.ics"))
    assert str(again["Christmas cup 2026"]["uid"]) == str(entries["Christmas cup"]["uid"])
    assert b"BEGIN:VTIMEZONE" in client.get(f"/clubs/{club.slug}/events.ics").content


def test_one_events_ics_and_the_add_to_calendar_link(client):
    club = ClubFactory()
    event = _event(club, "Open night")
    private = _event(club, "Closed night", published=False)
    url = f"/clubs/{club.slug}/events/{event.pk}/calendar.ics"
    assert set(_events(client.get(url))) == {"Open night"}
    assert url in client.get(event.get_absolute_url()).content.decode()
    assert f"/clubs/{club.slug}/events.ics" in client.get(f"/clubs/{club.slug}/").content.decode()
    private_url = f"/clubs/{club.slug}/events/{private.pk}/calendar.ics"
    assert client.get(private_url).status_code == 404
    director = UserFactory()
    MembershipFactory(club=club, user=director, role=Role.DIRECTOR)
    client.force_login(director)
    # Even its director gets none: a calendar is for what players may come to.
    assert client.get(private_url).status_code == 404
    assert client.get(f"/clubs/{club.slug}/events/999999/calendar.ics").status_code == 404
    assert client.get("/clubs/no-such-club/events.ics").status_code == 404


def test_the_new_event_page_takes_a_start_time(client):
    club = ClubFactory()
    director = UserFactory()
    MembershipFactory(club=club, user=director, role=Role.DIRECTOR)
    client.force_login(director)
    url = f"/clubs/{club.slug}/events/new/?game=rutupeli"
    assert 'type="time"' in client.get(url).content.decode()
    data = {"name": "Cup", "date": "2026-12-05", "variant_id": "rutupeli"}
    assert (
        client.post(url, {**data, "preferred_table_size": 4, "start_time": "18:30"}).status_code
        == 302
    )
    assert Event.objects.get(name="Cup").start_time == datetime.time(18, 30)
    refused = client.post(
        url, {**data, "name": "Bad", "preferred_table_size": 4, "start_time": "25:99"}
    )
    assert refused.status_code == 200
    assert "Enter a valid time" in refused.content.decode()
    assert not Event.objects.filter(name="Bad").exists()
    client.post(url, {**data, "name": "Allday", "preferred_table_size": 4})
    assert Event.objects.get(name="Allday").start_time is None
