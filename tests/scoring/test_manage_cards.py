"""The manage page's table cards are kept per state of their table (scoring.manage_cards):
a second look renders no card again, a change at one table renders that card alone, and
whatever a card shows (a total, a name, a link, the event's state) is never an old copy."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from scoring import manage_cards
from scoring.services import Actor, deal_record
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role
from tournaments.roster import player_rename
from tournaments.services import table_key_revoke

pytestmark = pytest.mark.django_db

HANDS = ["", "AS KD", "7H 7C 2D", "QS"]
ENTRY = {"out": 0, "players": [{"cards": h or None, "points": None, "buys": 0} for h in HANDS]}


@pytest.fixture
def renders(monkeypatch):
    """The tables whose cards were rendered, in order."""
    made: list[int] = []
    render = manage_cards._render

    def counting(sheet, event, site):
        made.append(sheet.table.number)
        return render(sheet, event, site)

    monkeypatch.setattr(manage_cards, "_render", counting)
    return made


@pytest.fixture
def night(client):
    event, tables = seated_event(variant_id="rutupeli", players=12)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    return event, tables, reverse("event_manage", args=[event.club.slug, event.pk])


def _card(page: str, number: int) -> str:
    start = page.index(f"<h3>Table {number}")
    return page[start : page.index("</li>", start)]


def test_a_second_look_renders_no_card_and_a_deal_renders_its_tables_alone(client, night, renders):
    _event, tables, url = night
    client.get(url)
    assert sorted(renders) == [1, 2, 3]
    renders.clear()
    assert client.get(url).status_code == 200
    assert renders == []

    deal_record(
        table=tables[1], number=1, entry=ENTRY, by=Actor(device="a", seat=0),
        expected_version=0, request_id="m1",
    )  # fmt: skip
    page = client.get(url).content.decode()
    assert renders == [2]
    assert "1 deal entered" in _card(page, 2)
    assert "0 deals entered" in _card(page, 1)


def test_a_renamed_player_a_new_link_and_a_finished_event_show_at_once(client, night, renders):
    event, tables, url = night
    client.get(url)
    seat = tables[0].seats.select_related("player").first()
    player_rename(player=seat.player, name="Äänekoski-Wäänänen Hilkka")
    old_key = tables[2].entry_key
    table_key_revoke(table=tables[2])
    tables[2].refresh_from_db()
    page = client.get(url).content.decode()
    assert "Äänekoski-Wäänänen Hilkka" in _card(page, 1)
    assert old_key not in _card(page, 3)
    assert tables[2].entry_key in _card(page, 3)

    event.status = "finished"
    event.save(update_fields=["status"])
    page = client.get(url).content.decode()
    # A finished event's links are closed: no card offers one any more.
    assert "Entry link and QR code" not in page
    assert page.count("<h3>Table ") == 3


def test_cards_are_made_in_the_readers_language(client, night):
    """A card kept in English is not shown to a director who reads Finnish."""
    _event, _tables, url = night
    assert "<h3>Table 1" in client.get(url).content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fi"
    page = client.get(url).content.decode()
    assert "<h3>Pöytä 1" in page
    assert "<h3>Table 1" not in page
