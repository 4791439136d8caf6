"""The director's manage page of an event (everything the event's format asks of them, in
one place) and the event's finish."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from formats.finish import event_finish, event_finish_refusal
from formats.parts import manage_parts
from rules import RuleViolation, describe_options
from scoring.confirmation import locked_pins
from scoring.manage_cards import table_cards
from scoring.selectors import flagged_confirmations
from tournaments.confirm import confirm_page, confirmed
from tournaments.forms import EventSeasonForm, GuestForm, LateSeatingForm, PlayerPickerForm
from tournaments.permissions import event_for, manage_page
from tournaments.selectors import (
    event_draw_state,
    event_registrations,
    late_arrivals,
    player_picker,
)
from tournaments.tables import registration_table


@login_required
def event_manage(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    picker = PlayerPickerForm(request.GET)
    late = late_arrivals(event=event)
    cards = table_cards(request=request, event=event)
    context = {
        "event": event, "club": event.club, "rules": describe_options(event.variant, gettext),
        "registrations": event_registrations(event=event),
        "registration_table": registration_table(request=request, event=event),
        "picker_form": picker, "picker": player_picker(event=event, **picker.filters()),
        "guest_form": GuestForm(), "late": late,
        "late_form": LateSeatingForm(late=late) if late and late.seatable else None,
        "cards": cards, "finish_refusal": event_finish_refusal(event=event, sheets=cards),
        "flagged": flagged_confirmations(event=event), "locked_pins": locked_pins(event=event),
        "season_form": EventSeasonForm(event=event),
        **manage_parts(event), **event_draw_state(event=event),
    }  # fmt: skip
    return render(request, "formats/event_manage.html", context)


@login_required
@require_POST
def event_finish_view(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    if not confirmed(request):
        return confirm_page(
            request,
            title=_("Finish the event"),
            question=_(
                "Finish %(event)s? Its results then stand, and its tables' links stop taking "
                "scores. This cannot be undone."
            )
            % {"event": event.name},
            action=request.path,
            button=_("Finish the event"),
            back=reverse("event_manage", args=[slug, event_id]) + "#tables",
        )
    try:
        event_finish(event=event, confirmed=True)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    else:
        messages.success(request, _("The event is finished; its tables' links are closed."))
    return manage_page(slug, event_id)
