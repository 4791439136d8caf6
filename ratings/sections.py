"""The ratings' section of an event's public results (standings.sections): each player's
rating before and after the event's rated games. Registered when the app loads."""

from __future__ import annotations

from typing import Any

from ratings.display import PROVISIONAL_GAMES
from ratings.selectors import event_rating_changes
from standings.sections import register_event_section
from tournaments.models import Event


def event_rating_section(event: Event) -> tuple[str, dict[str, Any]] | None:
    changes = event_rating_changes(event=event)
    if not changes:
        return None
    context = {"changes": changes, "game": event.variant_id, "provisional_games": PROVISIONAL_GAMES}
    return "ratings/_event_changes.html", context


register_event_section(event_rating_section)
