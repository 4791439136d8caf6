"""Every JSON document the site serves matches its published JSON Schema (docs/schemas/,
described in docs/feeds.md): the standings feed of every event format, the league table
under every scheme, the health check healthy and failing, and the privacy downloads. The
schemas forbid keys they do not name, so a key added to a document without its schema
fails here; and a broken document is refused, so the check can fail."""

from __future__ import annotations

import copy
import datetime
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource

from core import health
from ratings.models import RatingRun
from scoring.models import DealVersion
from tests.support.events import seated_event
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tests.support.leagues import night, players_of, season_of
from tests.support.standings import FORMATS
from tests.support.standings import play_night as play_deal
from tournaments.engine.league import LeagueScheme
from tournaments.event_settings import event_tie_breaks_set
from tournaments.models import Event, Player, Role, Season
from tournaments.services import event_publish

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "docs" / "schemas"
NAMES = ("standings", "league", "ratings", "healthz", "player-data", "my-data")

FORMAT = FormatChecker()


@FORMAT.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    # jsonschema checks "date" itself; "date-time" and "uri" need packages the site has not.
    return not isinstance(value, str) or bool(datetime.datetime.fromisoformat(value).tzinfo)


@FORMAT.checks("uri")
def _uri(value: object) -> bool:
    if not isinstance(value, str):
        return True
    parts = urlsplit(value)
    return parts.scheme in {"http", "https"} and bool(parts.netloc)


def _schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / f"{name}.json").read_text())


# my-data.json refers to player-data.json by its file name, as a reader of docs/ would.
REGISTRY: Registry = Registry().with_resources(
    (f"{name}.json", Resource.from_contents(_schema(name))) for name in NAMES
)


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(_schema(name), registry=REGISTRY, format_checker=FORMAT)


def errors(name: str, document: object) -> list[str]:
    found = validator(name).iter_errors(document)
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message}" for error in found]


def assert_valid(name: str, document: object) -> None:
    assert errors(name, document) == []


def standings_feed(client: Client, event: Event) -> dict[str, Any]:
    response = client.get(reverse("event_standings_feed", args=[event.club.slug, event.pk]))
    assert response.status_code == 200
    return response.json()


def league_feed(client: Client, season: Season) -> dict[str, Any]:
    response = client.get(reverse("season_league_feed", args=[season.club.slug, season.pk]))
    assert response.status_code == 200
    return response.json()


# -- the schemas themselves ------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_each_schema_is_a_valid_draft_2020_12_schema_linked_from_the_docs(name):
    schema = _schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    assert f"schemas/{name}.json" in (ROOT / "docs" / "feeds.md").read_text()


def test_every_schema_file_is_one_this_test_validates():
    assert {path.stem for path in SCHEMAS.glob("*.json")} == set(NAMES)


# -- the real documents ------------------------------------------------------------------------


def test_the_demo_sites_every_feed_and_download_matches_its_schema(client):
    call_command("demo_load")
    feeds = 0
    for event in Event.objects.select_related("club"):
        url = reverse("event_standings_feed", args=[event.club.slug, event.pk])
        response = client.get(url)
        if response.status_code == 404:  # a private event
            continue
        assert_valid("standings", response.json())
        feeds += 1
    for season in Season.objects.select_related("club"):
        assert_valid("league", league_feed(client, season))
        feeds += 1
    assert feeds > 10, "the demo has events of every kind and two seasons"
    rated = 0
    for run in RatingRun.objects.select_related("club"):
        url = reverse("club_ratings_feed", args=[run.club.slug, run.game])
        document = client.get(url).json()
        assert_valid("ratings", document)
        rated += len(document["players"])
    assert rated > 10, "the demo club has a rated history"

    director = get_user_model().objects.get(username="director")
    client.force_login(director)
    assert_valid("my-data", json.loads(client.get(reverse("my_data_download")).content))
    players = Player.objects.filter(user__isnull=True).select_related("club")
    downloads = 0
    for player in players:
        url = reverse("player_data_download", args=[player.club.slug, player.pk])
        response = client.get(url)
        if response.status_code == 200:
            assert_valid("player-data", json.loads(response.content))
            downloads += 1
    assert downloads > 10


@pytest.mark.parametrize("make", FORMATS.values(), ids=FORMATS.keys())
def test_the_standings_feed_of_every_format_matches_its_schema(make, client):
    event = make()
    event_publish(event=event, published=True)
    feed = standings_feed(client, event)
    assert feed["stages"] or feed["event"]["format"] == "imported"
    assert_valid("standings", feed)


