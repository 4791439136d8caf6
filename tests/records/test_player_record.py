"""A player's record page: the events they played (published ones; a director sees the
private ones too, marked), the statistics, who may open a guest's page, the download,
"My record", and a fixed number of queries however many events."""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
from django.urls import reverse

from records.selectors import player_record
from scoring.models import DealStatus
from scoring.services import Actor, deal_record
from tests.support.events import new_request_id
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tests.support.records import contract, night, store
from tournaments.models import Player, Role
from tournaments.services import event_create, registration_add, stage_draw

pytestmark = pytest.mark.django_db

SEAT0 = Actor(device="phone-0", seat=0)


def record_url(player, **query):
    return reverse("player_record", args=[player.club.slug, player.pk])


def export_url(player, export_format):
    return reverse("player_record_export", args=[player.club.slug, player.pk, export_format])


def deal(table, number, *, out, ravaytys=None, hands=("KD", "2D", "3D", "4D")):
    """Deal `number` through the service: seat `out` goes out (a räväytys ticked when
    asked); the others keep `hands` in seat order."""
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


def cells_of(html, *, heading="Events"):
    part = html.split(f"<h2>{heading}</h2>", 1)[1]
    body = part.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return [
        [
            re.sub(r"<[^>]+>", "", cell.replace("<br>", "\n")).strip()
            for cell in re.findall(r"<td.*?</td>", row, re.S)
        ]
        for row in re.findall(r"<tr.*?</tr>", body, flags=re.S)
    ]


def headers_of(html, *, heading="Events"):
    part = html.split(f"<h2>{heading}</h2>", 1)[1]
    header = part.split("<thead", 1)[1].split("</thead>", 1)[0]
    return [re.sub(r"<[^>]+>", "", th) for th in re.findall(r"<th.*?</th>", header, re.S)]


def stat(html, name):
    found = re.search(rf'data-stat="{name}">([^<]*)', html)
    return found.group(1).strip() if found else None


@pytest.fixture
def aino_s_evenings():
    """Aino at a Räväytys night (out with a räväytys twice, once without), a later Rutupeli
    night (a game that records none), and a private Räväytys night."""
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
    private, p_table = night(club, players, variant_id="ravaytys", day=28, published=False)
    deal(p_table, 1, out=position_of(p_table, aino), ravaytys=True)
    return aino, ravaytys, rutupeli, private


def test_the_page_shows_the_published_events_and_the_statistics(aino_s_evenings, client):
    aino, ravaytys, rutupeli, private = aino_s_evenings
    response = client.get(record_url(aino))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Aino</h1>" in html
    assert (stat(html, "events"), stat(html, "deals"), stat(html, "won")) == ("2", "5", "3")
    assert stat(html, "ravaytys") == "2"
    assert headers_of(html) == ["Event", "Place", "Total", "Deals", "Deals won", "Räväytys"]
    rows = cells_of(html)
    # Newest first; the event's name, and under it its date and game, then its table. No
    # private night.
    assert [row[0].split("\n")[0] for row in rows] == [rutupeli.name, ravaytys.name]
    assert [row[0].split("\n")[1] for row in rows] == [
        "21 Nov 2026 · RutupeliTable 1: 4/4, 10 points at the table",
        "7 Nov 2026 · RäväytysTable 1: 1/4, 5 points at the table",
    ]
    # The place in the event (its standings'), not only at the table.
    assert rows[1][1] == "1/4" and rows[1][3:] == ["4", "3", "2"]
    assert rows[0][5] == ""  # the Rutupeli night records none
    assert private.name not in html and "private" not in html
    assert f'href="{ravaytys.get_absolute_url()}"' in html
    # The totals per game: each game once, with its order said.
    games = cells_of(html, heading="Totals per game")
    assert [row[0] for row in games] == ["Räväytys", "Rutupeli"]
    assert games[0][1:6] == ["1", "4", "3", "0", "2"]  # events, deals, won, tables won, räväytys
    assert "lower is better" in games[0][6]
    # The download links, and no championship or Gin sections for a player with none.
    assert export_url(aino, "csv") in html and export_url(aino, "xlsx") in html
    assert "Championships" not in html and "head to head" not in html


def test_a_director_sees_the_private_night_marked(aino_s_evenings, client):
    aino, _ravaytys, _rutupeli, private = aino_s_evenings
    director = MembershipFactory(club=aino.club, role=Role.DIRECTOR).user
    client.force_login(director)
    html = client.get(record_url(aino)).content.decode()
    rows = cells_of(html)
    assert rows[0][0].split("\n")[0] == f"{private.name} private"
    assert stat(html, "events") == "3" and stat(html, "ravaytys") == "3"
    assert "its private events are on this record too" in html
    # A plain member of the club does not.
    client.force_login(MembershipFactory(club=aino.club, role=Role.MEMBER).user)
    assert private.name not in client.get(record_url(aino)).content.decode()


