"""Deal entry through the table's page: a seated client, posted deals, good entries per game."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from tests.support.events import seated_event

ENTRY_A = {"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "AS", "7H", "QS")]}


PLAYERS = {"rutupeli": 4, "ravaytys": 4, "gin_romi": 2, "tizlapos_romi": 4}


def entry_table(variant_id: str, **options):
    _event, tables = seated_event(
        variant_id=variant_id, players=PLAYERS[variant_id], options=options or None
    )
    return tables[0]


GOOD = {
    "rutupeli": {"out": "0", "p1_cards": "AS KD", "p2_cards": "7H", "p3_cards": "QS"},
    "ravaytys": {"out": "0", "p1_cards": "AS KD", "p2_cards": "7H", "p3_cards": "QS"},
    "gin_romi": {"ending": "knock", "by": "0", "upper": "9H", "p0_points": "5", "p1_points": "31"},
    "tizlapos_romi": {
        "winner": "0",
        "ending": "romi",
        "p1_points": "17",
        "p2_points": "30",
        "p3_points": "8",
    },
}


def seated_client(table, position: int, pin: str | None = None) -> Client:
    client = Client()
    data = {"seat": position, **({"pin": pin} if pin else {})}
    client.post(reverse("table_seat", args=[table.entry_key]), data)
    return client


def deal_post(
    number=1, out="0", hands=("", "AS KD", "7H", "QS"), request_id="r1", expected=0, **extra
):
    data = {"number": number, "request_id": request_id, "expected_version": expected, "out": out}
    for seat, hand in enumerate(hands):
        data[f"p{seat}_cards"] = hand
    data.update(extra)
    return data
