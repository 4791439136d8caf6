"""The event's standings as JSON (version 1, described in README.md): every public stage,
every player's place, shared or not, and the tie-break that decided it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import reverse

from standings.parts import public_event_or_404
from standings.selectors import RankingRow, event_precedence, public_stages, stage_ranking
from tournaments.models import Event, Stage

FEED_VERSION = 1


def event_standings_feed(request: HttpRequest, slug: str, event_id: int) -> JsonResponse:
    event = public_event_or_404(request, slug, event_id)
    confirmed_only = event.club.public_confirmed_only
    stages = [
        _stage(request, event, stage, stage_ranking(stage=stage, confirmed_only=confirmed_only))
        for stage in public_stages(event=event)
    ]
    body = _feed(request, event, confirmed_only, stages)
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    # Any site may show the standings (a club's own pages, a screen at the venue).
    response["Access-Control-Allow-Origin"] = "*"
    return response


def _feed(
    request: HttpRequest, event: Event, confirmed_only: bool, stages: list[dict[str, Any]]
) -> dict[str, Any]:
    """The feed's body: stable keys, documented in README.md; a new key may be added within
    a version, none is renamed or dropped."""
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
        "confirmed_only": confirmed_only,
        "tie_breaks": list(event_precedence(event)),
        "stages": stages,
    }


def _stage(
    request: HttpRequest, event: Event, stage: Stage, rows: list[RankingRow]
) -> dict[str, Any]:
    first = rows[0] if rows else None
    ranked_by = "total"
    if first is not None and first.by_average:
        ranked_by = "average"
    elif first is not None and first.after_deals is not None:
        ranked_by = "same_deals"
    return {
        "number": stage.number,
        "status": stage.status,
        "url": request.build_absolute_uri(
            reverse("stage_standings", args=[event.club.slug, event.pk, stage.number])
        ),
        "ranked_by": ranked_by,
        "after_deals": first.after_deals if first is not None else None,
        "players": [_player(row) for row in rows],
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
        "average": None if row.average is None else round(float(row.average), 2),
        "after_total": row.after_total,
        "ravaytys": row.ravaytys,
        "unconfirmed": row.unconfirmed,
        "finished": row.finished,
        "needs_director": row.needs_director,
        "decided_by": row.decided_by,
    }
