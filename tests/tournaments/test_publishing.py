"""Publishing: an event is private until its club publishes it, and a private event is
hidden from every public page and feed (but for the club's directors, who preview it).

`EVENT_PAGES` and `LIST_PAGES` drive the visibility tests: a new public page or feed is
one more line there. A page whose address is not built yet (its url name does not resolve)
is skipped, so a line may be added before the page is.
"""

from __future__ import annotations

import datetime
import html
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.urls import NoReverseMatch, reverse

from scoring.services import Actor, deal_record
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Event, Player, Role, Season, Table
from tournaments.services import event_create, event_publish

pytestmark = pytest.mark.django_db


@dataclass
class Scene:
    """A club with a season, one event of it with a table that has a scored deal, and
    one of that table's players: what a public address may need."""

    event: Event
    table: Table
    player: Player
    season: Season

    @property
    def slug(self) -> str:
        return self.event.club.slug


Kwargs = Callable[[Scene], dict[str, object]]


def _event(scene: Scene) -> dict[str, object]:
    return {"slug": scene.slug, "event_id": scene.event.pk}


def _event_and(**more: object) -> Kwargs:
    return lambda scene: {**_event(scene), **more}


def _table(export_format: str) -> Kwargs:
    return lambda scene: {
        **_event(scene),
        "table_id": scene.table.pk,
        "export_format": export_format,
    }


def _season_and(**more: object) -> Kwargs:
    return lambda scene: {"slug": scene.slug, "season_id": scene.season.pk, **more}


# The event's own pages: a private event's are not found (404), its name stays private.
EVENT_PAGES: list[tuple[str, Kwargs]] = [
    ("event_public", _event),
    ("event_live", _event),
    ("ranking_export", _event_and(export_format="csv")),
    ("ranking_export", _event_and(export_format="xlsx")),
    ("table_totals_export", _table("csv")),
    ("table_totals_export", _table("xlsx")),
    ("stage_standings", _event_and(number=1)),
    ("stage_standings_export", _event_and(number=1, export_format="csv")),
    ("event_standings_feed", _event),
    ("event_screen", _event),
    ("event_screen_live", _event),
]

# Pages that list events (or their results): a private event is simply not on them. The
# flag: whether the page lists an event still in play (a league table counts finished
# events only, so there the published twin's check is only that the page is there).
LIST_PAGES: list[tuple[str, Kwargs, bool]] = [
    ("club_detail", lambda scene: {"slug": scene.slug}, True),
    ("club_events_export", lambda scene: {"slug": scene.slug, "export_format": "csv"}, True),
    ("player_record", lambda scene: {"slug": scene.slug, "player_id": scene.player.pk}, True),
    (
        "player_record_export",
        lambda scene: {"slug": scene.slug, "player_id": scene.player.pk, "export_format": "csv"},
        True,
    ),
    *(
        (name, _season_and(**more), False)
        for name, more in [
            ("season_league", {}),
            ("season_league_embed", {}),
            ("season_league_export", {"export_format": "csv"}),
            ("season_league_feed", {}),
        ]
    ),
]

SECRET = "Hush-hush night"
PUBLIC = "Open night"


