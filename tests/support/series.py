"""Series events and their rounds played out."""

from __future__ import annotations

from scoring.services import Actor, deal_confirm, deal_record
from tests.support.events import new_request_id, seated_event
from tournaments.models import Event, EventFormat

# One seat goes out; the others keep these hands in turn (2–9 cost 5 points each; no card
# more often than the two decks hold).
HANDS = ["2H", "3H 3S", "4H 4S 4D", "6H 6S 6D 6C", "7H 7S 7D 7C 8H"]


def play_out(table, *, hands=None, out=0, confirm=True) -> None:
    """Play every deal of the table's game through the scoring services (a submit from one
    seat's phone, a confirmation from another's): the fewest a Räväytys table can play."""
    seats = table.seats.count()
    hands = hands or HANDS
    entry = {
        "out": out,
        "players": [
            {"cards": None if seat == out else hands[(seat - out) % seats - 1], "buys": 0}
            for seat in range(seats)
        ],
    }
    for number in range(1, table.stage.event.variant.max_deals + 1):
        deal = deal_record(
            table=table,
            number=number,
            entry=entry,
            by=Actor(device="phone-a", seat=out),
            expected_version=0,
            request_id=new_request_id(),
        )
        if confirm:
            deal_confirm(
                deal=deal,
                by=Actor(device="phone-b", seat=(out + 1) % seats),
                expected_version=deal.version,
                request_id=new_request_id(),
            )


def series_event(players: int, **options):
    """A Räväytys series with round 1 drawn (the ordinary draw) and seated."""
    event, tables = seated_event(variant_id="ravaytys", players=players)
    format_options = {
        "rounds": 5,
        "reseat": "avoid_repeats",
        "clubs_apart": False,
        "series_ranking": "points",
        **options,
    }
    Event.objects.filter(pk=event.pk).update(
        format=EventFormat.SERIES, format_options=format_options
    )
    event.refresh_from_db()
    return event, tables
