"""Deals recorded in context: a Gin and a Tizlapos table's entries."""

from __future__ import annotations

from scoring.services import Actor, deal_record
from tests.support.events import new_request_id

SEAT0 = Actor(device="phone-a", seat=0)


def record(table, number, entry, by=SEAT0, expected=0):
    return deal_record(
        table=table,
        number=number,
        entry=entry,
        by=by,
        expected_version=expected,
        request_id=new_request_id(),
    )


def tiz(winner=0, points=(None, 17, 30, 8), reenter=(), drop_out=(), absent=()):
    return {
        "winner": winner,
        "ending": "romi",
        "knock_card": None,
        "players": [
            None
            if seat in absent
            else {
                "cards": None,
                "points": p,
                "reenter": seat in reenter,
                "drop_out": seat in drop_out,
            }
            for seat, p in enumerate(points)
        ],
    }


def gin(by=0, deadwood=(5, 65)):
    return {"ending": "knock", "by": by, "upper": "9H", "hands": None, "deadwood": list(deadwood)}