def _scene(*, published: bool) -> Scene:
    event, (table,) = seated_event(variant_id="rutupeli", players=4, published=False)
    club = event.club
    season = Season.objects.create(
        club=club,
        name="Winter",
        starts_on=datetime.date(2026, 11, 1),
        ends_on=datetime.date(2027, 2, 28),
    )
    Event.objects.filter(pk=event.pk).update(name=SECRET, season=season)
    entry = {"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "A", "K", "Q")]}
    deal_record(
        table=table,
        number=1,
        entry=entry,
        by=Actor(device="d", seat=0),
        expected_version=0,
        request_id="publishing-1",
    )
    event.refresh_from_db()
    if published:
        event_publish(event=event, published=True)
    # Beside it, a published event of the same season, so a list page is not merely empty.
    event_create(
        club=club,
        name=PUBLIC,
        date=datetime.date(2026, 11, 20),
        variant_id="rutupeli",
        season=season,
        published=True,
    )
    player = table.seats.order_by("position").first().player
    return Scene(event=event, table=table, player=player, season=season)


def _url(name: str, kwargs: Kwargs, scene: Scene) -> str:
    try:
        return reverse(name, kwargs=kwargs(scene))
    except NoReverseMatch:
        pytest.skip(f"{name} is not built yet")


def _ids(pages: list[tuple[str, Kwargs]] | list[tuple[str, Kwargs, bool]]) -> list[str]:
    return [f"{page[0]}-{index}" for index, page in enumerate(pages)]


@pytest.fixture
def director(db):
    return MembershipFactory(role=Role.DIRECTOR)


# -- the event's own pages ------------------------------------------------------------


@pytest.mark.parametrize(("name", "kwargs"), EVENT_PAGES, ids=_ids(EVENT_PAGES))
@pytest.mark.parametrize("who", ["anonymous", "member", "scorer"])
def test_a_private_events_pages_are_not_found(client, name, kwargs, who):
    scene = _scene(published=False)
    if who != "anonymous":
        role = Role.MEMBER if who == "member" else Role.SCORER
        client.force_login(MembershipFactory(club=scene.event.club, role=role).user)
    response = client.get(_url(name, kwargs, scene))
    assert response.status_code == 404
    assert SECRET not in response.content.decode(errors="replace")


@pytest.mark.parametrize(("name", "kwargs"), EVENT_PAGES, ids=_ids(EVENT_PAGES))
def test_a_published_events_pages_are_public(client, name, kwargs):
    scene = _scene(published=True)
    assert client.get(_url(name, kwargs, scene)).status_code == 200


@pytest.mark.parametrize(("name", "kwargs"), EVENT_PAGES, ids=_ids(EVENT_PAGES))
def test_the_clubs_director_sees_the_private_events_pages(client, name, kwargs):
    scene = _scene(published=False)
    director = MembershipFactory(club=scene.event.club, role=Role.DIRECTOR).user
    client.force_login(director)
    assert client.get(_url(name, kwargs, scene)).status_code == 200


def test_another_clubs_director_does_not_see_it(client):
    scene = _scene(published=False)
    client.force_login(MembershipFactory(role=Role.DIRECTOR).user)
    assert client.get(reverse("event_public", kwargs=_event(scene))).status_code == 404


# -- pages that list events -----------------------------------------------------------


@pytest.mark.parametrize(("name", "kwargs", "_in_play"), LIST_PAGES, ids=_ids(LIST_PAGES))
def test_a_private_event_is_on_no_list(client, name, kwargs, _in_play):
    scene = _scene(published=False)
    url = _url(name, kwargs, scene)
    response = client.get(url)
    page = response.content.decode()
    # The page itself may be there (a club, a season) or not (a player with no public
    # event); the private event is on it in no case.
    assert response.status_code in (200, 404), url
    assert SECRET not in page
    assert reverse("event_public", kwargs=_event(scene)) not in page


@pytest.mark.parametrize(("name", "kwargs", "in_play"), LIST_PAGES, ids=_ids(LIST_PAGES))
def test_a_published_event_is_on_the_lists(client, name, kwargs, in_play):
    scene = _scene(published=True)
    response = client.get(_url(name, kwargs, scene))
    assert response.status_code == 200
    if in_play:
        assert SECRET in response.content.decode()


def test_the_club_page_shows_a_director_the_private_event_marked_private(client):
    scene = _scene(published=False)
    client.force_login(MembershipFactory(club=scene.event.club, role=Role.DIRECTOR).user)
    page = client.get(scene.event.club.get_absolute_url()).content.decode()
    assert SECRET in page and PUBLIC in page
    row = page[page.index(SECRET) :].split("</tr>")[0]
    assert "private" in row
    public_row = page[page.index(PUBLIC) :].split("</tr>")[0]
    assert "private" not in public_row


def test_a_player_of_private_events_only_is_not_on_the_club_page(client):
    scene = _scene(published=False)
    page = client.get(scene.event.club.get_absolute_url()).content.decode()
    assert scene.player.name not in page
    event_publish(event=scene.event, published=True)
    page = client.get(scene.event.club.get_absolute_url()).content.decode()
    assert scene.player.name in page
    assert reverse("player_record", args=[scene.slug, scene.player.pk]) in page


# -- publishing -----------------------------------------------------------------------


def _publish_url(event: Event) -> str:
    return reverse("event_publish", args=[event.club.slug, event.pk])


def test_a_new_event_is_private():
    scene = _scene(published=False)
    assert scene.event.published_at is None and not scene.event.is_published


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("outsider", 403), ("member", 403), ("scorer", 403)],
)
def test_only_a_director_publishes(client, who, status):
    scene = _scene(published=False)
    club = scene.event.club
    if who == "outsider":
        client.force_login(MembershipFactory(role=Role.OWNER).user)
    elif who != "anonymous":
        role = Role.MEMBER if who == "member" else Role.SCORER
        client.force_login(MembershipFactory(club=club, role=role).user)
    response = client.post(_publish_url(scene.event), {"published": "1"})
    assert response.status_code == status
    assert Event.objects.get(pk=scene.event.pk).published_at is None