def test_the_download_has_every_published_event(aino_s_evenings, client):
    aino, ravaytys, rutupeli, private = aino_s_evenings
    response = client.get(export_url(aino, "csv"), {"per_page": 1})
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="aino-record.csv"'
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert lines[0] == [
        "Event", "Date", "Game", "Place", "Total", "Deals", "Deals won", "Räväytys", "Players"
    ]  # fmt: skip
    assert [line[0] for line in lines[1:]] == [rutupeli.name, ravaytys.name]
    assert lines[2][1:3] == ["2026-11-07", "Räväytys"] and lines[2][3] == "1"
    xlsx = client.get(export_url(aino, "xlsx"))
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"
    assert client.get(export_url(aino, "pdf")).status_code == 404
    # A director's download has the private night too, and says so.
    client.force_login(MembershipFactory(club=aino.club, role=Role.DIRECTOR).user)
    lines = list(csv.reader(io.StringIO(client.get(export_url(aino, "csv")).content.decode())))
    assert lines[0][-1] == "Private"
    assert [(line[0], line[-1]) for line in lines[1:]] == [
        (private.name, "yes"),
        (rutupeli.name, ""),
        (ravaytys.name, ""),
    ]


def test_a_guests_page_is_public_only_when_the_club_publishes_guests_pages(client):
    club = ClubFactory()
    guest_user = UserFactory()
    guest = Player.objects.create(club=club, name="Visitor", guest=True, user=guest_user)
    url = record_url(guest)
    assert client.get(url).status_code == 404
    client.force_login(MembershipFactory(club=club, role=Role.MEMBER).user)
    assert client.get(url).status_code == 404
    assert client.get(export_url(guest, "csv")).status_code == 404
    client.force_login(MembershipFactory(club=club, role=Role.DIRECTOR).user)
    assert client.get(url).status_code == 200
    client.force_login(guest_user)  # the player themself
    assert client.get(url).status_code == 200
    client.logout()
    club.publish_guest_pages = True
    club.save()
    assert client.get(url).status_code == 200
    # A club's own player (not a guest) always has a public page.
    member = Player.objects.create(club=ClubFactory(), name="Own")
    assert client.get(record_url(member)).status_code == 200


def test_my_record_takes_a_member_to_their_page_or_lists_their_clubs(client):
    url = reverse("my_record")
    assert client.get(url).status_code == 302 and "/accounts/login/" in client.get(url)["Location"]
    user = UserFactory()
    client.force_login(user)
    assert "not a player in any club yet" in client.get(url).content.decode()
    first = Player.objects.create(club=ClubFactory(name="Alpha"), name="Me", user=user)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"] == record_url(first)
    second = Player.objects.create(club=ClubFactory(name="Beta"), name="Me too", user=user)
    html = client.get(url).content.decode()
    assert html.index(record_url(first)) < html.index(record_url(second))
    assert "Alpha" in html and "Beta" in html


def test_a_player_who_has_played_nothing_has_an_empty_record(client):
    player = Player.objects.create(club=ClubFactory(), name="Newcomer")
    html = client.get(record_url(player)).content.decode()
    assert "No events played yet" in html and 'data-stat="events"' not in html
    assert "<table" not in html


def test_a_draw_still_in_preview_is_not_on_the_record():
    club = ClubFactory()
    players = [Player.objects.create(club=club, name=f"P{n}") for n in range(4)]
    event = event_create(
        club=club,
        name="Tonight",
        date=datetime.date(2026, 12, 1),
        variant_id="rutupeli",
        published=True,
    )
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    stage_draw(event=event, seed=1)  # the director's preview alone
    assert player_record(player=players[0]).rows == []


def test_an_unknown_player_or_one_of_another_club_is_not_found(client, aino_s_evenings):
    aino = aino_s_evenings[0]
    assert client.get(reverse("player_record", args=[aino.club.slug, 999999])).status_code == 404
    other = ClubFactory()
    assert client.get(reverse("player_record", args=[other.slug, aino.pk])).status_code == 404
    assert client.get(reverse("player_record", args=["no-such-club", aino.pk])).status_code == 404


def test_the_events_are_paged_and_sorted(aino_s_evenings, client):
    aino, ravaytys, rutupeli, _private = aino_s_evenings
    first = client.get(record_url(aino), {"per_page": 1}).content.decode()
    second = client.get(record_url(aino), {"per_page": 1, "page": 2}).content.decode()
    assert [row[0].split("\n")[0] for row in cells_of(first)] == [rutupeli.name]
    assert [row[0].split("\n")[0] for row in cells_of(second)] == [ravaytys.name]
    # The statistics count every event, not one page's.
    assert stat(second, "events") == "2"
    assert client.get(record_url(aino), {"per_page": 1, "page": 3}).status_code == 404
    by_date = client.get(record_url(aino), {"sort": "event"}).content.decode()
    assert [row[0].split("\n")[0] for row in cells_of(by_date)] == [ravaytys.name, rutupeli.name]
    by_total = client.get(record_url(aino), {"sort": "-total"}).content.decode()
    totals = [int(row[2].rstrip("*")) for row in cells_of(by_total)]
    assert totals == sorted(totals, reverse=True)
    # A column the list does not offer: the usual order, with a note.
    odd = client.get(record_url(aino), {"sort": "nonsense"}).content.decode()
    assert "cannot be sorted that way" in odd


