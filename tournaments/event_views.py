"""A director's pages for one event: create, registration and check-in, the draw, tables."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from rules import RuleViolation
from tournaments.confirm import confirm_page, confirmed
from tournaments.forms import (
    EventForm,
    EventPublishForm,
    GameChoiceForm,
    LateSeatingForm,
    RegistrationForm,
    RegistrationStatusForm,
    SwapForm,
)
from tournaments.models import (
    Event,
    Registration,
    Role,
    StageStatus,
    Table,
)
from tournaments.permissions import event_for, get_club_for, manage_page
from tournaments.roster import player_lookalikes
from tournaments.selectors import late_arrivals, registered_player_ids
from tournaments.services import (
    event_create,
    event_publish,
    late_arrivals_seat,
    registration_add,
    registration_guest_add,
    registration_status_set,
    seat_swap,
    stage_confirm,
    stage_draw,
    table_key_revoke,
)
from tournaments.tiebreak_forms import TieBreaksForm
from tournaments.visibility import is_public


@login_required
def event_new(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    # The game first (?game=…), then the event with that game's house rules.
    form = EventForm(request.POST or None, game=request.GET.get("game"), club=club)
    # The tie-breaks the bracket, the stage pages and the advancing use, chosen now too.
    ties = TieBreaksForm(request.POST or None, event=Event(variant_id=form.game), prefix="tb")
    if request.method == "POST" and form.is_valid() and ties.is_valid():
        try:
            event = event_create(club=club, tie_breaks=ties.order, **form.event_fields())
        except RuleViolation as error:
            form.add_error(
                error.field if error.field in form.fields else None, violation_text(error)
            )
        else:
            messages.success(request, _("Event created. Register the players next."))
            return redirect("event_manage", slug=slug, event_id=event.pk)
    game_form = GameChoiceForm(initial={"game": form.game})
    context = {"club": club, "form": form, "game_form": game_form, "ties": ties}
    return render(request, "tournaments/event_new.html", context)


@login_required
@require_POST
def event_publish_view(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """Publish the event on the public pages, or take it back private (directors)."""
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    form = EventPublishForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Publish or make private: nothing was changed."))
        return manage_page(slug, event_id)
    event_publish(event=event, published=form.cleaned_data["published"])
    if is_public(event):
        messages.success(request, _("Published: anyone can see this event's pages now."))
    else:
        messages.success(
            request, _("Private again: only the club's directors see this event's pages.")
        )
    return manage_page(slug, event_id)


@login_required
@require_POST
def registration_create(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    form = RegistrationForm(request.POST, event=event)
    if not form.is_valid():
        messages.error(request, _("Pick a player or type a guest's name."))
        return manage_page(slug, event_id, "registration")
    data = form.cleaned_data
    try:
        if data["player"] is not None:
            registration_add(event=event, player=data["player"], checked_in=True, by=request.user)
        else:
            registration_guest_add(
                event=event,
                name=data["name"],
                home_club=data["home_club"],
                new_person=data["new_person"],
            )
    except RuleViolation as error:
        if error.code == "lookalike":
            return _guest_lookalike_page(request, event, form, violation_text(error))
        messages.error(request, violation_text(error))  # an imported event takes none
    return manage_page(slug, event_id, "registration")


def _guest_lookalike_page(
    request: HttpRequest, event: Event, form: RegistrationForm, warning: str
) -> HttpResponse:
    """The guest's name looks like players the club has: offer them, told apart by their
    last event, and a new person only when the director ticks so."""
    context = {
        "club": event.club, "event": event, "form": form, "warning": warning,
        "lookalikes": player_lookalikes(club=event.club, name=form.cleaned_data["name"]),
        "taken": set(registered_player_ids(event=event)),
        "pick_url": reverse("registration_create", args=[event.club.slug, event.pk]),
    }  # fmt: skip
    return render(request, "tournaments/registration_lookalike.html", context)


@login_required
@require_POST
def registration_update(
    request: HttpRequest, slug: str, event_id: int, registration_id: int
) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    registration = get_object_or_404(Registration, pk=registration_id, event=event)
    form = RegistrationStatusForm(request.POST)
    if not form.is_valid():
        return manage_page(slug, event_id, "registration")
    status = form.cleaned_data["status"]
    try:
        registration_status_set(
            registration=registration,
            status=status,
            confirmed=confirmed(request),
            by=request.user,
        )
    except RuleViolation:
        name = registration.player.name
        return confirm_page(
            request,
            title=_("Withdraw %(name)s") % {"name": name},
            question=_(
                "Withdraw %(name)s from %(event)s? Their results so far stay; they are left "
                "out of the next draw. You can check them in again later."
            )
            % {"name": name, "event": event.name},
            action=request.path,
            button=_("Withdraw"),
            back=reverse("event_manage", args=[slug, event_id]) + "#registration",
            fields={"status": status},
        )
    return manage_page(slug, event_id, "registration")


@login_required
@require_POST
def draw(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    try:
        stage_draw(event=event)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    return manage_page(slug, event_id, "draw")


@login_required
@require_POST
def draw_confirm(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    stage = event.stages.filter(status=StageStatus.PREVIEW).order_by("-number").first()
    if stage is not None:
        stage_confirm(stage=stage)
        messages.success(request, _("Tables confirmed: hand each table its link or QR code."))
    return manage_page(slug, event_id, "tables")


@login_required
@require_POST
def seats_swap(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    form = SwapForm(request.POST, event=event)
    if not form.is_valid():
        messages.error(request, _("Pick two different seats to swap."))
        return manage_page(slug, event_id, "draw")
    try:
        seat_swap(first=form.cleaned_data["first"], second=form.cleaned_data["second"])
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    return manage_page(slug, event_id, "draw")


@login_required
@require_POST
def late_seat(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """Seat the players checked in after the draw where the director picked (the manage
    page proposes it)."""
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    late = late_arrivals(event=event)
    if late is None or not late.seatable:
        messages.error(request, _("Nobody waits for a seat at these tables now."))
        return manage_page(slug, event_id, "draw")
    form = LateSeatingForm(request.POST, late=late)
    if not form.is_valid():
        messages.error(request, _("Pick a table from the list for each late arrival."))
        return manage_page(slug, event_id, "late")
    try:
        seats = late_arrivals_seat(stage=late.stage, by=request.user, **form.placement())
    except RuleViolation as error:
        messages.error(request, violation_text(error))
        return manage_page(slug, event_id, "late")
    if not seats:
        messages.info(request, _("Nobody was seated: every late arrival was left as not yet."))
        return manage_page(slug, event_id, "late")
    text = ngettext("%(count)d late arrival seated.", "%(count)d late arrivals seated.", len(seats))
    messages.success(request, text % {"count": len(seats)})
    return manage_page(slug, event_id, "tables")


@login_required
def table_revoke_confirm(
    request: HttpRequest, slug: str, event_id: int, table_id: int
) -> HttpResponse:
    # Asked on a page of its own: the site's CSP allows no inline script for a confirm().
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    table = get_object_or_404(Table, pk=table_id, stage__event=event)
    context = {"club": event.club, "event": event, "table": table}
    return render(request, "tournaments/table_revoke_confirm.html", context)


@login_required
@require_POST
def table_revoke(request: HttpRequest, slug: str, event_id: int, table_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    table = get_object_or_404(Table, pk=table_id, stage__event=event)
    table_key_revoke(table=table)
    messages.success(
        request,
        _("Table %(number)d has a new link; the old one no longer works.")
        % {"number": table.number},
    )
    return manage_page(slug, event_id, "tables")
