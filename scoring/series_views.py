"""The director's series action: draw the next round (or its preview again)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from rules import RuleViolation
from scoring.series import series_round_draw
from tournaments.permissions import event_for, manage_page


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
