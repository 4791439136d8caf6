"""`{% tie_breaks_form event as form %}`: the director's tie-break precedence, set to the
event's, for the manage page's include (which needs nothing but the event)."""

from __future__ import annotations

from django import template

from tournaments.models import Event
from tournaments.tiebreak_forms import TieBreaksForm

register = template.Library()


@register.simple_tag
def tie_breaks_form(event: Event) -> TieBreaksForm:
    return TieBreaksForm(event=event, auto_id="tie-breaks-%s")
