"""`{% ranking_mode_form event as form %}`: the director's choice of the mid-evening ranking,
set to the event's, for the manage page's include (which needs nothing but the event)."""

from __future__ import annotations

from django import template

from tournaments.event_settings_forms import RankingModeForm
from tournaments.models import Event

register = template.Library()


@register.simple_tag
def ranking_mode_form(event: Event) -> RankingModeForm:
    return RankingModeForm(initial={"ranking_mode": event.ranking_mode}, auto_id="ranking-%s")
