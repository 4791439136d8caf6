"""The director's series action: draw the next round (or its preview again)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from rules import RuleViolation
from scoring.series import series_round_draw
from tournaments.models import Event, Role
from tournaments.permissions import get_club_for


@login_required
@require_POST
def series_round_draw_view(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    # Nothing to read from the post but the CSRF token: the event's options say how.
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    event = get_object_or_404(Event.objects.select_related("club"), pk=event_id, club=club)
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
    response = redirect("event_manage", slug=slug, event_id=event_id)
    response["Location"] += "#draw"
    return response
