"""The big screen: a projector at the venue shows the standings and the tables still playing.

One page in large type that never scrolls: static/js/screen.js pages long lists by itself
and keeps the place across refreshes. Its live part is polled like the public page's (304
from one cache read while nothing changed) and cached under the event's results version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from core.load import shed_when_busy
from core.places import place_text
from standings.parts import live_context, public_page, public_part
from standings.standings import BY_MATCH_WINS, BY_TOTAL
from tournaments.models import Event


@dataclass(frozen=True)
class ScreenRow:
    place: str
    player: str
    table: int
    total: int
    unconfirmed: bool
    champion: bool = False
    # Match wins where the format ranks by them first (head-to-head), else None.
    wins: int | None = None


@dataclass(frozen=True)
class PlayingTable:
    number: int
    deals: int
    needs_director: bool


def event_screen(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    return public_page(
        request,
        slug,
        event_id,
        kind="screen",
        template="standings/screen/screen.html",
        polls="screen-live",
        render_part=render_screen_live,
    )


@shed_when_busy
def event_screen_live(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    return public_part(
        request,
        slug,
        event_id,
        kind="screen-live",
        render_part=render_screen_live,
    )


def render_screen_live(request: HttpRequest, event: Event) -> str:
    return render_to_string("standings/screen/_live.html", screen_context(event), request)


def screen_context(event: Event) -> dict[str, Any]:
    """The event's standings (a series' rounds added up, a championship's every player and
    its champion) and the tables of the stage in play still playing."""
    live = live_context(event)
    standings = live["standings"]
    # A figure ranked by before the total is shown, or a lower total would stand above a
    # higher one with nothing to say why.
    show_wins = standings.ranked_by == BY_MATCH_WINS
    rows = [
        ScreenRow(
            place_text(r.place, r.shared),
            r.player,
            r.table,
            r.total,
            r.unconfirmed,
            r.champion,
            r.wins if show_wins else None,
        )
        for r in standings.rows
    ]
    playing = [
        PlayingTable(sheet.table.number, sheet.played, sheet.problem is not None)
        for sheet in live["sheets"]
        if not sheet.standing.finished or sheet.problem is not None
    ]
    return {
        **live,
        "rows": rows,
        "playing": playing,
        "drawn": bool(live["sheets"]) or bool(rows),
        "champion": standings.champion,
        "pending": standings.pending,
        "show_wins": show_wins,
        # What orders the rows, where it is more than the totals seen (wins, averages...).
        "caption": standings.caption if standings.ranked_by != BY_TOTAL else "",
    }
