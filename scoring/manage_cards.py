"""The manage page's table cards, each rendered once per state of its table.

A 250-table stage's manage page spent most of its time on the cards: every deal of every
table read and scored, and 250 cards rendered with four addresses each, on every load,
though between two loads a few tables had changed. A card is kept in the shared cache
under a key made of everything it shows (its table's and its event's results versions,
the seats' players and PINs, the link, the stage's and event's states, the language and
the host): a load reads the tables and seats as plain values (two queries), fetches the cards by key in one cache read,
and scores and renders only the tables whose key is new. Nothing is ever invalidated: a
change makes a new key, and the old card expires unread.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass

from django.http import HttpRequest
from django.template import Context
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from core.conditional import cache_get_many, cache_set_many
from scoring.selectors import TableSheet, stages_sheets
from tournaments.models import Event, Seat, Stage, Table
from tournaments.selectors import stage_in_play

TEMPLATE = "tournaments/_table_card.html"
# Long enough to outlast a Saturday; the key changes with every change of the card.
KEEP_SECONDS = 12 * 3600


@dataclass(frozen=True)
class Card:
    """A table's card as the manage page shows it, and whether the table is settled (the
    finish rule's question, `TableSheet.settled`, answered when the card was made)."""

    number: int
    html: SafeString
    settled: bool


def _keys(event: Event, stage: Stage, site: str) -> dict[int, str]:
    """Each table's card key, by table id in table order: read as plain values (two
    queries, no model built for a thousand seats)."""
    seats: dict[int, list[tuple[object, ...]]] = defaultdict(list)
    for table_id, *seat in (
        Seat.objects.filter(table__stage=stage)
        .order_by("table_id", "position")
        .values_list("table_id", "position", "player_id", "player__name", "pin")
    ):
        seats[table_id].append(tuple(seat))
    shared = (
        event.results_changed_at, event.status, event.confirm_needs_pin, stage.status,
        get_language(), site,
    )  # fmt: skip
    return {
        table[0]: "manage-card:1:"
        + hashlib.sha256(repr((*table, shared, seats[table[0]])).encode()).hexdigest()
        for table in Table.objects.filter(stage=stage)
        .order_by("number")
        .values_list("pk", "number", "results_changed_at", "entry_key", "has_scores")
    }


def _render(sheet: TableSheet, event: Event, site: str) -> Card:
    html = get_template(TEMPLATE).template.render(  # type: ignore[attr-defined]
        Context(
            {"sheet": sheet, "table": sheet.table, "event": event, "club": event.club, "site": site}
        )
    )
    return Card(number=sheet.table.number, html=mark_safe(html), settled=sheet.settled)


def table_cards(*, request: HttpRequest, event: Event) -> list[Card]:
    """The cards of the event's stage in play, in table order: from the cache where the
    table has not changed, scored and rendered (and kept) where it has."""
    stage = stage_in_play(event=event)
    if stage is None:
        return []
    stage.event = event
    site = f"{request.scheme}://{request.get_host()}"
    keys = _keys(event, stage, site)
    kept = cache_get_many(list(keys.values())) or {}
    missing = [table_id for table_id, key in keys.items() if key not in kept]
    made: dict[str, Card] = {}
    if missing:
        for sheet in stages_sheets([stage], tables=missing).get(stage.pk, []):
            made[keys[sheet.table.pk]] = _render(sheet, event, site)
        cache_set_many(made, KEEP_SECONDS)
    return [made.get(key) or kept[key] for key in keys.values()]
