"""A season's league table as JSON (version 1, described in docs/feeds.md): the
table as its page has it, every address absolute."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from leagues.selectors import SeasonLeague, season_scheme_changes

FEED_VERSION = 1


def league_feed(request: HttpRequest, league: SeasonLeague) -> dict[str, Any]:
    """The feed's body: stable keys, documented in docs/feeds.md; a new key may be added
    within a version, none is renamed or dropped. docs/schemas/league.json names every key
    and allows no other (tests/test_feed_schemas.py): a new key joins it."""
    season, payload = league.season, league.payload
    club = season.club
    rows = []
    for row, line in zip(payload.get("rows", []), league.rows, strict=True):
        record = reverse("player_record", args=[club.slug, line.player_id])
        rows.append(
            {
                **{key: value for key, value in row.items() if key != "guest"},
                "player_url": request.build_absolute_uri(record) if line.linked else None,
            }
        )
    return {
        "version": FEED_VERSION,
        "club": {"slug": club.slug, "name": club.name},
        "season": {
            "id": season.pk,
            "name": season.name,
            "starts_on": season.starts_on.isoformat(),
            "ends_on": season.ends_on.isoformat(),
            "url": request.build_absolute_uri(
                reverse("season_league", args=[club.slug, season.pk])
            ),
        },
        "computed_at": payload.get("computed_at"),
        "stale": league.stale,
        "scheme": payload.get("scheme"),
        "events": [
            {
                **event,
                "url": request.build_absolute_uri(
                    reverse("event_public", args=[club.slug, event["id"]])
                ),
            }
            for event in payload.get("events", [])
        ],
        "rows": rows,
        "scheme_changes": [
            {
                "changed_at": change.changed_at.isoformat(),
                "old_scheme": change.old_scheme,
                "new_scheme": change.new_scheme,
                "note": change.note,
            }
            for change in season_scheme_changes(season=season)
        ],
    }
