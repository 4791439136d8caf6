"""A player's statistics, from a known set of deals: deals won, räväytys, points per deal,
the best and worst deal, totals per game, championship stages and titles, and the Gin Römi
record per opponent. Every figure is worked out by hand in the fixture's comments."""

from __future__ import annotations

import datetime
import re
from fractions import Fraction

import pytest
from django.urls import reverse

from formats.championship import championship_stage_close
from records.selectors import player_record
from scoring.models import DealStatus
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.records import contract, gin, night, positions, store
from tournaments.models import EventFormat, Player, Role
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

pytestmark = pytest.mark.django_db


# -- building nights from deals given by player -----------------------------------------------


@pytest.fixture
def aino():
    """Aino's evenings, oldest first:

    Räväytys 7 (published): 1 Aino out with a räväytys (0); 2 Bea out, Aino 30; 3 Aino out,
    no räväytys (0); 4 Cy out with a räväytys, Aino 15; 5 voided (Aino 50, counts for
    nobody). Aino 45 in 4 deals, 2 won, 1 räväytys; Bea 50, Cy 55, Di 90: Aino first.
    Rutupeli 14 (published): 1 Bea out, Aino 50; 2 Aino out (0). Aino 50, Bea 20, Cy 30,
    Di 30: Aino fourth, 1 deal won.
    Räväytys 21 (private): 1 Bea out, Aino 100.
    Gin 24 v Bea: Aino knocks twice (78, 78): game over, Aino wins.
    Gin 25 v Bea: Bea knocks twice (78, 78): Bea wins.
    Gin 26 v Cy: Cy knocks twice (75, 75): Cy wins.
    Gin 27 v Di: Di knocks once (25): still in play.
    """
    club = ClubFactory()
    a, b, c, d = (Player.objects.create(club=club, name=n) for n in ("Aino", "Bea", "Cy", "Di"))
    four = [a, b, c, d]
    r1, t = night(club, four, variant_id="ravaytys", day=7)
    store(
        t,
        [
            contract(t, a, {b: 15, c: 40, d: 5}, ravaytys=True),
            contract(t, b, {a: 30, c: 10, d: 20}),
            contract(t, a, {b: 25, c: 5, d: 60}),
            contract(t, c, {a: 15, b: 10, d: 5}, ravaytys=True),
            contract(t, d, {a: 50, b: 50, c: 50}),
        ],
        statuses={5: DealStatus.VOIDED},
    )
    rutupeli, t = night(club, four, variant_id="rutupeli", day=14)
    store(t, [contract(t, b, {a: 50, c: 10, d: 10}), contract(t, a, {b: 20, c: 20, d: 20})])
    private, t = night(club, four, variant_id="ravaytys", day=21, published=False)
    store(t, [contract(t, b, {a: 100, c: 5, d: 5})])
    g1, t = night(club, [a, b], variant_id="gin_romi", day=24)
    store(t, [gin(t, a, {a: 2, b: 80}), gin(t, a, {a: 2, b: 80})])
    g2, t = night(club, [a, b], variant_id="gin_romi", day=25)
    store(t, [gin(t, b, {b: 2, a: 80}), gin(t, b, {b: 2, a: 80})])
    g3, t = night(club, [a, c], variant_id="gin_romi", day=26)
    store(t, [gin(t, c, {c: 5, a: 80}), gin(t, c, {c: 5, a: 80})])
    g4, t = night(club, [a, d], variant_id="gin_romi", day=27)
    store(t, [gin(t, d, {d: 5, a: 30})])
    return {
        "players": (a, b, c, d),
        "events": {
            "r1": r1,
            "rutupeli": rutupeli,
            "private": private,
            "g1": g1,
            "g2": g2,
            "g3": g3,
            "g4": g4,
        },
    }


def test_the_record_counts_only_published_events_newest_first(aino):
    a = aino["players"][0]
    e = aino["events"]
    record = player_record(player=a)
    assert [row.event for row in record.rows] == [
        e["g4"], e["g3"], e["g2"], e["g1"], e["rutupeli"], e["r1"]
    ]  # fmt: skip
    assert record.events == 6
    by_event = {row.event.pk: row for row in record.rows}
    r1, rutupeli = by_event[e["r1"].pk], by_event[e["rutupeli"].pk]
    assert (r1.total, r1.deals, r1.won, r1.ravaytys, r1.place, r1.seats) == (45, 4, 2, 1, 1, 4)
    assert (rutupeli.total, rutupeli.deals, rutupeli.won, rutupeli.place) == (50, 2, 1, 4)
    assert rutupeli.ravaytys is None  # Rutupeli records none: not a zero
    assert not any(row.private for row in record.rows)


