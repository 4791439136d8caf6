"""The `ratings` JSON feed: its shape, its version, privacy (public players only, whoever
asks) and 304 while nothing changed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import RatingRun
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tests.support.ratings_rows import GAME, rated_club, rating_for
from tournaments.models import Player, Role

pytestmark = pytest.mark.django_db


def feed_url(club, game=GAME):
    return reverse("club_ratings_feed", args=[club.slug, game])


def test_the_feed_shape_and_version(client):
    club, players = rated_club(3)
    rating_for(Player.objects.create(club=club, name="Newcomer"), mu=30.0, sigma=8.0, games=3)
    RatingRun.objects.filter(club=club).update(version=7)
    response = client.get(feed_url(club))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Access-Control-Allow-Origin"] == "*"
    body = response.json()
    assert body["version"] == 1 and body["document"] == "ratings"
    assert body["ratings_version"] == 7
    assert body["club"] == {"slug": club.slug, "name": club.name}
    assert body["game"] == GAME
    assert body["updating"] is False and body["computed_at"]
    assert body["provisional_games"] == 10
    assert [row["name"] for row in body["players"]] == [
        "Rated 001", "Rated 002", "Rated 003", "Newcomer",
    ]  # fmt: skip
    best = body["players"][0]
    assert best == {
        "rank": 1,
        "player_id": players[0].pk,
        "name": "Rated 001",
        "mu": 40.0,
        "sigma": 2.0,
        "rating": 34.0,
        "games": 12,
        "last_played": best["last_played"],
        "provisional": False,
        "player_url": "http://testserver"
        + reverse("player_record", args=[club.slug, players[0].pk]),
    }
    assert body["players"][-1]["provisional"] is True
    assert body["players"][-1]["rating"] == 6.0


def test_a_club_without_ratings_has_an_empty_feed(client):
    club = ClubFactory()
    body = client.get(feed_url(club)).json()
    assert body["players"] == [] and body["ratings_version"] == 0
    assert client.get(feed_url(club, game="no-such-game")).status_code == 404


def test_a_hidden_record_is_never_in_the_feed_not_even_for_the_director(client):
    club, players = rated_club(3)
    Player.objects.filter(pk=players[1].pk).update(record_hidden=True)
    names = [row["name"] for row in client.get(feed_url(club)).json()["players"]]
    assert names == ["Rated 001", "Rated 003"]
    director = UserFactory()
    MembershipFactory(club=club, user=director, role=Role.DIRECTOR)
    client.force_login(director)
    names = [row["name"] for row in client.get(feed_url(club)).json()["players"]]
    assert names == ["Rated 001", "Rated 003"]


def test_a_guest_is_in_the_feed_only_when_the_club_publishes_guests_pages(client):
    club, _players = rated_club(1)
    rating_for(Player.objects.create(club=club, name="Guest", guest=True), mu=10)
    club.publish_guest_pages = False
    club.save()
    assert "Guest" not in [row["name"] for row in client.get(feed_url(club)).json()["players"]]
    club.publish_guest_pages = True
    club.save()
    assert "Guest" in [row["name"] for row in client.get(feed_url(club)).json()["players"]]


def test_304_until_a_new_computation(client):
    club, _players = rated_club(2)
    tag = client.get(feed_url(club))["ETag"]
    again = client.get(feed_url(club), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag
    assert again["Access-Control-Allow-Origin"] == "*"
    RatingRun.objects.filter(club=club).update(version=2)
    fresh = client.get(feed_url(club), HTTP_IF_NONE_MATCH=tag)
    assert fresh.status_code == 200 and fresh.json()["ratings_version"] == 2
    assert fresh["ETag"] != tag


@pytest.mark.parametrize("count", [10, 100])
def test_the_feed_takes_a_fixed_number_of_queries(client, django_assert_max_num_queries, count):
    club, _players = rated_club(count)
    with django_assert_max_num_queries(4):
        body = client.get(feed_url(club)).json()
    assert len(body["players"]) == count
