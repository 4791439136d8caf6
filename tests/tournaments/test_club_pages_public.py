"""The club's public page (its events as sortable, paged, filtered tables; its seasons; its
players), its settings page, and what every page tells a link preview (Open Graph)."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.club_settings import club_settings_set
from tournaments.models import Club, Event, Player, Role, Season
from tournaments.selectors import club_events, club_public_players, events_past, events_upcoming
from tournaments.services import event_create, event_publish

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()


def _event(club, name, days, *, published=True, variant_id="rutupeli", season=None):
    return event_create(
        club=club,
        name=name,
        date=TODAY + datetime.timedelta(days=days),
        variant_id=variant_id,
        season=season,
        published=published,
    )


def _page(client, url, query=None):
    response = client.get(url, query or {})
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def _meta(page, prop):
    match = re.search(rf'<meta (?:property|name)="{re.escape(prop)}" content="([^"]*)"', page)
    return match.group(1) if match else None


# -- the event lists ------------------------------------------------------------------


def test_the_selectors_keep_private_events_out_unless_asked(club):
    _event(club, "Shown", 1)
    _event(club, "Hidden", 1, published=False)
    _event(club, "Shown before", -1)
    assert [e.name for e in events_upcoming(club_events(club=club), today=TODAY)] == ["Shown"]
    assert [e.name for e in events_past(club_events(club=club), today=TODAY)] == ["Shown before"]
    every = club_events(club=club, with_private=True)
    assert sorted(e.name for e in events_upcoming(every, today=TODAY)) == ["Hidden", "Shown"]


@pytest.mark.parametrize("who", ["anonymous", "member", "outsider"])
def test_visitors_see_only_published_events(client, club, who, request):
    _event(club, "Open night", 2)
    _event(club, "Closed night", 3, published=False)
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    page = _page(client, club.get_absolute_url())
    assert "Open night" in page and "Closed night" not in page
    assert "private" not in page.split("<main>")[1]


def test_a_scorer_sees_private_events_with_their_tables_link(client, club):
    event = _event(club, "Closed night", 3, published=False)
    client.force_login(MembershipFactory(club=club, role=Role.SCORER).user)
    page = _page(client, club.get_absolute_url())
    row = page[page.rfind("<tr", 0, page.index("Closed night")) :].split("</tr>")[0]
    assert "private" in row
    assert reverse("event_tables", args=[club.slug, event.pk]) in row
    # Its public page would be a director's preview: the scorer is not sent there.
    assert f'href="{event.get_absolute_url()}"' not in row


def test_the_lists_sort_by_a_column_each_on_its_own(client, club):
    _event(club, "Beta", -2)
    _event(club, "Alpha", -1)
    _event(club, "Gamma", -3)
    url = club.get_absolute_url()
    page = _page(client, url)
    assert page.index("Alpha") < page.index("Beta") < page.index("Gamma")  # newest first
    page = _page(client, url, {"past-sort": "name"})
    assert page.index("Alpha") < page.index("Beta") < page.index("Gamma")
    page = _page(client, url, {"past-sort": "-name"})
    assert page.index("Gamma") < page.index("Beta") < page.index("Alpha")
    assert "upcoming-sort" not in page or "past-sort=-name" in page


def test_the_lists_page_on_their_own(client, club):
    for day in range(1, 16):
        _event(club, f"Past {day:02d}", -day)
    _event(club, "Coming up", 1)
    url = club.get_absolute_url()
    first = _page(client, url)
    assert "Past 01" in first and "Past 15" not in first
    second = _page(client, url, {"past-page": 2})
    assert "Past 15" in second and "Past 01" not in second and "Coming up" in second
    assert client.get(url, {"past-page": 9}).status_code == 404


def test_filter_by_game_season_and_name(client, club):
    season = Season.objects.create(
        club=club, name="Winter", starts_on=TODAY, ends_on=TODAY + datetime.timedelta(days=90)
    )
    _event(club, "Gin in winter", 5, variant_id="gin_romi", season=season)
    _event(club, "Gin off season", 6, variant_id="gin_romi")
    _event(club, "Rutu in winter", -5, season=season)
    url = club.get_absolute_url()
    page = _page(client, url, {"game": "gin_romi"})
    assert "Gin in winter" in page and "Gin off season" in page and "Rutu in winter" not in page
    page = _page(client, url, {"season": season.pk})
    assert "Gin in winter" in page and "Rutu in winter" in page and "Gin off season" not in page
    page = _page(client, url, {"q": "OFF SEA"})
    assert "Gin off season" in page and "Gin in winter" not in page
    assert f'<option value="{season.pk}">Winter</option>' in page
    page = _page(client, url, {"q": "nothing like it"})
    assert "No events match the filter." in page
    assert "Every event" in page


def test_a_value_the_filter_does_not_offer_filters_nothing(client, club):
    other = MembershipFactory(role=Role.MEMBER).club
    theirs = Season.objects.create(club=other, name="Theirs", starts_on=TODAY, ends_on=TODAY)
    _event(club, "Any night", 1)
    for query in ({"game": "poker"}, {"season": "x"}, {"season": theirs.pk}, {"q": "x" * 500}):
        page = _page(client, club.get_absolute_url(), query)
        assert "Any night" in page, query


def test_the_club_page_queries_do_not_grow_with_its_events(
    client, club, django_assert_max_num_queries
):
    for day in range(1, 9):
        _event(club, f"Night {day}", -day)
        _event(club, f"Coming {day}", day)
    client.get(club.get_absolute_url())
    with django_assert_max_num_queries(14):
        client.get(club.get_absolute_url())


@pytest.mark.parametrize("who", ["anonymous", "director"])
def test_the_published_events_download_as_filtered(client, club, who):
    _event(club, "Gin one", -1, variant_id="gin_romi")
    _event(club, "Rutu one", 1)
    _event(club, "Gin private", -2, variant_id="gin_romi", published=False)
    if who == "director":
        client.force_login(MembershipFactory(club=club, role=Role.DIRECTOR).user)
    url = reverse("club_events_export", args=[club.slug, "csv"])
    response = client.get(url, {"game": "gin_romi"})
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{club.slug}-events.csv"'
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "Event,Date,Game,Season,Status"
    assert lines[1:] == [
        f"Gin one,{TODAY - datetime.timedelta(days=1)},Gin Römi,,registration open"
    ]
    xlsx = client.get(reverse("club_events_export", args=[club.slug, "xlsx"]))
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"
    assert client.get(reverse("club_events_export", args=[club.slug, "pdf"])).status_code == 404
    page = _page(client, club.get_absolute_url(), {"game": "gin_romi"})
    assert f'href="{url}?game=gin_romi"' in page


# -- seasons and players --------------------------------------------------------------


def test_seasons_are_listed_with_their_published_events(client, club):
    season = Season.objects.create(
        club=club, name="Spring 2027", starts_on=TODAY, ends_on=TODAY + datetime.timedelta(days=90)
    )
    _event(club, "One", 1, season=season)
    _event(club, "Two", 2, season=season, published=False)
    page = _page(client, club.get_absolute_url())
    section = page[page.index('id="seasons"') :]
    assert "Spring 2027" in section and "1 event" in section
    try:
        league = reverse("season_league", kwargs={"slug": club.slug, "season_id": season.pk})
    except NoReverseMatch:
        return  # the league table's page is not built yet: the season is shown unlinked
    assert f'href="{league}"' in section


def test_the_players_list_shows_who_played_published_events(client):
    event, _tables = seated_event(variant_id="rutupeli", players=4, published=False)
    club = event.club
    Player.objects.filter(club=club, name="Player 004").update(guest=True, name="Guest Gabor")
    assert not club_public_players(club=club).exists()  # the event is private
    event_publish(event=event, published=True)
    names = [player.name for player in club_public_players(club=club)]
    assert names == ["Player 001", "Player 002", "Player 003"]
    page = _page(client, club.get_absolute_url())
    first = Player.objects.get(club=club, name="Player 001")
    assert reverse("player_record", args=[club.slug, first.pk]) in page
    assert "Guest Gabor" not in page
    club_settings_set(
        club=club,
        public_confirmed_only=False,
        publish_guest_pages=True,
        directors_confirm_alone=True,
    )
    page = _page(client, club.get_absolute_url())
    assert "Guest Gabor" in page
    assert club_public_players(club=club).get(name="Player 001").public_events == 1


# -- club settings --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "status"),
    [(None, 302), ("outsider", 403), (Role.MEMBER, 403), (Role.SCORER, 403), (Role.DIRECTOR, 200)],
)
def test_the_settings_page_is_for_owners_and_directors(client, club, role, status):
    if role == "outsider":
        client.force_login(MembershipFactory(role=Role.OWNER).user)
    elif role is not None:
        client.force_login(MembershipFactory(club=club, role=role).user)
    url = reverse("club_settings", args=[club.slug])
    assert client.get(url).status_code == status
    response = client.post(url, {"public_confirmed_only": "on"})
    assert response.status_code == (302 if status == 200 else status)
    assert Club.objects.get(pk=club.pk).public_confirmed_only is (status == 200)


def test_the_settings_are_saved_and_shown(client, club, owner):
    client.force_login(owner)
    url = reverse("club_settings", args=[club.slug])
    assert url in _page(client, club.get_absolute_url())
    page = _page(client, url)
    assert "Public pages show confirmed results only" in page
    assert "Guests have public record pages" in page
    response = client.post(url, {"public_confirmed_only": "on", "publish_guest_pages": "on"})
    assert response["Location"] == url
    club.refresh_from_db()
    assert club.public_confirmed_only and club.publish_guest_pages
    client.post(url, {"publish_guest_pages": "on"})
    club.refresh_from_db()
    assert not club.public_confirmed_only and club.publish_guest_pages
    page = _page(client, url)
    assert re.search(r'name="publish_guest_pages"[^>]*checked', page)
    assert not re.search(r'name="public_confirmed_only"[^>]*checked', page)


def test_a_member_sees_no_settings_link(client, club, member):
    client.force_login(member)
    assert reverse("club_settings", args=[club.slug]) not in _page(client, club.get_absolute_url())


# -- Open Graph -----------------------------------------------------------------------


def test_the_club_page_describes_itself_to_a_link_preview(client):
    club = Club.objects.create(name="Kortti & Co", slug="kortti", language="en")
    page = _page(client, club.get_absolute_url(), {"past-page": 1})
    assert _meta(page, "og:title") == "Kortti & Co"
    assert _meta(page, "og:site_name") == "Lappu"
    assert _meta(page, "og:type") == "website"
    assert _meta(page, "og:url") == "http://testserver/clubs/kortti/"
    assert '<link rel="canonical" href="http://testserver/clubs/kortti/">' in page
    description = _meta(page, "description")
    assert description == _meta(page, "og:description")
    assert description.startswith("Kortti & Co: rummy events")
    assert "<title>Kortti & Co · Lappu</title>" in page
    Club.objects.filter(pk=club.pk).update(description='Tuesdays at "the Cellar".\nBring cards.')
    raw = client.get(club.get_absolute_url()).content.decode()
    assert 'content="Tuesdays at &quot;the Cellar&quot;. Bring cards."' in raw


def test_every_page_has_the_defaults(client, db):
    page = _page(client, reverse("home"))
    title = re.search(r"<title>(.*) · Lappu</title>", page).group(1)
    assert _meta(page, "og:title") == title
    assert _meta(page, "description") == "Lappu keeps your club's scores."
    assert _meta(page, "og:url") == "http://testserver/"


def test_a_title_with_markup_stays_escaped(client):
    club = Club.objects.create(name="<b>Bold</b> club", slug="bold", language="en")
    raw = client.get(club.get_absolute_url()).content.decode()
    assert '<meta property="og:title" content="&lt;b&gt;Bold&lt;/b&gt; club">' in raw
    assert "<b>Bold</b>" not in raw


def test_an_event_in_the_list_links_to_its_permanent_address(client, club):
    event = _event(club, "Linked night", -1)
    page = _page(client, club.get_absolute_url())
    assert f'href="/clubs/{club.slug}/events/{event.pk}/"' in page
    assert isinstance(Event.objects.get(pk=event.pk).published_at, datetime.datetime)