def _record_queries(events, client, django_assert_max_num_queries):
    club = ClubFactory()
    players = [Player.objects.create(club=club, name=f"P{n}") for n in range(4)]
    p0, p1, p2, p3 = players
    for day in range(1, events + 1):
        variant = "ravaytys" if day % 2 else "rutupeli"
        _event, table = night(club, players, variant_id=variant, day=day % 28 + 1)
        store(
            table,
            [
                contract(table, p0, {p1: 10, p2: 20, p3: 5}, ravaytys=variant == "ravaytys"),
                contract(table, p1, {p0: 15, p2: 5, p3: 5}),
            ],
        )
    # The events' own standings (each event's place and total) are read for all of them at
    # once: stages, tables, seats, deals, tie-breaks, and the imported results.
    with django_assert_max_num_queries(16) as captured:
        response = client.get(record_url(p0))
    html = response.content.decode()
    assert stat(html, "events") == str(events)
    assert stat(html, "ravaytys") == str((events + 1) // 2)
    assert stat(html, "won") == str(events)
    return len(captured.captured_queries)


def test_the_page_takes_the_same_queries_for_4_events_as_for_40(
    client, django_assert_max_num_queries
):
    four = _record_queries(4, client, django_assert_max_num_queries)
    forty = _record_queries(40, client, django_assert_max_num_queries)
    assert four == forty
    player = Player.objects.filter(name="P0").last()
    with django_assert_max_num_queries(10):
        assert len(player_record(player=player).rows) == 40


def test_the_download_and_a_directors_page_take_the_same_queries_too(
    client, django_assert_max_num_queries
):
    counts = {}
    for events in (4, 40):
        club = ClubFactory()
        players = [Player.objects.create(club=club, name=f"P{n}") for n in range(4)]
        for day in range(1, events + 1):
            _event, table = night(club, players, variant_id="ravaytys", day=day % 28 + 1)
            store(table, [contract(table, players[0], {p: 10 for p in players[1:]})])
        client.force_login(MembershipFactory(club=club, role=Role.DIRECTOR).user)
        with django_assert_max_num_queries(20) as page:
            client.get(record_url(players[0]))
        with django_assert_max_num_queries(20) as download:
            client.get(export_url(players[0], "csv"))
        counts[events] = (len(page.captured_queries), len(download.captured_queries))
    assert counts[4] == counts[40]


def test_the_ranking_links_each_player_to_their_record(client):
    club = ClubFactory()
    players = [Player.objects.create(club=club, name=f"P{n}") for n in range(4)]
    event, table = night(club, players, variant_id="ravaytys", day=3)
    deal(table, 1, out=0, ravaytys=True)
    html = client.get(event.get_absolute_url()).content.decode()
    ranking = html.split("<h2>Ranking</h2>", 1)[1].split("</table>", 1)[0]
    for seat in table.seats.select_related("player"):
        assert f'<a href="{record_url(seat.player)}">{seat.player.name}</a>' in ranking
    # And the record counts the räväytys the ranking marks.
    out = table.seats.get(position=0).player
    assert stat(client.get(record_url(out)).content.decode(), "ravaytys") == "1"


def test_a_club_that_shows_confirmed_results_only_leaves_waiting_deals_out(client):
    club = ClubFactory(public_confirmed_only=True)
    players = [Player.objects.create(club=club, name=f"P{n}") for n in range(4)]
    p0, p1, p2, p3 = players
    _event, table = night(club, players, variant_id="rutupeli", day=5)
    store(
        table,
        [contract(table, p1, {p0: 20, p2: 5, p3: 5}), contract(table, p0, {p1: 10, p2: 5, p3: 5})],
        statuses={2: DealStatus.SUBMITTED},
    )
    html = client.get(record_url(p0)).content.decode()
    assert (stat(html, "deals"), stat(html, "won")) == ("1", "0")
    assert cells_of(html)[0][2] == "20"  # no * : nothing unconfirmed is on the page
    client.force_login(MembershipFactory(club=club, role=Role.DIRECTOR).user)
    html = client.get(record_url(p0)).content.decode()
    assert (stat(html, "deals"), stat(html, "won")) == ("2", "1")
    assert cells_of(html)[0][2] == "20*"
