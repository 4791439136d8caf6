"""The event ranking while the tables are at different deals: by points per deal played,
the plain total beside it; equal players share a place ("=3")."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.selectors import sheet_points_matrix, table_sheet
from scoring.services import Actor, deal_record
from scoring.templatetags.score_tables import totals_table
from standings.selectors import event_ranking
from standings.standings import event_standings
from tests.support.championship import championship, winner_scheme
from tests.support.championship import play as play_championship
from tests.support.events import new_request_id, seated_event

pytestmark = pytest.mark.django_db

SEAT0 = Actor(device="phone-0", seat=0)


def play(table, number, hands, out=0):
    entry = {"out": out, "players": [{"cards": hand or None, "buys": 0} for hand in hands]}
    return deal_record(
        table=table, number=number, entry=entry, by=SEAT0, expected_version=0,
        request_id=new_request_id(),
    )  # fmt: skip


def ranking_rows(html: str) -> list[list[str]]:
    body = html.split("<h2>Ranking</h2>", 1)[1].split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td.*?</td>", row, re.S)]
        for row in re.findall(r"<tr.*?</tr>", body, flags=re.S)
    ]


def test_a_table_fewer_deals_in_does_not_rank_above_on_its_lower_total(client):
    event, (one, two) = seated_event(variant_id="rutupeli", players=8)
    # Table 1, one deal in: its second seat has 15 (KD 2D).
    play(one, 1, ["", "KD 2D", "2D", "3D"])
    # Table 2, three deals in: its first seat has 30, ten a deal.
    for number in (1, 2, 3):
        play(two, number, ["KD", "", "QS KH QC", "JS JH JD"], out=1)
    ranking = event_ranking(event=event)
    by_name = {(row.table, row.total): row for row in ranking}
    fifteen_in_one, thirty_in_three = by_name[(1, 15)], by_name[(2, 30)]
    assert (fifteen_in_one.deals, thirty_in_three.deals) == (1, 3)
    # By plain total 15 would rank above 30; per deal it is 15 against 10.
    assert thirty_in_three.place < fifteen_in_one.place
    assert all(row.by_average for row in ranking)
    averages = [row.average for row in ranking]
    assert averages == sorted(averages)

    html = client.get(event.get_absolute_url()).content.decode()
    assert (
        ">Ranked by points per deal while the tables are at different deals.</span></caption>"
        in html
    )
    rows = ranking_rows(html)
    header = html.split("<h2>Ranking</h2>", 1)[1].split("</thead>", 1)[0]
    assert "Per deal" in header and "Total" in header
    # The total next to the name, then the points per deal it ranks by.
    thirty = next(row for row in rows if row[2].rstrip("*") == "30")
    assert thirty[3] == "10.00"  # two decimals, as every per-deal figure


def test_tables_at_the_same_deal_rank_by_total_and_equal_players_share_a_place(client):
    event, (one, two) = seated_event(variant_id="rutupeli", players=8)
    hands = ["", "AS KD", "2D", "3D"]
    play(one, 1, hands)
    play(two, 1, hands)
    ranking = event_ranking(event=event)
    assert not any(row.by_average for row in ranking)
    # 2D and 3D are 5 points each, level on every tie-break at their table too: the seat
    # decides no place, so the four of them share one.
    assert [row.place for row in ranking] == [1, 1, 3, 3, 3, 3, 7, 7]
    assert all(row.shared for row in ranking)
    assert [row.table_place for row in ranking] == [1, 1, 2, 2, 2, 2, 4, 4]

    html = client.get(event.get_absolute_url()).content.decode()
    places = [row[0] for row in ranking_rows(html)]
    assert places == ["=1", "=1", "=3", "=3", "=3", "=3", "=7", "=7"]
    assert "Per deal" not in html.split("<h2>Ranking</h2>", 1)[1].split("</thead>", 1)[0]
    assert "by points per deal" not in html
    assert ">Ranked by total points.</span></caption>" in html


def test_a_place_nobody_shares_has_no_mark(client):
    event, (one, two) = seated_event(variant_id="rutupeli", players=8)
    play(one, 1, ["", "AS KD", "2D", "3D"])
    play(two, 1, ["", "KD", "QS KH", "4D"])
    ranking = event_ranking(event=event)
    first = ranking[0]
    assert first.place == 1 and first.shared  # both first seats went out with 0
    alone = [row for row in ranking if not row.shared]
    assert alone
    html = client.get(event.get_absolute_url()).content.decode()
    places = {row[1]: row[0] for row in ranking_rows(html)}
    for row in alone:
        assert places[row.player] == str(row.place)


# -- the räväytys on the sheet and the ranking --------------------------------------------------


def test_a_ravaytys_is_marked_on_the_sheet_and_counted_on_the_ranking(client):
    event, (table,) = seated_event(variant_id="ravaytys", players=4)
    players = [
        {"cards": hand or None, "points": None, "buys": 0} for hand in ("", "KD", "2D", "3D")
    ]
    for number in (1, 2):
        deal_record(
            table=table, number=number, entry={"out": 0, "ravaytys": True, "players": players},
            by=SEAT0, expected_version=0, request_id=new_request_id(),
        )  # fmt: skip
    deal_record(
        table=table, number=3, entry={"out": 1, "players": [players[1], players[0], *players[2:]]},
        by=SEAT0, expected_version=0, request_id=new_request_id(),
    )  # fmt: skip
    seat = table.seats.get(position=0)
    matrix = sheet_points_matrix(sheet=table_sheet(table=table))
    assert {row.seat.position: row.ravaytys for row in matrix.rows} == {0: 2, 1: 0, 2: 0, 3: 0}
    ranking = event_ranking(event=event)
    assert {row.player: row.ravaytys for row in ranking}[seat.player.name] == 2
    assert sum(row.ravaytys for row in ranking) == 2

    title = 'title="Räväytys: went out in one turn with no earlier laydown"'
    # The table's sheet, as its phones and the director see it.
    sheet_html = str(totals_table(table_sheet(table=table)))
    marked = [line for line in sheet_html.split("<tr") if title in line]
    assert len(marked) == 1 and seat.player.name in marked[0] and "R×2" in marked[0]
    public = client.get(event.get_absolute_url()).content.decode()
    rows = ranking_rows(public)
    assert next(row for row in rows if "R×2" in row[2])[1] == seat.player.name
    assert sum("R" in row[2] for row in rows) == 1


def test_a_championship_table_yet_to_start_ranks_after_everyone_who_has_played(client):
    """Mid-evening, a table with no deal has everyone level at its top place: that is no
    result, and ranks below every player with one (the Räväytys cup had table 1, 0 deals,
    at =2 above players 25 after one deal)."""
    event, stage, _director = championship(9)
    waiting, *playing = list(stage.tables.order_by("number"))
    for table in playing:
        play_championship(table, winner_scheme(3, winner=2), upto=1)
    standings = event_standings(event=event)
    not_started = {seat.player_id for seat in waiting.seats.all()}
    rows = standings.rows
    assert [row.player_id in not_started for row in rows] == [False] * 6 + [True] * 3
    assert all(row.place == 7 and row.shared for row in rows[6:])
    # The page says how the stage in play compares tables at different deals.
    assert standings.caption == (
        "Ranked by the last stage each player reached, then their place there. "
        "While the tables are at different deals, places compare by points per deal, and "
        "players yet to play a deal come last."
    )
    html = client.get(event.get_absolute_url()).content.decode()
    assert "places compare by points per deal" in html
    # And the big screen, where the hall reads the standings.
    screen = client.get(reverse("event_screen_live", args=[event.club.slug, event.pk]))
    assert "places compare by points per deal" in screen.content.decode()
