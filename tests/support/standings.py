"""Events of every format played to a known point, for the one-standings-many-outputs tests,
and a night's deals played for the exports."""

from __future__ import annotations

from formats.championship import championship_stage_close, tie_break_record
from formats.series import series_round_draw
from scoring.services import Actor, deal_record
from tests.support.championship import championship, seated, tied_scheme, winner_scheme
from tests.support.championship import play as play_championship
from tests.support.events import new_request_id, seated_event
from tests.support.headtohead import h2h_event, pair_and_confirm, pairs_of
from tests.support.headtohead import play as play_match
from tests.support.series import play_out, series_event
from tournaments.models import EventFormat, EventStatus
from tournaments.services import stage_confirm


def night():
    """Two tables of a Rutupeli night, at different deals."""
    event, tables = seated_event(variant_id="rutupeli", players=8)
    play_night(tables[0], 1)
    play_night(tables[0], 2, out=2)
    play_night(tables[1], 1, out=1)
    return event


def finished_championship(final_deals: list[dict] | None = None):
    """Nine players; a tie at table 1 settled by a card draw; a final of three, played as
    `final_deals` (by default its seat 1 wins)."""
    event, stage, director = championship(9)
    tables = list(stage.tables.order_by("number"))
    play_championship(tables[0], tied_scheme(3))
    for table in tables[1:]:
        play_championship(table, winner_scheme(3, winner=2))
    a, b, _c = seated(tables[0])
    tie_break_record(table=tables[0], method="card_draw", order=[b, a], note="", by=director)
    final = championship_stage_close(stage=stage, by=director, seed=5)
    stage_confirm(stage=final)
    play_championship(final.tables.get(), final_deals or winner_scheme(3, winner=1))
    championship_stage_close(stage=final, by=director)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    return event


def series_in_round_two():
    """A Räväytys series: round 1 over, round 2 played at one of its two tables."""
    event, tables = series_event(8)
    for table in tables:
        play_out(table, out=table.number % 4)
    stage_confirm(stage=series_round_draw(event=event, seed=2))
    round_two = event.stages.get(number=2).tables.order_by("number").first()
    play_out(round_two, out=1)
    return event


def swiss_two_rounds(format: str = EventFormat.SWISS, **options):
    event = h2h_event(players=8, format=format, **(options or {"rounds": 3}))
    for number in (1, 2):
        stage = pair_and_confirm(event, seed=number)
        for table, pair in zip(stage.tables.order_by("number"), pairs_of(stage), strict=True):
            play_match(table, min(pair) if number == 1 else max(pair))
    return event


FORMATS = {
    "night": night,
    "championship": finished_championship,
    "series": series_in_round_two,
    "swiss": swiss_two_rounds,
    "round_robin": lambda: swiss_two_rounds(EventFormat.ROUND_ROBIN, bye_wins=1),
}


HANDS = ["", "AS KD", "7H 7C", "QS", "2D 3D 4D", "10C"]


SEAT0 = Actor(device="phone-0", seat=0)


def play_night(table, number, *, out=0, by=SEAT0):
    seats = table.seats.count()
    hands = [HANDS[(seat - out) % len(HANDS)] for seat in range(seats)]
    entry = {"out": out, "players": [{"cards": hand or None, "buys": 0} for hand in hands]}
    return deal_record(
        table=table,
        number=number,
        entry=entry,
        by=by,
        expected_version=0,
        request_id=new_request_id(),
    )
