"""The event's end: whether it may finish (every table done and confirmed, and what its
format asks: a champion, every round played), and finishing it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from django.utils import timezone

from core.db import locked_write
from formats.headtohead import h2h_event_standings
from formats.series import series_options
from rules import RuleViolation
from rules.i18n import _, ngettext
from scoring.selectors import event_sheets
from tournaments.changes import results_change
from tournaments.models import Event, EventStatus, Stage, StageStatus


class Settles(Protocol):
    """A table as the finish rule asks of it: a sheet (`TableSheet`), or the manage page's
    card of one (`scoring.manage_cards.Card`), which answered from its sheet."""

    @property
    def number(self) -> int: ...

    @property
    def settled(self) -> bool: ...


def event_finish_refusal(
    *, event: Event, sheets: Sequence[Settles] | None = None
) -> RuleViolation | None:
    """Why the event cannot be finished yet, or None: the one rule for the service and the
    manage page's button. Every table's game must be over, every deal confirmed, and no
    table waiting for the director (`TableSheet.settled`). `sheets`: the event's sheets
    (`event_sheets`) or the manage page's cards of them, when the caller has them already."""
    if event.status == EventStatus.FINISHED:
        return RuleViolation(_("This event is already finished."), code="event_finished")
    refusal = _format_finish_refusal(event)
    if refusal is not None:
        return refusal
    if sheets is None:
        sheets = event_sheets(event=event)
    if not sheets:
        return RuleViolation(_("No table has played yet."), code="event_not_started")
    for sheet in sheets:
        if not sheet.settled:
            return RuleViolation(
                _("Table %(number)d is still playing or has deals to confirm."),
                code="tables_playing",
                number=sheet.number,
            )
    return None


def _format_finish_refusal(event: Event) -> RuleViolation | None:
    """What the event's format still asks for before it can end: no stage left as a draw
    preview, a championship's champion crowned, a series' or Swiss's rounds all played."""
    stages = list(event.stages.order_by("number"))
    preview = next((stage for stage in stages if stage.status == StageStatus.PREVIEW), None)
    if preview is not None:
        preview.event = event
        return RuleViolation(
            _("%(stage)s is drawn but not seated: confirm its tables or draw it again."),
            code="stage_preview",
            stage=preview.label,
        )
    if event.spec.knockout:
        if not any((stage.outcome or {}).get("champion") for stage in stages):
            return RuleViolation(
                _("Close the championship's stages first: the final crowns the champion."),
                code="championship_open",
            )
        return None
    if event.spec.reseated:
        rounds = series_options(event)["rounds"]
    elif event.spec.paired:
        rounds = h2h_event_standings(event=event).state.total
    else:
        return None
    if len(stages) < rounds:
        return RuleViolation(
            ngettext(
                "Round %(number)d of %(rounds)d is still to be played.",
                "Rounds %(number)d to %(rounds)d are still to be played.",
                rounds - len(stages),
            ),
            code="rounds_left",
            number=len(stages) + 1,
            rounds=rounds,
        )
    return None


@locked_write
def event_finish(*, event: Event, confirmed: bool = False) -> Event:
    """Close the event: its results stand and its tables' links stop taking scores. Only
    once the director confirmed it: there is no reopening."""
    if not confirmed:
        raise RuleViolation(_("Confirm finishing the event first."), code="not_confirmed")
    event = Event.objects.select_for_update().get(pk=event.pk)
    refusal = event_finish_refusal(event=event)
    if refusal is not None:
        raise refusal
    Stage.objects.filter(event=event, status=StageStatus.CONFIRMED).update(
        status=StageStatus.FINISHED
    )
    event.status = EventStatus.FINISHED
    event.finished_at = timezone.now()
    event.save(update_fields=["status", "finished_at"])
    results_change(event_id=event.pk, reason="event_finished")
    return event
