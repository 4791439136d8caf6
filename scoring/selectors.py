"""Reads for score sheets and rankings. A fixed number of queries, however big the event."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch

from rules import DealScore, TableStanding, table_standing
from scoring.models import Deal, DealVersion
from tournaments.models import Event, Seat, Stage, StageStatus, Table


@dataclass
class TableSheet:
    table: Table
    seats: list[Seat]
    deals: list[Deal]
    standing: TableStanding
    variant: Any

    @property
    def next_number(self) -> int | None:
        """The deal to enter next, or None when the game is over."""
        if self.standing.finished:
            return None
        return (self.deals[-1].number if self.deals else 0) + 1

    def dealer(self, number: int) -> Seat | None:
        if not self.seats:
            return None
        first = next((s.position for s in self.seats if s.is_first_dealer), 0)
        return self.seats[(first + number - 1) % len(self.seats)]

    @property
    def unconfirmed(self) -> list[Deal]:
        return [deal for deal in self.deals if not deal.is_confirmed]

    @property
    def rows(self) -> list[dict[str, Any]]:
        """One row per seat, best first: the player, the total and the place."""
        place = {seat: index + 1 for index, seat in enumerate(self.standing.ranking)}
        extra = self.standing.extra
        units = extra.get("units")  # Tízlapos Römi's ledger
        eliminated = set(extra.get("eliminated") or ())
        final = (extra.get("settlement") or {}).get("final") if self.standing.finished else None
        return [
            {
                "seat": seat,
                "total": self.standing.totals[seat.position],
                "place": place[seat.position],
                "units": units[seat.position] if units else None,
                "out": seat.position in eliminated,
                "final": final[seat.position] if final else None,
            }
            for seat in sorted(self.seats, key=lambda s: place[s.position])
        ]

    @property
    def has_units(self) -> bool:
        return "units" in self.standing.extra

    @property
    def has_final(self) -> bool:
        return self.standing.finished and bool(self.standing.extra.get("settlement"))


def _standing(variant: Any, seats: int, deals: list[Deal]) -> TableStanding:
    scores = [DealScore(points=tuple(deal.points), flags=dict(deal.flags)) for deal in deals]
    return table_standing(variant, seats, scores)


def table_sheet(*, table: Table) -> TableSheet:
    table = Table.objects.select_related("stage__event__club").get(pk=table.pk)
    seats = list(table.seats.select_related("player").order_by("position"))
    deals = list(table.deals.order_by("number"))
    variant = table.stage.event.variant
    return TableSheet(table, seats, deals, _standing(variant, len(seats), deals), variant)


def event_sheets(*, event: Event) -> list[TableSheet]:
    """Every table of the event's current stage with its standing, in three queries."""
    stage = (
        Stage.objects.filter(event=event, status__in=[StageStatus.CONFIRMED, StageStatus.FINISHED])
        .order_by("-number")
        .first()
    )
    if stage is None:
        return []
    tables = list(
        Table.objects.filter(stage=stage)
        .order_by("number")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch("deals", queryset=Deal.objects.order_by("number")),
        )
    )
    variant = event.variant
    sheets = []
    for table in tables:
        table.stage = stage
        seats, deals = list(table.seats.all()), list(table.deals.all())
        sheets.append(
            TableSheet(table, seats, deals, _standing(variant, len(seats), deals), variant)
        )
    return sheets


@dataclass
class RankingRow:
    place: int
    player: str
    table: int
    total: int
    deals: int
    unconfirmed: bool
    table_place: int
    finished: bool = field(default=False)


def event_ranking(*, event: Event, sheets: list[TableSheet] | None = None) -> list[RankingRow]:
    """All players by total with the variant's order: lower first in penalty games.

    Within equal totals, the better place at one's own table comes first (the table's
    tie order has already been applied there).
    """
    sheets = event_sheets(event=event) if sheets is None else sheets
    rows: list[RankingRow] = []
    for sheet in sheets:
        place = {seat: index + 1 for index, seat in enumerate(sheet.standing.ranking)}
        pending = bool(sheet.unconfirmed)
        for seat in sheet.seats:
            rows.append(
                RankingRow(
                    place=0,
                    player=seat.player.name,
                    table=sheet.table.number,
                    total=sheet.standing.totals[seat.position],
                    deals=len(sheet.deals),
                    unconfirmed=pending,
                    table_place=place[seat.position],
                    finished=sheet.standing.finished,
                )
            )
    lower_is_better = sheets[0].standing.lower_is_better if sheets else True
    sign = 1 if lower_is_better else -1
    rows.sort(key=lambda r: (sign * r.total, r.table_place, r.table, r.player))
    previous: tuple[int, int] | None = None
    for index, row in enumerate(rows, start=1):
        key = (row.total, row.table_place)
        row.place = rows[index - 2].place if previous == key else index
        previous = key
    return rows


def deal_history(*, table: Table) -> dict[int, list[DealVersion]]:
    """Every version of every deal at the table, oldest first, grouped by deal number."""
    history: dict[int, list[DealVersion]] = defaultdict(list)
    versions = (
        DealVersion.objects.filter(deal__table=table)
        .select_related("deal", "by_user")
        .order_by("deal__number", "version")
    )
    for version in versions:
        history[version.deal.number].append(version)
    return dict(history)
