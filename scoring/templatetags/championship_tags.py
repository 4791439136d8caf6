"""`{% championship_close_of event as close %}` and `{% championship_bracket_of event as
bracket %}`: the manage page's "Close stage N" (with a tie-break form per pending tie) and
the public bracket, for the includes that need nothing but the event."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.championship import Bracket, championship_bracket, championship_close_section
from scoring.championship_forms import StageCloseForm, TieBreakForm
from tournaments.models import Event

register = template.Library()


@register.simple_tag
def championship_close_of(event: Event) -> dict[str, Any] | None:
    section = championship_close_section(event=event)
    if section is None:
        return None
    ties = [
        {"tie": tie, "table": table, "form": TieBreakForm(tie=tie, prefix=f"tie{tie.table or 0}")}
        for tie, table in section.state.ties
    ]
    return {
        "section": section,
        "ties": ties,
        "close_form": StageCloseForm(initial={"stage": section.stage.number}),
    }


@register.simple_tag
def championship_bracket_of(event: Event) -> Bracket:
    return championship_bracket(event=event)
