"""`{% championship_close_of event as close %}` and `{% championship_bracket_of event as
bracket %}`: the manage page's "Close stage N" (with a tie-break form per pending tie) and
the public bracket, for the includes that need nothing but the event."""

from __future__ import annotations

import datetime
from typing import Any

from django import template

from core.i18n import violation_text
from formats.championship import (
    Bracket,
    championship_bracket,
    championship_close_section,
    closed_stage_drift,
    reopen_refusal,
)
from formats.forms import DriftDecisionForm, StageCloseForm, TieBreakForm
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


@register.simple_tag
def championship_drift_of(event: Event) -> list[dict[str, Any]]:
    """`{% championship_drift_of event as drifts %}`: each closed stage that corrected
    scores would now decide otherwise, open (with the decision's form) or decided."""
    rows: list[dict[str, Any]] = []
    for drift in closed_stage_drift(event=event):
        decided = drift.decided
        form = None
        if decided is None:
            initial = {"stage": drift.stage.number, "token": drift.token}
            # No ids: several of these forms, and the close form, share the page.
            form = DriftDecisionForm(initial=initial, auto_id=False)
        at = datetime.datetime.fromisoformat(decided["at"]) if decided else None
        refusal = reopen_refusal(stage=drift.stage)
        rows.append({
            "drift": drift, "decided": decided, "at": at, "form": form,
            "reopen_refusal": violation_text(refusal) if refusal else None,
            "next_stage": drift.stage.number + 1,
        })  # fmt: skip
    return rows
