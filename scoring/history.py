"""A table's history: what each version of a deal changed against the one before."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from scoring.families import EntryFamily, family_of, flatten_entry
from scoring.models import Deal, DealVersion
from scoring.selectors import deal_history
from tournaments.models import Table


def _shown(field: str, value: Any, names: list[str], seat_keys: frozenset[str]) -> str:
    if value is None or value == "" or value is False:
        return "—"
    if value is True:
        return _("yes")
    if field in seat_keys and isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    if isinstance(value, list):
        return " / ".join(str(item) for item in value)
    return str(value)


def entry_changes(
    old: dict[str, Any] | None, new: dict[str, Any], names: list[str], *, family: EntryFamily
) -> list[tuple[str, str, str]]:
    """Every field the new entry changed, in the reader's language (the words of the game's
    entry family), seats by player name."""
    if old is None:
        return []
    before, after = flatten_entry(old), flatten_entry(new)
    lines = []
    for key in sorted(
        set(before) | set(after), key=lambda k: (k[1] if k[1] is not None else -1, k[0], k[2])
    ):
        _field, seat, part = key
        was = _shown(part, before.get(key), names, family.seat_keys)
        now = _shown(part, after.get(key), names, family.seat_keys)
        if was == now:
            continue
        what = str(family.labels.get(part, part))
        if seat is not None:
            what = f"{names[seat] if seat < len(names) else seat + 1}: {what}"
        lines.append((what, was, now))
    return lines


@dataclass
class HistoryLine:
    version: DealVersion
    changes: list[tuple[str, str, str]]
    seat_name: str
    # Each seat's player with the points this version gives them, in seat order.
    points: list[tuple[str, int]] = field(default_factory=list)


@dataclass
class DealHistory:
    number: int
    deal: Deal
    lines: list[HistoryLine] = field(default_factory=list)


def table_history_lines(*, table: Table, names: list[str]) -> list[DealHistory]:
    """Every deal of the table with each version against the one before, oldest first.

    Every deal is listed, even one with no recorded version (data from before the history
    was kept): the director must be able to reach it to correct or void it.
    """
    versions = deal_history(table=table)
    family = family_of(table.variant)
    history = []
    for deal in Deal.objects.filter(table=table).order_by("number"):
        item = DealHistory(number=deal.number, deal=deal)
        rows = versions.get(deal.number, [])
        for previous, version in zip([None, *rows], rows, strict=False):
            changes = entry_changes(
                previous.entry if previous else None, version.entry, names, family=family
            )
            if previous is not None and previous.status != version.status:
                changes.append(
                    (_("status"), previous.get_status_display(), version.get_status_display())
                )
            seat = version.by_seat
            seat_name = names[seat] if seat is not None and seat < len(names) else ""
            points = [
                (names[seat] if seat < len(names) else str(seat + 1), value)
                for seat, value in enumerate(version.points or [])
            ]
            item.lines.append(HistoryLine(version, changes, seat_name, points))
        history.append(item)
    return history
