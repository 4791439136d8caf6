"""A player's public record: the events they played, newest first, their place and total at
the table, and the räväytys ticked on their deals where the game records them."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from scoring.selectors import player_record
from scoring.services import Actor, deal_record
from tests.factories import ClubFactory
from tests.scoring.conftest import new_request_id, seated_event
from tournaments.models import Player
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

pytestmark = pytest.mark.django_db

SEAT0 = Actor(device="phone-0", seat=0)


def record_url(player):
    return reverse("player_record", args=[player.club.slug, player.pk])


def night(club, players, *, variant_id, day):
    """An event of `club` on November `day` with `players` seated at one table."""
    event = event_create(
        club=club,
        name=f"{variant_id} {day}",
        date=datetime.date(2026, 11, day),
        variant_id=variant_id,
    )
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=day)
    stage_confirm(stage=stage)
    return event, stage.tables.get()


def deal(table, number, *, out, ravaytys=None, hands=("KD", "2D", "3D", "4D")):
    """Deal `number`: the seat `out` goes out (with a räväytys ticked when asked); the
    others keep `hands` in seat order."""
    players = [
        {"cards": None if seat == out else hands[seat], "points": None, "buys": 0}
        for seat in range(table.seats.count())
    ]
    entry = {"out": out, "players": players}
    if ravaytys is not None:
        entry["ravaytys"] = ravaytys
    return deal_record(
        table=table, number=number, entry=entry, by=SEAT0, expected_version=0,
        request_id=new_request_id(),
    )  # fmt: skip


def position_of(table, player):
    return table.seats.get(player=player).position


def cells_of(html):
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return [
        [
            re.sub(r"<[^>]+>", "", cell.replace("<br>", "\n")).strip()
            for cell in re.findall(r"<td.*?</td>", row, re.S)
        ]
        for row in re.findall(r"<tr.*?</tr>", body, flags=re.S)
    ]


@pytest.fixture
def aino_s_evenings():
    """Aino at a Räväytys night (out with a räväytys twice, once without) and, later, a
    Rutupeli night (a game that records none)."""
    club = ClubFactory()
    aino, *others = [Player.objects.create(club=club, name=n) for n in ("Aino", "Bea", "Cy", "Di")]
    players = [aino, *others]
    ravaytys, r_table = night(club, players, variant_id="ravaytys", day=7)
    at = position_of(r_table, aino)
    deal(r_table, 1, out=at, ravaytys=True)
    deal(r_table, 2, out=at, ravaytys=True)
    deal(r_table, 3, out=at)  # out, but no räväytys ticked
    deal(r_table, 4, out=(at + 1) % 4, ravaytys=True)  # someone else's
    rutupeli, u_table = night(club, players, variant_id="rutupeli", day=21)
    deal(u_table, 1, out=(position_of(u_table, aino) + 1) % 4)
    return aino, (ravaytys, r_table), (rutupeli, u_table)


def test_the_record_lists_each_event_newest_first_with_the_ravaytys_counted(aino_s_evenings):
    aino, (ravaytys, r_table), (rutupeli, u_table) = aino_s_evenings
    record = player_record(player=aino)
    assert [row.event for row in record.rows] == [rutupeli, ravaytys]
    newest, oldest = record.rows
    # Only the deals Aino went out on with the räväytys ticked: two of the four.
    assert oldest.ravaytys == 2
    # Rutupeli records no räväytys: no count at all, not a zero.
    assert newest.ravaytys is None
    assert (record.events, record.ravaytys, record.records_ravaytys) == (2, 2, True)
    assert oldest.place == 1 and oldest.seats == 4 and oldest.deals == 4
    assert newest.place > 1 and newest.total > 0
    assert (newest.table, oldest.table) == (u_table.number, r_table.number)


def test_the_record_page_shows_the_events_and_the_summary(aino_s_evenings, client):
    aino, (ravaytys, _r_table), (rutupeli, _u_table) = aino_s_evenings
    response = client.get(record_url(aino))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Aino</h1>" in html
    assert "Events played: 2 · Räväytys in all: 2" in html
    header = html.split("<thead", 1)[1].split("</thead>", 1)[0]
    titles = [re.sub(r"<[^>]+>", "", th) for th in re.findall(r"<th.*?</th>", header, re.S)]
    assert titles == ["Event", "Table", "Place", "Total", "Räväytys"]
    rows = cells_of(html)
    # The event's name, and under it its date and game.
    assert [row[0].split("\n")[0] for row in rows] == [rutupeli.name, ravaytys.name]
    assert [row[0].split("\n")[-1] for row in rows] == [
        "Nov. 21, 2026 · Rutupeli",
        "Nov. 7, 2026 · Räväytys",
    ]
    assert rows[1][2] == "1/4" and rows[1][4] == "2"
    assert rows[0][4] == ""  # the Rutupeli night records none
    assert f'href="{ravaytys.get_absolute_url()}"' in html
    assert f'href="{rutupeli.get_absolute_url()}"' in html


def test_a_record_of_games_that_record_no_ravaytys_shows_none(client):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    player = table.seats.get(position=0).player
    deal(table, 1, out=1)
    html = client.get(record_url(player)).content.decode()
    assert "Events played: 1" in html
    assert "Räväytys" not in html


def test_a_player_who_has_played_nothing_has_an_empty_record(client):
    player = Player.objects.create(club=ClubFactory(), name="Newcomer")
    html = client.get(record_url(player)).content.decode()
    assert "No events played yet" in html and "Events played" not in html
    assert "<table" not in html


def test_a_draw_still_in_preview_is_not_on_the_record(client):
    club = ClubFactory()
    players = [Player.objects.create(club=club, name=f"P{n}") for n in range(4)]
    event = event_create(
        club=club, name="Tonight", date=datetime.date(2026, 12, 1), variant_id="rutupeli"
    )
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    stage_draw(event=event, seed=1)  # the director's preview alone
    assert player_record(player=players[0]).rows == []


def test_an_unknown_player_or_one_of_another_club_is_not_found(client, aino_s_evenings):
    aino, _r, _u = aino_s_evenings
    assert client.get(reverse("player_record", args=[aino.club.slug, 999999])).status_code == 404
    other = ClubFactory()
    assert client.get(reverse("player_record", args=[other.slug, aino.pk])).status_code == 404
    assert client.get(reverse("player_record", args=["no-such-club", aino.pk])).status_code == 404


def test_the_record_is_paged(aino_s_evenings, client):
    aino, (ravaytys, _r), (rutupeli, _u) = aino_s_evenings
    first = client.get(record_url(aino), {"per_page": 1})
    second = client.get(record_url(aino), {"per_page": 1, "page": 2})
    assert [row[0].split("\n")[0] for row in cells_of(first.content.decode())] == [rutupeli.name]
    assert [row[0].split("\n")[0] for row in cells_of(second.content.decode())] == [ravaytys.name]
    # The summary counts every event, not one page's.
    assert "Events played: 2 · Räväytys in all: 2" in second.content.decode()
    assert client.get(record_url(aino), {"per_page": 1, "page": 3}).status_code == 404


def _record_queries(events, client, django_assert_max_num_queries):
    club = ClubFactory()
    players = [Player.objects.create(club=club, name=f"P{n}") for n in range(4)]
    for day in range(1, events + 1):
        _event, table = night(club, players, variant_id="ravaytys", day=day)
        deal(table, 1, out=position_of(table, players[0]), ravaytys=True)
        deal(table, 2, out=position_of(table, players[1]))
    with django_assert_max_num_queries(10) as captured:
        response = client.get(record_url(players[0]))
    assert f"Events played: {events} · Räväytys in all: {events}" in response.content.decode()
    return len(captured.captured_queries)


def test_the_record_takes_the_same_queries_however_many_events(
    client, django_assert_max_num_queries
):
    one = _record_queries(1, client, django_assert_max_num_queries)
    many = _record_queries(6, client, django_assert_max_num_queries)
    assert one == many
    player = Player.objects.filter(name="P0").last()
    with django_assert_max_num_queries(3):
        assert len(player_record(player=player).rows) == 6


def test_the_ranking_links_each_player_to_their_record(client):
    event, (table,) = seated_event(variant_id="ravaytys", players=4)
    deal(table, 1, out=0, ravaytys=True)
    html = client.get(event.get_absolute_url()).content.decode()
    ranking = html.split("<h2>Ranking</h2>", 1)[1].split("</table>", 1)[0]
    for seat in table.seats.select_related("player"):
        assert f'<a href="{record_url(seat.player)}">{seat.player.name}</a>' in ranking
    # And the record counts the räväytys the ranking marks.
    out = table.seats.get(position=0).player
    assert "Räväytys in all: 1" in client.get(record_url(out)).content.decode()
