"""The club page's events: upcoming and past apart, newest first, paged, filtered."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.support.factories import MembershipFactory
from tournaments.models import Event, EventStatus, Role, Season
from tournaments.selectors import club_events_past, club_events_upcoming
from tournaments.services import event_create

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def _event(club, name, days, variant_id="rutupeli", season=None, status=None):
    event = event_create(
        published=True,
        club=club,
        name=name,
        date=TODAY + datetime.timedelta(days=days),
        variant_id=variant_id,
        season=season,
    )
    if status:
        Event.objects.filter(pk=event.pk).update(status=status)
    return event


def _between(page, first, second):
    return page.index(first) < page.index(second)


def test_selectors_split_upcoming_and_past_newest_first(club):
    _event(club, "Soon", 2)
    _event(club, "Later", 9)
    _event(club, "Today", 0)
    _event(club, "Last week", -7)
    _event(club, "Yesterday", -1)
    _event(club, "Done today", 0, status=EventStatus.FINISHED)
    upcoming = [e.name for e in club_events_upcoming(club=club, today=TODAY)]
    past = [e.name for e in club_events_past(club=club, today=TODAY)]
    assert upcoming == ["Later", "Soon", "Today"]
    assert past == ["Done today", "Yesterday", "Last week"]


def test_club_page_shows_each_event_once_under_its_heading(client, club):
    _event(club, "Future night", 3)
    _event(club, "Old night", -3)
    page = client.get(club.get_absolute_url()).content.decode()
    assert page.count("Future night") == 1 and page.count("Old night") == 1
    assert _between(page, "Upcoming events", "Future night")
    assert _between(page, "Future night", "Past events")
    assert _between(page, "Past events", "Old night")


def test_each_list_pages_on_its_own(client, club):
    for day in range(1, 16):
        _event(club, f"Past {day:02d}", -day)
    _event(club, "Coming up", 1)
    url = club.get_absolute_url()
    first = client.get(url).content.decode()
    assert "Past 01" in first and "Past 15" not in first
    second = client.get(url, {"past-page": 2}).content.decode()
    assert "Past 15" in second and "Past 01" not in second
    assert "Coming up" in second
    assert client.get(url, {"past-page": 9}).status_code == 404


def test_filter_by_game_and_season(client, club):
    season = Season.objects.create(
        club=club, name="Winter", starts_on=TODAY, ends_on=TODAY + datetime.timedelta(days=90)
    )
    _event(club, "Gin in winter", 5, "gin_romi", season)
    _event(club, "Gin off season", 6, "gin_romi")
    _event(club, "Rutu in winter", -5, "rutupeli", season)
    url = club.get_absolute_url()
    page = client.get(url, {"game": "gin_romi"}).content.decode()
    assert "Gin in winter" in page and "Gin off season" in page
    assert "Rutu in winter" not in page
    page = client.get(url, {"season": season.pk}).content.decode()
    assert "Gin in winter" in page and "Rutu in winter" in page
    assert "Gin off season" not in page
    page = client.get(url, {"game": "gin_romi", "season": season.pk}).content.decode()
    assert "Gin in winter" in page and "Gin off season" not in page
    assert 'name="season"' in page and "Winter" in page


def test_a_bad_filter_value_shows_every_event(client, club):
    _event(club, "Any night", 1)
    response = client.get(club.get_absolute_url(), {"game": "poker", "season": "x"})
    assert response.status_code == 200
    assert "Any night" in response.content.decode()


def test_another_clubs_season_does_not_filter(client, club):
    other = MembershipFactory(role=Role.MEMBER).club
    season = Season.objects.create(club=other, name="Theirs", starts_on=TODAY, ends_on=TODAY)
    _event(club, "Ours", 1)
    page = client.get(club.get_absolute_url(), {"season": season.pk}).content.decode()
    assert "Ours" in page


def test_actions_stay_on_each_event(client, club):
    event = _event(club, "Action night", 1)
    old = _event(club, "Old action night", -1)
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    scorer = MembershipFactory(club=club, role=Role.SCORER).user
    client.force_login(director)
    page = client.get(club.get_absolute_url()).content.decode()
    assert reverse("event_manage", args=[club.slug, event.pk]) in page
    assert reverse("event_manage", args=[club.slug, old.pk]) in page
    client.force_login(scorer)
    page = client.get(club.get_absolute_url()).content.decode()
    assert reverse("event_tables", args=[club.slug, event.pk]) in page
    assert reverse("event_manage", args=[club.slug, event.pk]) not in page
