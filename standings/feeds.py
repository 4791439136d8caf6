"""The event's standings as JSON (version 1, described in docs/feeds.md): every public stage,
every player's place, shared or not, and the tie-break that decided it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import reverse

from scoring.selectors import event_precedence
from standings.parts import public_event_or_404
from standings.selectors import RankingRow, public_stages
from standings.standings import Standings, event_standings
from tournaments.models import Event, Stage
from tournaments.visibility import confirmed_only

FEED_VERSION = 1


def event_standings_feed(request: HttpRequest, slug: str, event_id: int) -> JsonResponse:
    event = public_event_or_404(request, slug, event_id)
    stages = [
        _stage(request, event, stage, event_standings(event=event, stage=stage))
        for stage in public_stages(event=event)
    ]
    body = _feed(request, event, event_standings(event=event), stages)
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    # Any site may show the standings (a club's own pages, a screen at the venue).
    response["Access-Control-Allow-Origin"] = "*"
    return response


def _feed(
    request: HttpRequest, event: Event, standings: Standings, stages: list[dict[str, Any]]
) -> dict[str, Any]:
    """The feed's body: stable keys, documented in docs/feeds.md; a new key may be added
    within a version, none is renamed or dropped. docs/schemas/standings.json names every key
    and allows no other (tests/test_feed_schemas.py): a new key joins it."""
    return {
        "version": FEED_VERSION,
        "club": {"slug": event.club.slug, "name": event.club.name},
        "event": {
            "id": event.pk,
            "name": event.name,
            "date": event.date.isoformat(),
            "game": event.variant_id,
            "format": event.format,
            "status": event.status,
            "url": request.build_absolute_uri(event.get_absolute_url()),
        },
        "confirmed_only": confirmed_only(club=event.club),
        "tie_breaks": list(event_precedence(event)),
        # The whole event's standings, as its page, PDF and downloads have them.
        "standings": {
            "ranked_by": standings.ranked_by,
            "finished": standings.finished,
            "champion": standings.champion.player_id if standings.champion else None,
            "players": [_player(row) for row in standings.rows],
        },
        "stages": stages,
    }


def _stage(
    request: HttpRequest, event: Event, stage: Stage, standings: Standings
) -> dict[str, Any]:
    return {
        "number": stage.number,
        "status": stage.status,
        "url": request.build_absolute_uri(
            reverse("stage_standings", args=[event.club.slug, event.pk, stage.number])
        ),
        "ranked_by": standings.ranked_by,
        "after_deals": standings.after_deals,
        "players": [_player(row) for row in standings.rows],
    }


def _player(row: RankingRow) -> dict[str, Any]:
    return {
        "place": row.place,
        "shared": row.shared,
        "place_label": row.place_label,
        "player_id": row.player_id,
        "name": row.player,
        "table": row.table,
        "table_place": row.table_place,
        "total": row.total,
        "deals": row.deals,
        "average": row.per_deal,
        "after_total": row.after_total,
        "ravaytys": row.ravaytys,
        "unconfirmed": row.unconfirmed,
        "finished": row.finished,
        "needs_director": row.needs_director,
        "decided_by": row.decided_by,
        # The other formats' figures (null where the format has none).
        "units": row.units,
        "rounds": row.rounds,
        "points": row.points,
        "wins": row.wins,
        "matches": row.matches,
        "byes": row.byes,
        "stage": row.stage,
        "champion": row.champion,
        "tie_break": row.tie_break,
    }
