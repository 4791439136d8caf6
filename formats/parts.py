"""What a format's partials show, read once by the page that includes them: the manage
page's (a championship's close and drifted stages, a series' next round, head to head's
next pairing) and the public page's (a championship's bracket). The spec says which."""

from __future__ import annotations

import datetime
from typing import Any

from core.i18n import violation_text
from formats.championship import (
    championship_bracket,
    championship_close_section,
    closed_stage_drift,
    reopen_refusal,
)
from formats.forms import DriftDecisionForm, StageCloseForm, TieBreakForm
from formats.headtohead import h2h_event_standings
from formats.playoffs import playoff_offered, table_playoffs
from formats.series import series_preview
from scoring.selectors import TableSheet
from tournaments.models import Event


def manage_parts(event: Event) -> dict[str, Any]:
    """The manage page's format partials' context (`FormatSpec.manage_partials`)."""
    spec = event.spec
    parts: dict[str, Any] = {}
    if spec.knockout:
        parts["close"], parts["drifts"] = _close(event), _drifts(event)
    if spec.reseated:
        parts["series"] = series_preview(event=event)
    if spec.paired:
        parts["board"] = h2h_event_standings(event=event)
    return parts


def public_parts(event: Event, sheets: dict[int, list[TableSheet]] | None = None) -> dict[str, Any]:
    """The public page's format partials' context besides the standings (the bracket,
    drawn from `sheets` where the standings read them: their `every_sheet`)."""
    if "bracket" not in event.spec.boards:
        return {}
    return {"bracket": championship_bracket(event=event, sheets=sheets)}


def _close(event: Event) -> dict[str, Any] | None:
    """The manage page's "Close stage N", with a tie-break form per pending tie."""
    section = championship_close_section(event=event)
    if section is None:
        return None
    tables = [table for _tie, table in section.state.ties if table is not None]
    playoffs = table_playoffs(tables)
    ties = [
        {
            "tie": tie,
            "table": table,
            "form": TieBreakForm(tie=tie, prefix=f"tie{tie.table or 0}"),
            # A tie at a table may be played off there, where the game has a play-off deal.
            "playoff": playoffs.get(table.pk) if table else None,
            "playoff_offered": table is not None and playoff_offered(table),
        }
        for tie, table in section.state.ties
    ]
    return {
        "section": section,
        "ties": ties,
        "close_form": StageCloseForm(initial={"stage": section.stage.number}),
    }


def _drifts(event: Event) -> list[dict[str, Any]]:
    """Each closed stage that corrected scores (or an absence) would now decide otherwise,
    open (with the decision's form) or decided."""
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
