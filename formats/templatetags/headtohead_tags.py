"""`{% h2h_board event as board %}`: a head-to-head event's standings, match grid and round
in play, for the partials the manage and public pages include (which have only the event)."""

from __future__ import annotations

from django import template

from formats.headtohead import H2HBoard, h2h_event_standings
from tournaments.models import Event

register = template.Library()


@register.simple_tag
def h2h_board(event: Event) -> H2HBoard | None:
    return h2h_event_standings(event=event) if event.spec.paired else None
