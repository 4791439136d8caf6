"""The director's button of a head-to-head event: pair the next round (or the preview again)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from rules import RuleViolation
from scoring.headtohead import h2h_round_draw, is_head_to_head
from tournaments.permissions import event_for, manage_page


class RoundPairForm(forms.Form):
    # The round the page offered: a second tap, or a page left open while someone else
    # paired, is told so instead of pairing again.
    round = forms.IntegerField(min_value=1, max_value=999)


@login_required
@require_POST
def h2h_round_pair(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    form = RoundPairForm(request.POST)
    if not is_head_to_head(event) or not form.is_valid():
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