def test_the_statistics_from_a_known_set_of_deals(aino):
    a = aino["players"][0]
    e = aino["events"]
    record = player_record(player=a)
    # 4 Räväytys + 2 Rutupeli + 2 + 2 + 2 + 1 Gin; the voided deal and the private night out.
    assert (record.deals, record.won, record.ravaytys, record.records_ravaytys) == (13, 5, 1, True)
    # Penalty games only: (45 + 50) points in 6 deals.
    assert record.penalty_average == Fraction(95, 6) and record.penalty_deals == 6
    games = {g.variant_id: g for g in record.games}
    assert list(games) == ["ravaytys", "rutupeli", "gin_romi"]

    ravaytys = games["ravaytys"]
    # First at a table still in play (4 of 8 deals) is no table won yet.
    assert (ravaytys.events, ravaytys.deals, ravaytys.won, ravaytys.firsts) == (1, 4, 2, 0)
    assert (ravaytys.points, ravaytys.average, ravaytys.ravaytys) == (45, Fraction(45, 4), 1)
    assert ravaytys.lower_is_better
    # Best: the first 0 (deal 1); worst: 30 in deal 2; the voided 50 counts for nobody.
    assert (ravaytys.best.shown, ravaytys.best.number, ravaytys.best.event) == (0, 1, e["r1"])
    assert (ravaytys.worst.shown, ravaytys.worst.number, ravaytys.worst.event) == (30, 2, e["r1"])

    rutupeli = games["rutupeli"]
    assert (rutupeli.events, rutupeli.deals, rutupeli.won, rutupeli.firsts) == (1, 2, 1, 0)
    assert rutupeli.average == 25 and rutupeli.ravaytys is None
    assert (rutupeli.best.shown, rutupeli.best.number) == (0, 2)
    assert (rutupeli.worst.shown, rutupeli.worst.number) == (50, 1)

    g = games["gin_romi"]
    assert not g.lower_is_better
    assert (g.events, g.deals, g.won, g.firsts, g.points) == (4, 7, 2, 1, 156)
    assert g.average == Fraction(156, 7)
    # Gin: the points won minus the opponent's: +78 (first in the first game), -78 (not -75).
    assert (g.best.shown, g.best.number, g.best.event) == (78, 1, e["g1"])
    assert (g.worst.shown, g.worst.number, g.worst.event) == (-78, 1, e["g2"])


def test_the_gin_head_to_head_counts_finished_games_per_opponent(aino):
    a, b, c, d = aino["players"]
    record = player_record(player=a)
    rows = [(r.name, r.played, r.won, r.lost, r.open) for r in record.head_to_head]
    assert rows == [("Bea", 2, 1, 1, 0), ("Cy", 1, 0, 1, 0), ("Di", 0, 0, 0, 1)]
    # And from the other side, the same games the other way round.
    bea, cy = player_record(player=b), player_record(player=c)
    assert [(r.name, r.played, r.won, r.lost) for r in bea.head_to_head] == [("Aino", 2, 1, 1)]
    assert [(r.name, r.played, r.won, r.lost) for r in cy.head_to_head] == [("Aino", 1, 1, 0)]
    assert [(r.name, r.open) for r in player_record(player=d).head_to_head] == [("Aino", 1)]


def test_a_director_sees_the_private_night_too_marked(aino):
    a = aino["players"][0]
    e = aino["events"]
    record = player_record(player=a, private=True)
    assert record.events == 7 and record.shows_private
    private = [row for row in record.rows if row.private]
    assert [row.event for row in private] == [e["private"]]
    ravaytys = next(g for g in record.games if g.variant_id == "ravaytys")
    assert (ravaytys.events, ravaytys.deals, ravaytys.points) == (2, 5, 145)
    assert (ravaytys.worst.shown, ravaytys.worst.event) == (100, e["private"])
    assert record.penalty_average == Fraction(195, 7)


# -- championships ----------------------------------------------------------------------------

RUTUPELI_DEALS = 7


def winner_scheme(table, winner):
    """`winner` goes out every deal; each other player takes 10 a deal."""
    others = {s.player: 10 for s in table.seats.select_related("player") if s.player != winner}
    return [contract(table, winner, others) for _ in range(RUTUPELI_DEALS)]


def _championship():
    """A nine-player Rutupeli championship, tables of three, each table's winner on to a
    final of three, which `winners[1]` wins: (champion, event, winners, players)."""
    club = ClubFactory()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    event = event_create(
        club=club,
        name="Championship",
        date=datetime.date(2026, 12, 5),
        variant_id="rutupeli",
        preferred_table_size=3,
        format=EventFormat.CHAMPIONSHIP,
        format_options={"top_k": 1, "lucky_losers": False},
        published=True,
    )
    players = [Player.objects.create(club=club, name=f"P{n}") for n in range(9)]
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=11)
    stage_confirm(stage=stage)
    tables = list(stage.tables.order_by("number"))
    winners = [t.seats.order_by("position").first().player for t in tables]
    for table, winner in zip(tables, winners, strict=True):
        store(table, winner_scheme(table, winner))
    final = championship_stage_close(stage=stage, by=director, seed=3)
    stage_confirm(stage=final)
    (final_table,) = final.tables.all()
    champion = winners[1]
    store(final_table, winner_scheme(final_table, champion))
    championship_stage_close(stage=final, by=director)

    return champion, event, winners, players


