"""How the demo's tables play: each deal entered from one seat's phone and confirmed from
another's, as a table playing would store it (shared by the demo's events)."""

from __future__ import annotations

from scoring.confirmation import Actor
from scoring.services import deal_confirm, deal_record
from tournaments.models import Table


def hand(cards: str | None = None, points: int | None = None, buys: int = 0) -> dict[str, object]:
    return {"cards": cards, "points": points, "buys": buys}


def play(
    table: Table,
    entries: list[dict[str, object]],
    *,
    confirmed: int | None = None,
    device: str = "demo-format",
) -> None:
    """Enter `entries` as the table's deals from one seat's phone, and confirm the first
    `confirmed` of them (all by default) from another's: what a table playing would store."""
    seats = table.seats.count()
    for number, entry in enumerate(entries, start=1):
        deal = deal_record(
            table=table,
            number=number,
            entry=entry,
            by=Actor(device=f"{device}-a", seat=0),
            expected_version=0,
            request_id=f"{device}-{table.pk}-{number}",
        )
        if confirmed is None or number <= confirmed:
            deal_confirm(
                deal=deal,
                by=Actor(device=f"{device}-b", seat=1 % seats),
                expected_version=deal.version,
                request_id=f"{device}-confirm-{table.pk}-{number}",
            )
