"""A director's championship pages: record a tie-break, close a stage (both from the
manage page's "Close stage N" section, which shows who goes on before it is committed)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from formats.championship import (
    championship_close_state,
    championship_stage_close,
    championship_stage_to_close,
    closed_stage_decision_record,
    tie_break_record,
)
from formats.forms import DriftDecisionForm, StageCloseForm, TieBreakForm
from formats.headtohead import h2h_round_draw
from formats.playoffs import playoff_open
from formats.series import series_round_draw
from rules import RuleViolation
from tournaments.models import StageStatus, Table
from tournaments.permissions import event_for, manage_page, table_for


@login_required
@require_POST
def tie_break_view(
    request: HttpRequest, slug: str, event_id: int, table_id: int | None = None
) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    stage = championship_stage_to_close(event=event)
    table = get_object_or_404(Table, pk=table_id, stage=stage) if table_id else None
    state = championship_close_state(stage=stage) if stage is not None else None
    number = table.number if table is not None else None
    tie = next((tie for tie, _t in state.ties if tie.table == number), None) if state else None
    form = TieBreakForm(request.POST, tie=tie, prefix=f"tie{number or 0}") if tie else None
    if form is None or not form.is_valid():
        messages.error(request, _("Pick each tied player once, best first."))
        return manage_page(slug, event_id, "close")
    data = form.cleaned_data
    try:
        tie_break_record(table=table, stage=stage, method=data["method"], order=form.order(),
                         note=data["note"], by=request.user)  # fmt: skip
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    else:
        messages.success(request, _("The tie-break is recorded."))
    return manage_page(slug, event_id, "close")


@login_required
@require_POST
def playoff_view(request: HttpRequest, slug: str, event_id: int, table_id: int) -> HttpResponse:
    table = table_for(slug=slug, event_id=event_id, table_id=table_id, user=request.user)
    try:
        playoff = playoff_open(table=table, by=request.user)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    else:
        messages.success(
            request,
            _("The play-off is table %(number)d: its players enter and confirm its deal at "
              "its link, and its result is recorded as the tie-break.")
            % {"number": playoff.number},
        )  # fmt: skip
    return manage_page(slug, event_id, "close")


@login_required
@require_POST
def stage_close_view(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    stage = championship_stage_to_close(event=event)
    form = StageCloseForm(request.POST)
    if stage is None or not form.is_valid() or form.cleaned_data["stage"] != stage.number:
        messages.error(request, _("This stage is no longer the one to close: look again."))
        return manage_page(slug, event_id, "close")
    try:
        closed = championship_stage_close(stage=stage, by=request.user)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
        return manage_page(slug, event_id, "close")
    if closed.status == StageStatus.FINISHED:
        messages.success(request, _("The championship is over: the champion is crowned."))
        return manage_page(slug, event_id)
    messages.success(
        request,
        _("Stage %(number)d is closed. Stage %(next)d is drawn: check it, then confirm.")
        % {"number": stage.number, "next": closed.number},
    )
    return manage_page(slug, event_id, "draw")


@login_required
@require_POST
def drift_decision_view(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """Keep what a closed stage decided although corrected scores (or an absence) would now
    decide otherwise, or reopen it: judged again and the next stage drawn again. Recorded
    with who and when."""
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    form = DriftDecisionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The scores of this stage changed again: look at it again."))
        return manage_page(slug, event_id, "drift")
    stage = get_object_or_404(
        event.stages.filter(status=StageStatus.FINISHED), number=form.cleaned_data["stage"]
    )
    data = form.cleaned_data
    try:
        closed_stage_decision_record(
            stage=stage, by=request.user, choice=data["choice"], token=data["token"]
        )
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    else:
        messages.success(
            request, DRIFT_DONE[form.cleaned_data["choice"]] % {"number": stage.number}
        )
    return manage_page(slug, event_id, "drift")


DRIFT_DONE = {
    "kept": gettext_lazy("Recorded: stage %(number)d stands as it was closed."),
    "reopened": gettext_lazy(
        "Stage %(number)d is judged again; the next stage is drawn again as a preview."
    ),
}


@login_required
@require_POST
def series_round_draw_view(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    # Nothing to read from the post but the CSRF token: the event's options say how.
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    try:
        stage = series_round_draw(event=event)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    else:
        messages.success(
            request,
            _("Round %(number)d is drawn: look at the tables, then confirm them.")
            % {"number": stage.number},
        )
    return manage_page(slug, event_id, "draw")


class RoundPairForm(forms.Form):
    # The round the page offered: a second tap, or a page left open while someone else
    # paired, is told so instead of pairing again.
    round = forms.IntegerField(min_value=1, max_value=999)


@login_required
@require_POST
def h2h_round_pair(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    form = RoundPairForm(request.POST)
    if not event.spec.paired or not form.is_valid():
        messages.error(request, _("This event has no rounds to pair."))
    else:
        try:
            stage = h2h_round_draw(event=event, number=form.cleaned_data["round"])
        except RuleViolation as error:
            messages.error(request, violation_text(error))
        else:
            messages.success(
                request,
                _("Round %(round)d is paired: look at the pairs, then confirm them.")
                % {"round": stage.number},
            )
    return manage_page(slug, event_id, "rounds")
