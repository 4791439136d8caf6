"""The event standings feed (/api/v1/clubs/<slug>/events/<id>/standings.json, version 1):
its shape, every public stage, private events not found, confirmed results only, and a fixed
number of queries however many players."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scoring.services import Actor, deal_confirm, deal_record
from tests.support.events import new_request_id, seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role, Stage, StageStatus, TieBreak
from tournaments.services import event_publish

pytestmark = pytest.mark.django_db

SEAT0 = Actor(device="phone-0", seat=0)
SEAT1 = Actor(device="phone-1", seat=1)
HANDS = ["", "KD", "KH", "QS KH QC", "5D", "6D"]


def play(table, number, hands=None, out=0):
    seats = table.seats.count()
    hands = hands or HANDS[:seats]
    entry = {"out": out, "players": [{"cards": hand or None, "buys": 0} for hand in hands]}
    return deal_record(
        table=table, number=number, entry=entry, by=SEAT0, expected_version=0,
        request_id=new_request_id(),
    )  # fmt: skip


def feed_url(event):
    return reverse("event_standings_feed", args=[event.club.slug, event.pk])


def published(players, **kwargs):
    event, tables = seated_event(variant_id="rutupeli", players=players, **kwargs)
    event_publish(event=event, published=True)
    return event, tables


def test_the_feed_says_its_version_and_every_players_place(client):
    event, (one, two) = published(8)
    play(one, 1)
    play(two, 1)
    response = client.get(feed_url(event))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Access-Control-Allow-Origin"] == "*"
    feed = json.loads(response.content)
    assert feed["version"] == 1
    assert feed["event"] == {
        "id": event.pk,
        "name": event.name,
        "date": "2026-11-28",
        "game": "rutupeli",
        "format": "night",
        "status": "running",
        "url": "http://testserver" + event.get_absolute_url(),
    }
    assert feed["club"]["slug"] == event.club.slug
    assert feed["confirmed_only"] is False
    assert feed["tie_breaks"] == ["total", "last_deal", "deals_won", "director", "head_to_head"]
    (stage,) = feed["stages"]
    assert stage["number"] == 1 and stage["ranked_by"] == "total" and stage["after_deals"] is None
    assert stage["url"] == "http://testserver" + reverse(
        "stage_standings", args=[event.club.slug, event.pk, 1]
    )
    players = stage["players"]
    assert len(players) == 8
    # The four 10s are level on every tie-break, at their tables too: one shared place.
    assert [p["place_label"] for p in players] == ["=1", "=1", "=3", "=3", "=3", "=3", "=7", "=7"]
    assert [p["total"] for p in players] == [0, 0, 10, 10, 10, 10, 30, 30]
    first = players[0]
    assert set(first) == {
        "place", "shared", "place_label", "player_id", "name", "table", "table_place",
        "total", "deals", "average", "after_total", "ravaytys", "unconfirmed", "finished",
        "needs_director", "decided_by", "units", "rounds", "points", "wins", "matches",
        "byes", "stage", "champion", "tie_break",
    }  # fmt: skip
    assert (first["place"], first["shared"], first["deals"], first["unconfirmed"]) == (
        1, True, 1, True
    )  # fmt: skip
    # Level players at one table stay level: no tie-break set any of the four 10s apart,
    # and a shared place names nothing that decided it (docs/feeds.md), the group's first row too.
    assert [p["decided_by"] for p in players] == [None] * 8
    assert [p["decided_by"] for p in feed["standings"]["players"]] == [None] * 8
    seat = one.seats.select_related("player").get(position=0)
    assert any(p["player_id"] == seat.player_id and p["name"] == seat.player.name for p in players)


def test_the_directors_tie_break_shows_in_the_feed(client):
    event, (one, two) = published(8)
    play(one, 1)
    play(two, 1)
    winners = json.loads(client.get(feed_url(event)).content)["stages"][0]["players"][:2]
    TieBreak.objects.create(
        stage=one.stage,
        method="coin_toss",
        order=[winners[1]["player_id"], winners[0]["player_id"]],
    )
    players = json.loads(client.get(feed_url(event)).content)["stages"][0]["players"]
    assert [(p["player_id"], p["place_label"], p["decided_by"]) for p in players[:2]] == [
        (winners[1]["player_id"], "1", None),
        (winners[0]["player_id"], "2", "director"),
    ]


def test_every_public_stage_is_in_the_feed_and_a_draw_in_preview_is_not(client):
    event, (one, _two) = published(8)
    play(one, 1)
    Stage.objects.create(event=event, number=2, seed=1, status=StageStatus.FINISHED)
    Stage.objects.create(event=event, number=3, seed=1, status=StageStatus.PREVIEW)
    feed = json.loads(client.get(feed_url(event)).content)
    assert [(s["number"], len(s["players"])) for s in feed["stages"]] == [(1, 8), (2, 0)]
    assert (
        client.get(reverse("stage_standings", args=[event.club.slug, event.pk, 3])).status_code
        == 404
    )


def test_a_private_events_feed_is_not_found(client):
    event, (one, _two) = seated_event(variant_id="rutupeli", players=8, published=False)
    play(one, 1)
    assert client.get(feed_url(event)).status_code == 404
    other = reverse("event_standings_feed", args=["no-such-club", event.pk])
    assert client.get(other).status_code == 404
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    assert client.get(feed_url(event)).status_code == 200
    event_publish(event=event, published=True)
    client.logout()
    assert client.get(feed_url(event)).status_code == 200
    event_publish(event=event, published=False)
    assert client.get(feed_url(event)).status_code == 404


def test_a_club_showing_confirmed_results_only_feeds_them_alone(client):
    event, (one, _two) = published(8)
    first = play(one, 1)
    deal_confirm(deal=first, by=SEAT1, expected_version=1, request_id=new_request_id())
    play(one, 2, ["", "QS", "QH", "QC"])
    seat1 = one.seats.get(position=1).player_id

    def row():
        feed = json.loads(client.get(feed_url(event)).content)
        return feed, next(p for p in feed["stages"][0]["players"] if p["player_id"] == seat1)

    feed, player = row()
    assert (feed["confirmed_only"], player["total"], player["deals"], player["unconfirmed"]) == (
        False, 20, 2, True
    )  # fmt: skip
    event.club.public_confirmed_only = True
    event.club.save(update_fields=["public_confirmed_only"])
    feed, player = row()
    assert (feed["confirmed_only"], player["total"], player["deals"], player["unconfirmed"]) == (
        True, 10, 1, False
    )  # fmt: skip


def _queries(client, url, django_assert_max_num_queries, limit=16):
    with django_assert_max_num_queries(limit) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries), response


def test_the_feed_and_the_stage_page_take_the_same_queries_for_100_and_1000_players(
    client, django_assert_max_num_queries
):
    counts = {}
    for players in (100, 1000):
        event, tables = published(players)
        for table in tables[:3]:
            play(table, 1)
        feed, response = _queries(client, feed_url(event), django_assert_max_num_queries)
        rows = json.loads(response.content)["stages"][0]["players"]
        assert len(rows) == players
        stage = reverse("stage_standings", args=[event.club.slug, event.pk, 1])
        page, response = _queries(client, stage, django_assert_max_num_queries)
        html = response.content.decode()
        # The page shows the first hundred, in the feed's order.
        assert rows[0]["name"] in html and rows[99]["name"] in html
        assert html.count("<tr") == 101  # the header and a page of 100
        counts[players] = (feed, page)
    assert counts[100] == counts[1000]


@pytest.mark.parametrize(
    ("game", "players", "preferred"),
    [("ravaytys", 8, 4), ("rutupeli", 8, 4), ("gin_romi", 4, 2), ("tizlapos_romi", 8, 4)],
)
def test_every_game_has_its_feed_and_stage_page_before_a_deal(client, game, players, preferred):
    event, _tables = seated_event(variant_id=game, players=players, preferred=preferred)
    event_publish(event=event, published=True)
    feed = json.loads(client.get(feed_url(event)).content)
    rows = feed["stages"][0]["players"]
    # Before a deal every total is 0: only the seat order at each table (standing in for
    # the director) tells its players apart, and the tables' n-th seats share a place.
    assert len(rows) == players and all(p["shared"] for p in rows)
    assert rows[0]["place_label"] == "=1" and rows[0]["decided_by"] is None
    assert feed["tie_breaks"][0] == "total"
    assert ("ravaytys" in feed["tie_breaks"]) is (game == "ravaytys")
    stage = reverse("stage_standings", args=[event.club.slug, event.pk, 1])
    assert client.get(stage).status_code == 200