def test_a_feed_ranked_after_the_same_deals_with_every_tie_break_matches(client):
    event, tables = seated_event(variant_id="rutupeli", players=8)
    event_publish(event=event, published=True)
    event_tie_breaks_set(event=event, order=["last_deal", "deals_won"])
    Event.objects.filter(pk=event.pk).update(ranking_mode="same_deals")
    play_deal(tables[0], 1)
    play_deal(tables[1], 1)
    play_deal(tables[0], 2)
    feed = standings_feed(client, event)
    assert feed["stages"][0]["ranked_by"] == "same_deals"
    assert feed["stages"][0]["after_deals"] == 1
    assert_valid("standings", feed)


@pytest.mark.parametrize(
    "scheme",
    [
        {},
        {"kind": "penalty_total"},
        {"kind": "average", "min_events": 2},
        {"best_n": 2, "scale_by_table": True, "tie_order": ["more_events", "best_result"]},
    ],
    ids=["placement", "penalty_total", "average", "best_n_scaled"],
)
def test_the_league_feed_under_every_scheme_matches_its_schema(scheme, client):
    club = ClubFactory()
    season = season_of(club)
    a, b, c, d = players_of(club, "Aino", "Bertta", "Cecilia", "Daniel")
    night(season, [a, b, c], day=1)
    night(season, [b, c, a, d], day=2)
    night(season, [a, c, b], day=3, finish=False)
    Season.objects.filter(pk=season.pk).update(league_scheme=LeagueScheme(**scheme).to_dict())
    feed = league_feed(client, season)
    assert [row["name"] for row in feed["rows"]]
    assert_valid("league", feed)


def test_the_health_check_matches_its_schema_healthy_and_failing(client, monkeypatch):
    healthy = client.get("/healthz")
    assert healthy.status_code == 200
    assert_valid("healthz", healthy.json())

    def cache_down() -> None:
        raise ConnectionError("no Redis")

    monkeypatch.setitem(health.CHECKS, "cache", cache_down)
    failing = client.get("/healthz")
    assert failing.status_code == 503
    assert failing.json()["checks"]["cache"]["status"] == "failing: ConnectionError"
    assert_valid("healthz", failing.json())


def test_my_data_with_seats_deals_and_role_changes_matches_its_schema(client):
    event, tables = seated_event(variant_id="rutupeli", players=4)
    play_deal(tables[0], 1)
    seat = tables[0].seats.order_by("position").first()
    person = UserFactory(email="aino@example.com")
    Player.objects.filter(pk=seat.player_id).update(user=person)
    MembershipFactory(club=event.club, user=person, role=Role.MEMBER)
    DealVersion.objects.filter(deal__table=tables[0]).update(by_user=person)
    client.force_login(person)
    data = json.loads(client.get(reverse("my_data_download")).content)
    assert data["players"][0]["seats"][0]["deals"]
    assert data["deals_entered_or_changed"]
    assert_valid("my-data", data)


# -- a broken document is refused ----------------------------------------------------------------


def test_a_document_that_breaks_its_schema_is_refused(client):
    event, tables = seated_event(variant_id="rutupeli", players=8)
    event_publish(event=event, published=True)
    play_deal(tables[0], 1)
    feed = standings_feed(client, event)
    assert_valid("standings", feed)

    added = copy.deepcopy(feed)
    added["stages"][0]["players"][0]["nickname"] = "Ace"
    renamed = copy.deepcopy(feed)
    renamed["event"]["when"] = renamed["event"].pop("date")
    wrong_type = copy.deepcopy(feed)
    wrong_type["standings"]["players"][0]["place"] = "first"
    bad_date = copy.deepcopy(feed)
    bad_date["event"]["date"] = "28.11.2026"
    new_version = copy.deepcopy(feed)
    new_version["version"] = 2

    assert any("nickname" in error for error in errors("standings", added))
    assert any("'date' is a required property" in error for error in errors("standings", renamed))
    assert any("'first' is not of type" in error for error in errors("standings", wrong_type))
    assert any("is not a 'date'" in error for error in errors("standings", bad_date))
    assert errors("standings", new_version)
    # A league table is not a standings feed.
    assert errors("league", feed)


def test_a_health_answer_or_a_time_that_is_not_one_is_refused(client):
    assert errors("healthz", {"status": "ok", "checks": {"database": {"status": "ok", "ms": 1}}})
    broken = client.get("/healthz").json()
    broken["checks"]["cache"]["status"] = "fine"
    assert any("does not match" in error for error in errors("healthz", broken))
    user = UserFactory()
    client.force_login(user)
    data = json.loads(client.get(reverse("my_data_download")).content)
    assert_valid("my-data", data)
    data["account"]["date_joined"] = "6.12.2026 15.14"
    assert any("is not a 'date-time'" in error for error in errors("my-data", data))
    data["account"]["date_joined"] = "2026-12-06T15:14:00"  # no time zone
    assert errors("my-data", data)
