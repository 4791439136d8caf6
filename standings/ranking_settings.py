"""The director's choices about an event's results, posted from its manage page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from rules import RuleViolation
from tournaments.event_settings import event_ranking_mode_set, event_tie_breaks_set
from tournaments.event_settings_forms import RankingModeForm
from tournaments.permissions import event_for, manage_page
from tournaments.tiebreak_forms import TieBreaksForm


@login_required
@require_POST
def event_ranking_mode(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    form = RankingModeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Pick one of the ways to rank the event."))
    else:
        try:
            event = event_ranking_mode_set(event=event, mode=form.cleaned_data["ranking_mode"])
        except RuleViolation as error:
            messages.error(request, violation_text(error))
        else:
            messages.success(
                request,
                _("While the tables are at different deals, the ranking now goes %(mode)s.")
                % {"mode": event.get_ranking_mode_display()},
            )
    return manage_page(slug, event_id)


@login_required
@require_POST
def event_tie_breaks(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    form = TieBreaksForm(request.POST, event=event)
    if not form.is_valid():
        errors = form.non_field_errors() or [_("Pick the tie-breaks from the lists.")]
        for error in errors:
            messages.error(request, str(error))
    else:
        try:
            event_tie_breaks_set(event=event, order=form.cleaned_data["order"])
        except RuleViolation as error:
            messages.error(request, violation_text(error))
        else:
            messages.success(request, _("The tie-breaks are saved."))
    return manage_page(slug, event_id)