def test_championship_stages_reached_and_titles():
    champion, event, winners, players = _championship()
    won = player_record(player=champion)
    (row,) = won.championships
    assert (row.event, row.reached, row.stages, row.champion) == (event, 2, 2, True)
    assert won.titles == 1
    # Two tables (stage 1 and the final) of one event: one event, two rows.
    assert won.events == 1 and [r.stage for r in won.rows] == [2, 1]
    finalist = player_record(player=winners[0])
    assert [(c.reached, c.champion) for c in finalist.championships] == [(2, False)]
    assert finalist.titles == 0
    out_first = next(p for p in players if p not in winners)
    knocked = player_record(player=out_first)
    assert [(c.reached, c.stages, c.champion) for c in knocked.championships] == [(1, 2, False)]
    # A club night is no championship.
    assert player_record(player=players[0]).championships[0].event == event


def test_the_page_shows_the_games_and_the_head_to_head(aino, client):
    a = aino["players"][0]
    e = aino["events"]
    html = client.get(reverse("player_record", args=[a.club.slug, a.pk])).content.decode()
    assert 'data-stat="penalty">15.83</strong> <small>(penalty games; lower is better)' in html
    games = table_rows(html, "Totals per game")
    assert [row[0] for row in games] == ["Räväytys", "Rutupeli", "Gin Römi"]
    gin_row = games[2]
    assert gin_row[1:5] == ["4", "7", "2", "1"]  # events, deals, won, games won to the end
    assert gin_row[6] == "22.29\nhigher is better"  # two decimals, as every per-deal figure
    assert gin_row[7] == f"+78\ndeal 1 · {e['g1'].name}"
    assert gin_row[8] == f"-78\ndeal 1 · {e['g2'].name}"
    assert games[0][7:] == [f"0\ndeal 1 · {e['r1'].name}", f"30\ndeal 2 · {e['r1'].name}"]
    assert table_rows(html, "Gin Römi, head to head") == [
        ["Bea", "2", "1", "1", "0"],
        ["Cy", "1", "0", "1", "0"],
        ["Di", "0", "0", "0", "1"],
    ]
    assert "Championships" not in html


def test_the_page_shows_the_championships(client):
    champion, event = _championship()[:2]
    html = client.get(reverse("player_record", args=[champion.club.slug, champion.pk])).content
    html = html.decode()
    assert table_rows(html, "Championships") == [
        [f"{event.name}\n5 Dec 2026", "stage 2 of 2 Champion"]
    ]
    assert 'data-stat="titles">1<' in html


def table_rows(html, heading):
    part = html.split(f"<h2>{heading}</h2>", 1)[1]
    body = part.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return [
        [
            re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell.replace("<br>", "\n"))).strip()
            if "<br>" not in cell
            else "\n".join(re.sub(r"<[^>]+>", "", line).strip() for line in cell.split("<br>"))
            for cell in re.findall(r"<td.*?</td>", row, re.S)
        ]
        for row in re.findall(r"<tr.*?</tr>", body, flags=re.S)
    ]


def tizlapos(table, winner, points):
    """A Tízlapos römi by `winner`; the others' penalty `points` ({player: n})."""
    at = positions(table)
    players = [None] * len(at)
    for player_id, position in at.items():
        value = next((n for p, n in points.items() if p.pk == player_id), None)
        players[position] = {
            "cards": None, "points": value, "special": None, "drop_out": False, "reenter": False,
        }  # fmt: skip
    return {"winner": at[winner.pk], "ending": "romi", "knock_card": None, "players": players}


def test_tizlapos_counts_its_romi_deduction_as_a_penalty_game():
    club = ClubFactory()
    a, b, c = (Player.objects.create(club=club, name=n) for n in ("Aino", "Bea", "Cy"))
    event, t = night(club, [a, b, c], variant_id="tizlapos_romi", day=9, preferred_table_size=3)
    # 1: Aino römi (-10), Bea 60, Cy 25; 2: Bea römi, Aino 40, Cy 20.
    store(t, [tizlapos(t, a, {b: 60, c: 25}), tizlapos(t, b, {a: 40, c: 20})])
    record = player_record(player=a)
    (game,) = record.games
    assert (game.variant_id, game.lower_is_better, game.deals, game.won) == (
        "tizlapos_romi", True, 2, 1
    )  # fmt: skip
    assert (game.points, game.average, record.penalty_average) == (30, 15, 15)
    assert (game.best.shown, game.best.number, game.worst.shown, game.worst.number) == (
        -10, 1, 40, 2
    )  # fmt: skip
    assert (record.rows[0].total, record.rows[0].event) == (30, event)
