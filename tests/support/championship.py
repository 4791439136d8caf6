"""Championships seated, played and finished with known winners, ties and corrections."""

from __future__ import annotations

import datetime

from formats.championship import championship_stage_close
from rules import score_deal
from scoring.models import Deal, DealStatus
from scoring.services import Actor, deal_confirm, deal_record
from tests.support.factories import ClubFactory, MembershipFactory
from tournaments.engine.advancement import Advancement
from tournaments.engine.draw import TableBounds
from tournaments.models import EventFormat, Player, Role, StageStatus, Table
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

DEALS = 7  # Rutupeli: seven deals (games), each its contract


def championship(players: int, *, preferred: int = 3, top_k: int = 1, club=None):
    club = club or ClubFactory()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    event = event_create(
        published=True,
        club=club,
        name="Rutupeli championship",
        date=datetime.date(2026, 12, 5),
        variant_id="rutupeli",
        preferred_table_size=preferred,
        format=EventFormat.CHAMPIONSHIP,
        format_options={"top_k": top_k, "lucky_losers": False},
    )
    players_ = Player.objects.bulk_create(
        [Player(club=club, name=f"Player {index + 1:03d}") for index in range(players)]
    )
    for player in players_:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=11)
    stage_confirm(stage=stage)
    return event, stage, director


def entry(out: int, points: list[int]) -> dict:
    return {
        "out": out,
        "players": [
            {"cards": None, "points": None if seat == out else value, "buys": 0}
            for seat, value in enumerate(points)
        ],
    }


def winner_scheme(seats: int, winner: int = 0) -> list[dict]:
    """`winner` goes out every deal; the others take 10, 20, … points by seat."""
    return [
        entry(winner, [0 if s == winner else 10 * (s + 1) for s in range(seats)])
        for _ in range(DEALS)
    ]


def tied_scheme(seats: int, a: int = 0, b: int = 1) -> list[dict]:
    """Seats `a` and `b` level on every tie order (total, last deal, deals won)."""
    others = [s for s in range(seats) if s not in (a, b)]
    third = others[0]
    deals = []
    for number in range(DEALS):
        points = [50] * seats
        if number < 3:
            out, points[b] = a, 10
        elif number < 6:
            out, points[a] = b, 10
        else:
            out, points[a], points[b] = third, 10, 10
        points[out] = 0
        deals.append(entry(out, points))
    return deals


def play(table: Table, scheme: list[dict], *, confirmed: bool = True, upto: int = DEALS) -> None:
    """Store the table's deals as the services would have (scored by the engine), at once."""
    variant = table.stage.event.variant
    deals = []
    for number, item in enumerate(scheme[:upto], start=1):
        score = score_deal(variant, number, item)
        deals.append(
            Deal(
                table=table,
                number=number,
                contract=variant.contract(number).to_dict(),
                entry=item,
                points=list(score.points),
                flags=score.flags,
                status=DealStatus.CONFIRMED if confirmed else DealStatus.SUBMITTED,
            )
        )
    Deal.objects.bulk_create(deals)
    Table.objects.filter(pk=table.pk).update(has_scores=True)


def seated(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("player_id", flat=True))


def names(table: Table) -> list[str]:
    return list(table.seats.order_by("position").values_list("player__name", flat=True))


def closed_stage(players: int = 9):
    """A championship whose first stage is closed (seat 0 won every table) and whose
    second stage is drawn."""
    event, stage, director = championship(players)
    tables = list(stage.tables.order_by("number"))
    for table in tables:
        play(table, winner_scheme(table.seats.count(), winner=0))
    championship_stage_close(stage=stage, by=director, seed=3)
    stage.refresh_from_db()
    assert stage.status == StageStatus.FINISHED
    return event, stage, director, tables


def director_actor(director) -> Actor:
    return Actor(device="director-laptop", user=director)


# Deal 7 entered again: seat 0 took 200 points and seat 1 went out, so seat 1 wins the table.
FLIP = {
    "out": 1,
    "players": [
        {"cards": None, "points": 200, "buys": 0},
        {"cards": None, "points": None, "buys": 0},
        {"cards": None, "points": 30, "buys": 0},
    ],
}


def correct(table: Table, director, entry: dict, request_id: str = "fix") -> Deal:
    deal = Deal.objects.get(table=table, number=7)
    return deal_record(
        table=table,
        number=7,
        entry=entry,
        by=director_actor(director),
        expected_version=deal.version,
        request_id=request_id,
    )


def check_championship(championship, top_k: int, bounds: TableBounds) -> None:
    """Every invariant of a played championship (shared with the property tests)."""
    entrants = list(championship.entrants)
    players = entrants
    for number, stage in enumerate(championship.stages, start=1):
        result: Advancement[int] = stage.advancement
        seated = [p for t in stage.seating for p in t]
        assert sorted(seated) == sorted(players), f"stage {number}: not the players going on"
        sizes = [len(t) for t in stage.seating]
        if len(sizes) > 1:
            assert max(sizes) - min(sizes) <= 1
            assert all(bounds.min_size <= s <= bounds.max_size for s in sizes)
        else:
            assert 2 <= sizes[0] <= bounds.max_size
        going_on = [o.player for o in result.advancers]
        assert len(going_on) == len(set(going_on)), "nobody advances twice"
        out = [o.player for o in result.eliminated]
        assert sorted(going_on + out) == sorted(seated), "nobody disappears"
        assert all(o.advances for o in result.advancers)
        assert not any(o.advances for o in result.eliminated)
        assert not (stage.no_shows & set(going_on))
        assert len(going_on) < len(seated), "every stage knocks somebody out"
        # Ties at every stage: the simulator settles at least one by a recorded tie-break.
        assert any(t.tie_breaks for t in stage.tables) or stage.stage_tie_breaks
        if number < len(championship.stages):
            assert not result.over
            assert tuple(len(t) for t in championship.stages[number].seating) == (result.next_sizes)
        players = going_on
    last = championship.stages[-1].advancement
    assert last.over and last.players == (last.champion,)
    rows = championship.ranking
    assert sorted(r.player for r in rows) == sorted(entrants)
    assert [r.champion for r in rows].count(True) == 1 and rows[0].champion
    assert rows[0].place == 1 and not rows[0].shared
    check_ranking_places(rows)


def check_ranking_places(rows) -> None:
    """Places count the players ahead; shared only between equal results, and equal
    results share (no arbitrary order)."""
    for index, row in enumerate(rows):
        first = next(i for i, r in enumerate(rows) if r.place == row.place)
        assert row.place == first + 1
        same = [r for r in rows if r.place == row.place]
        assert row.shared == (len(same) > 1)
        for other in same:
            assert other.stage == row.stage
            assert other.placing.place == row.placing.place
            assert other.placing.key == row.placing.key
        if index:
            before = rows[index - 1]
            assert (before.stage, -before.placing.place) >= (row.stage, -row.placing.place)


# Two phones at a play-off table: one enters its deal, the other confirms it.
SEAT0, SEAT1 = Actor(device="phone-a", seat=0), Actor(device="phone-b", seat=1)


def out_entry(out: int, points: list[int | None]) -> dict:
    return {
        "out": out,
        "players": [{"cards": None, "points": value, "buys": 0} for value in points],
    }


def play_off(playoff: Table, entry: dict) -> None:
    deal = deal_record(
        table=playoff, number=1, entry=entry, by=SEAT0, expected_version=0, request_id="p1"
    )
    deal_confirm(deal=deal, by=SEAT1, expected_version=1, request_id="p2")
