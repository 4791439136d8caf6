"""A director's pages of one table: its history with its corrections, voids, seat releases
and PIN unlocks; and the tables' entry links for the club's scorers."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from rules import RuleViolation
from scoring.confirmation import Actor, pin_states
from scoring.devices import device_of
from scoring.forms import SeatForm, VoidForm
from scoring.history import table_history_lines
from scoring.models import Deal, SeatClaim
from scoring.selectors import earlier_stage_tables, event_sheets, table_names, table_sheet
from scoring.services import TableClosed, deal_void, seat_pin_unlock, seat_release
from scoring.tables import history_tables
from tournaments.confirm import confirm_page, confirmed
from tournaments.models import Role
from tournaments.permissions import event_for, table_for


@login_required
def event_tables(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """Every table's entry link and QR code, for the club's scorers: a scorer opens any
    table's page and enters as the table does (picking a seat like a phone there)."""
    event = event_for(slug=slug, event_id=event_id, user=request.user, role=Role.SCORER)
    context = {
        "event": event,
        "club": event.club,
        "sheets": event_sheets(event=event),
        "earlier": earlier_stage_tables(event=event),
    }
    return render(request, "scoring/event_tables.html", context)


@login_required
def table_history(request: HttpRequest, slug: str, event_id: int, table_id: int) -> HttpResponse:
    table = table_for(slug=slug, event_id=event_id, table_id=table_id, user=request.user)
    sheet = table_sheet(table=table)
    context = {
        "table": table,
        "sheet": sheet,
        "names": [seat.player.name for seat in sheet.seats],
        "event": table.stage.event,
        "history": history_tables(
            table_history_lines(table=table, names=[s.player.name for s in sheet.seats])
        ),
        "claims": {c.position: c for c in SeatClaim.objects.filter(table=table)},
        "pins": pin_states(table=table),
        "request_id": uuid.uuid4().hex,
    }
    return render(request, "scoring/table_history.html", context)


@login_required
@require_POST
def deal_void_view(
    request: HttpRequest, slug: str, event_id: int, table_id: int, number: int
) -> HttpResponse:
    table = table_for(slug=slug, event_id=event_id, table_id=table_id, user=request.user)
    deal = get_object_or_404(Deal, table=table, number=number)
    form = VoidForm(request.POST)
    form.is_valid()
    try:
        deal_void(
            deal=deal,
            by=Actor(device=device_of(request), user=request.user),
            note=form.cleaned_data.get("note", ""),
            request_id=form.save_id,
        )
    except (RuleViolation, TableClosed) as error:
        messages.error(request, _message_for(error, table_names(table)))
    else:
        messages.success(
            request,
            _("Deal %(number)d is voided; the table enters it again.") % {"number": number},
        )
    return redirect("table_history", slug=slug, event_id=event_id, table_id=table_id)


@login_required
@require_POST
def seat_free_view(request: HttpRequest, slug: str, event_id: int, table_id: int) -> HttpResponse:
    table = table_for(slug=slug, event_id=event_id, table_id=table_id, user=request.user)
    form = SeatForm(request.POST)
    seat = (
        table.seats.filter(position=form.cleaned_data["seat"]).select_related("player").first()
        if form.is_valid()
        else None
    )
    if seat is None:
        return redirect("table_history", slug=slug, event_id=event_id, table_id=table_id)
    try:
        seat_release(table=table, position=seat.position, confirmed=confirmed(request))
    except RuleViolation:
        return confirm_page(
            request,
            title=_("Free this seat"),
            question=_(
                "Free %(name)s's seat at %(table)s? The phone holding it can no longer enter "
                "or confirm; the player picks the seat again on their phone."
            )
            % {"name": seat.player.name, "table": table.label},
            action=request.path,
            button=_("Free this seat"),
            back=reverse("table_history", args=[slug, event_id, table_id]) + "#seats",
            fields={"seat": seat.position},
        )
    messages.success(request, _("The seat is free: the player picks it again on their phone."))
    return redirect("table_history", slug=slug, event_id=event_id, table_id=table_id)


@login_required
@require_POST
def seat_pin_unlock_view(
    request: HttpRequest, slug: str, event_id: int, table_id: int
) -> HttpResponse:
    table = table_for(slug=slug, event_id=event_id, table_id=table_id, user=request.user)
    form = SeatForm(request.POST)
    if form.is_valid() and form.cleaned_data["seat"] is not None:
        seat_pin_unlock(table=table, position=form.cleaned_data["seat"], by=request.user)
        messages.success(request, _("The PIN is unlocked: the player can type it again."))
    return redirect(reverse("table_history", args=[slug, event_id, table_id]) + "#seats")


def _message_for(error: Exception, names: list[str] | None = None) -> str:
    if isinstance(error, RuleViolation):
        return violation_text(error, names)
    return _("This table no longer takes scores.")
