"""On a phone: a tap on a name of the ranking opens the player's record with the räväytys
ticked on their deals; a member signs in and finds their own record, with its Gin Römi
head-to-head, through "My record"."""

from __future__ import annotations

import datetime

import pytest

from tests.support.browser import shoot, sign_in
from tests.support.factories import ClubFactory, UserFactory
from tests.support.records import gin, night, play_rummy_deal, store
from tournaments.event_settings import event_ranking_mode_set
from tournaments.models import Player, RankingMode
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

pytestmark = pytest.mark.django_db(transaction=True)


def published_night(players: int):
    club = ClubFactory()
    event = event_create(
        club=club,
        name="Räväytys night",
        date=datetime.date(2026, 11, 28),
        variant_id="ravaytys",
        published=True,
    )
    for index in range(players):
        player = Player.objects.create(club=club, name=f"Player {index + 1:03d}")
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=7)
    stage_confirm(stage=stage)
    return event, list(stage.tables.order_by("number"))


def test_a_name_on_the_ranking_opens_the_players_record(live_server, phone):
    event, (one, two) = published_night(8)
    play_rummy_deal(one, 1, out=0, ravaytys=True)
    play_rummy_deal(two, 1, out=1)
    play_rummy_deal(two, 2, out=1)
    play_rummy_deal(two, 3, out=2)
    event_ranking_mode_set(event=event, mode=RankingMode.SAME_DEALS)
    phone.goto(f"{live_server.url}{event.get_absolute_url()}")
    caption = phone.locator("caption")
    assert caption.inner_text() == "Ranked by points after 1 deal, the fewest any table has played."
    shoot(phone, "ranking-same-deals")

    player = one.seats.get(position=0).player
    phone.get_by_role("link", name=player.name).click()
    phone.wait_for_url(f"**/players/{player.pk}/")
    assert phone.locator("h1").inner_text() == player.name
    assert phone.locator('[data-stat="events"]').inner_text() == "1"
    assert phone.locator('[data-stat="won"]').inner_text() == "1"
    assert phone.locator('[data-stat="ravaytys"]').inner_text() == "1"
    events = phone.locator("h2:text('Events') + .table-scroll tbody tr")
    assert events.count() == 1
    # The record fits the phone's width: nothing to scroll sideways on the page itself.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(phone, "player-record")


def test_a_member_finds_their_own_record_through_my_record(live_server, phone):
    user = UserFactory(username="aino")
    home, away = ClubFactory(name="Kotikerho"), ClubFactory(name="Vieraskerho")
    aino = Player.objects.create(club=home, name="Aino", user=user)
    Player.objects.create(club=away, name="Aino K.", user=user)
    bea = Player.objects.create(club=home, name="Bea")
    _g1, table = night(home, [aino, bea], variant_id="gin_romi", day=24)
    store(table, [gin(table, aino, {aino: 2, bea: 80}), gin(table, aino, {aino: 2, bea: 80})])
    _g2, table = night(home, [aino, bea], variant_id="gin_romi", day=25)
    store(table, [gin(table, bea, {bea: 5, aino: 30})])

    sign_in(phone, live_server.url, "aino", "pass")
    phone.goto(f"{live_server.url}/me/record/")
    assert phone.locator("h1").inner_text() == "My record"
    phone.get_by_role("link", name="Kotikerho").click()
    phone.wait_for_url(f"**/clubs/{home.slug}/players/{aino.pk}/")
    assert phone.locator("h1").inner_text() == "Aino"
    row = phone.locator("h2:text('Gin Römi, head to head') + .table-scroll tbody tr")
    assert row.locator("td").all_inner_texts() == ["Bea", "1", "1", "0", "1"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(phone, "player-record-gin")
