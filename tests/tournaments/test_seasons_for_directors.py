"""A club's director runs its seasons from the site's own pages: makes one, edits its dates,
closes it, and puts events in it from the new-event form and the event's manage page; the
league table follows. Nobody else can."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from leagues import receivers
from rules import RuleViolation
from tests.support.factories import ClubFactory, MembershipFactory
from tournaments.models import Event, Role, Season
from tournaments.services import event_create, event_season_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return ClubFactory()


@pytest.fixture
def director(club):
    return MembershipFactory(club=club, role=Role.DIRECTOR).user


def _season(club, name="Autumn 2026", closed=False):
    return Season.objects.create(
        club=club,
        name=name,
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
        closed_at=datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC) if closed else None,
    )


def _event(club, season=None):
    return event_create(
        club=club, name="Night", date=datetime.date(2026, 12, 5), variant_id="rutupeli",
        season=season,
    )  # fmt: skip


def test_a_director_makes_a_season_from_the_club_page(client, club, director):
    client.force_login(director)
    page = client.get(club.get_absolute_url()).content.decode()
    assert "No season yet." in page and reverse("season_new", args=[club.slug]) in page
    response = client.post(
        reverse("season_new", args=[club.slug]),
        {"name": "Spring 2027", "starts_on": "2027-01-01", "ends_on": "2027-05-31"},
    )
    assert response.status_code == 302
    season = Season.objects.get(club=club)
    assert (season.name, season.starts_on, season.closed_at) == (
        "Spring 2027", datetime.date(2027, 1, 1), None
    )  # fmt: skip
    page = client.get(club.get_absolute_url()).content.decode()
    assert "Spring 2027" in page and reverse("season_edit", args=[club.slug, season.pk]) in page


def test_a_season_cannot_end_before_it_starts_and_says_so(client, club, director):
    client.force_login(director)
    response = client.post(
        reverse("season_new", args=[club.slug]),
        {"name": "Backwards", "starts_on": "2027-05-31", "ends_on": "2027-01-01"},
    )
    assert response.status_code == 200
    assert "A season cannot end before it starts." in response.content.decode()
    assert not Season.objects.exists()


def test_a_director_edits_and_closes_a_season_and_opens_it_again(client, club, director):
    season = _season(club)
    client.force_login(director)
    edit = reverse("season_edit", args=[club.slug, season.pk])
    client.post(edit, {"name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-11-30"})
    season.refresh_from_db()
    assert (season.name, season.ends_on) == ("Autumn", datetime.date(2026, 11, 30))
    close = reverse("season_close", args=[club.slug, season.pk])
    client.post(close, {"closed": "1"})
    season.refresh_from_db()
    assert season.is_closed
    assert "it takes no more events" in client.get(edit).content.decode()
    client.post(close, {"closed": "0"})
    season.refresh_from_db()
    assert not season.is_closed


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCORER])
def test_only_a_director_runs_seasons(client, club, role):
    season = _season(club)
    client.force_login(MembershipFactory(club=club, role=role).user)
    assert client.get(reverse("season_new", args=[club.slug])).status_code == 403
    assert client.get(reverse("season_edit", args=[club.slug, season.pk])).status_code == 403
    assert client.post(reverse("season_close", args=[club.slug, season.pk])).status_code == 403
    event = _event(club)
    url = reverse("event_season", args=[club.slug, event.pk])
    assert client.post(url, {"season": season.pk}).status_code == 403
    event.refresh_from_db()
    assert event.season_id is None


def test_the_new_event_form_offers_the_open_seasons(client, club, director):
    open_season, closed = _season(club), _season(club, "Old", closed=True)
    _season(ClubFactory(), "Another club's")
    client.force_login(director)
    page = client.get(reverse("event_new", args=[club.slug]) + "?game=rutupeli").content.decode()
    assert "Autumn 2026" in page and "Old" not in page and "Another club" not in page
    response = client.post(
        reverse("event_new", args=[club.slug]) + "?game=rutupeli",
        {"name": "Cup", "date": "2026-12-05", "variant_id": "rutupeli",
         "preferred_table_size": 4, "season": open_season.pk},
    )  # fmt: skip
    assert response.status_code == 302
    assert Event.objects.get(name="Cup").season == open_season
    refused = client.post(
        reverse("event_new", args=[club.slug]) + "?game=rutupeli",
        {"name": "Late", "date": "2026-12-05", "variant_id": "rutupeli",
         "preferred_table_size": 4, "season": closed.pk},
    )  # fmt: skip
    assert refused.status_code == 200 and not Event.objects.filter(name="Late").exists()


def test_the_manage_page_puts_the_event_in_a_season_and_the_league_counts_it(
    client, club, director
):
    season = _season(club)
    event = _event(club)
    client.force_login(director)
    manage = client.get(reverse("event_manage", args=[club.slug, event.pk])).content.decode()
    assert 'id="season"' in manage and "Autumn 2026" in manage
    response = client.post(
        reverse("event_season", args=[club.slug, event.pk]), {"season": season.pk}
    )
    assert response.status_code == 302 and response["Location"].endswith("#season")
    event.refresh_from_db()
    assert event.season == season
    client.post(reverse("event_season", args=[club.slug, event.pk]), {"season": ""})
    event.refresh_from_db()
    assert event.season is None


def test_an_event_is_not_put_in_a_closed_season_or_another_clubs(club):
    event = _event(club)
    with pytest.raises(RuleViolation) as closed:
        event_season_set(event=event, season=_season(club, closed=True))
    assert closed.value.code == "season_closed"
    with pytest.raises(RuleViolation) as other:
        event_season_set(event=event, season=_season(ClubFactory()))
    assert other.value.code == "season_other_club"
    with pytest.raises(RuleViolation):
        _event(club, season=_season(club, "Shut", closed=True))


def test_moving_an_event_between_seasons_renews_both_league_tables(club, monkeypatch):
    marked: list[int] = []
    monkeypatch.setattr(receivers, "_mark", marked.append)
    first, second = _season(club, "One"), _season(club, "Two")
    event = _event(club, season=first)
    marked.clear()
    event_season_set(event=event, season=second)
    assert set(marked) >= {first.pk, second.pk}


def test_the_new_event_form_offers_the_tie_breaks_the_event_will_use(client, club, director):
    client.force_login(director)
    url = reverse("event_new", args=[club.slug]) + "?game=rutupeli"
    page = client.get(url).content.decode()
    assert 'id="tie-breaks"' in page and 'name="tb-tie_break_1"' in page
    post = {"name": "Cup", "date": "2026-12-05", "variant_id": "rutupeli",
            "preferred_table_size": 4, "tb-tie_break_1": "deals_won", "tb-tie_break_2": "last_deal"}  # fmt: skip
    assert client.post(url, post).status_code == 302
    event = Event.objects.get(name="Cup")
    assert event.tie_breaks[:3] == ["total", "deals_won", "last_deal"]
    # Left as the game's usual order, the event follows the game.
    client.post(url, {**post, "name": "Plain", "tb-tie_break_1": "last_deal",
                      "tb-tie_break_2": "deals_won", "tb-tie_break_3": "director",
                      "tb-tie_break_4": "head_to_head"})  # fmt: skip
    assert Event.objects.get(name="Plain").tie_breaks == []
