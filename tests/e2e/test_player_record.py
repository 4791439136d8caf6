"""On a phone: the ranking mid-evening after the same number of deals, and a tap on a name
opening the player's record with the räväytys ticked on their deals."""

from __future__ import annotations

import pytest

from scoring.services import Actor, deal_record
from tests.e2e.conftest import shoot
from tests.scoring.conftest import new_request_id, seated_event
from tournaments.event_settings import event_ranking_mode_set
from tournaments.models import RankingMode

pytestmark = pytest.mark.django_db(transaction=True)


def play(table, number, *, out, ravaytys=False):
    hands = ["KD", "2D", "3D", "4D"]
    players = [
        {"cards": None if seat == out else hands[seat], "points": None, "buys": 0}
        for seat in range(4)
    ]
    deal_record(
        table=table, number=number, entry={"out": out, "ravaytys": ravaytys, "players": players},
        by=Actor(device="phone-0", seat=0), expected_version=0, request_id=new_request_id(),
    )  # fmt: skip


def test_a_name_on_the_ranking_opens_the_players_record(live_server, phone):
    event, (one, two) = seated_event(variant_id="ravaytys", players=8)
    play(one, 1, out=0, ravaytys=True)
    play(two, 1, out=1)
    play(two, 2, out=1)
    play(two, 3, out=2)
    event_ranking_mode_set(event=event, mode=RankingMode.SAME_DEALS)
    phone.goto(f"{live_server.url}{event.get_absolute_url()}")
    caption = phone.locator("caption")
    assert caption.inner_text() == "Ranked by points after 1 deal, the fewest any table has played."
    assert phone.locator("thead th", has_text="After 1 deal").count() == 1
    shoot(phone, "ranking-same-deals")

    name = one.seats.get(position=0).player.name
    phone.get_by_role("link", name=name).click()
    phone.wait_for_url(f"**/players/{one.seats.get(position=0).player_id}/")
    assert phone.locator("h1").inner_text() == name
    assert "Events played: 1 · Räväytys in all: 1" in phone.locator("main").inner_text()
    assert phone.locator("tbody tr").count() == 1
    # The record fits the phone's width: nothing to scroll sideways on the page itself.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(phone, "player-record")