def test_the_director_publishes_and_takes_it_back(client):
    scene = _scene(published=False)
    event = scene.event
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    page = html.unescape(client.get(manage).content.decode())
    assert "Only the club's directors see this page until you publish it." in page
    assert _publish_url(event) in page

    response = client.post(_publish_url(event), {"published": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == manage
    event.refresh_from_db()
    first = event.published_at
    assert first is not None and event.results_changed_at is not None
    page = html.unescape(response.content.decode())
    assert "Published: anyone can see this event's pages now." in page
    assert "Make private" in page and "until you publish it" not in page
    client.logout()
    assert client.get(event.get_absolute_url()).status_code == 200

    client.force_login(MembershipFactory(club=event.club, role=Role.OWNER).user)
    response = client.post(_publish_url(event), {"published": "0"})
    assert response.status_code == 302, response
    event.refresh_from_db()
    assert event.published_at is None
    client.logout()
    assert client.get(event.get_absolute_url()).status_code == 404


def test_publishing_again_keeps_the_first_time(client):
    scene = _scene(published=True)
    first = scene.event.published_at
    client.force_login(MembershipFactory(club=scene.event.club, role=Role.DIRECTOR).user)
    client.post(_publish_url(scene.event), {"published": "1"})
    assert Event.objects.get(pk=scene.event.pk).published_at == first


def test_publishing_is_a_post(client):
    scene = _scene(published=False)
    client.force_login(MembershipFactory(club=scene.event.club, role=Role.DIRECTOR).user)
    assert client.get(_publish_url(scene.event)).status_code == 405


@pytest.mark.parametrize("data", [{}, {"published": "nonsense"}, {"published": "on"}])
def test_a_post_that_says_neither_changes_nothing(client, data):
    scene = _scene(published=True)
    client.force_login(MembershipFactory(club=scene.event.club, role=Role.DIRECTOR).user)
    response = client.post(_publish_url(scene.event), data, follow=True)
    assert "nothing was changed" in response.content.decode()
    assert Event.objects.get(pk=scene.event.pk).published_at == scene.event.published_at


# -- the new-event form's box ---------------------------------------------------------


def _new_event(client, club, **more):
    data = {"name": "Box night", "date": "2026-12-05", "variant_id": "ravaytys", **more}
    return client.post(reverse("event_new", args=[club.slug]), {**data, "preferred_table_size": 4})


def test_the_new_event_form_offers_publishing_unticked(client, club, owner):
    client.force_login(owner)
    page = client.get(reverse("event_new", args=[club.slug])).content.decode()
    assert "Publish on the public pages now" in page
    box = page[page.index('name="published"') - 200 : page.index('name="published"') + 80]
    assert 'type="checkbox"' in box and "checked" not in box


@pytest.mark.parametrize(("ticked", "published"), [({}, False), ({"published": "on"}, True)])
def test_the_new_event_is_published_only_if_ticked(client, club, owner, ticked, published):
    client.force_login(owner)
    response = _new_event(client, club, **ticked)
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(club=club, name="Box night")
    assert event.is_published is published
