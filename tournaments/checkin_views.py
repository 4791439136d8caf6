"""The door's pages: the check-in list for a club's directors and scorers, and the
player's personal code page (which, opened by the club's staff, offers the check-in)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from core.views import no_index
from rules import RuleViolation
from tournaments.checkin import (
    checkin_absent,
    checkin_count,
    checkin_possible,
    checkin_registrations,
    checkin_set,
    no_shows_allowed,
    no_shows_mark,
    walk_in_add,
)
from tournaments.checkin_forms import CheckinForm, CheckinSearchForm, ScanForm
from tournaments.confirm import confirm_page, confirmed
from tournaments.forms import RegistrationForm
from tournaments.models import Event, Registration, Role
from tournaments.permissions import club_allows, event_for
from tournaments.registration_links import registration_for_token, registration_qr_svg
from tournaments.roster import player_lookalikes
from tournaments.selectors import registered_player_ids


def _door(request: HttpRequest, slug: str, event_id: int) -> Event:
    return event_for(slug=slug, event_id=event_id, user=request.user, role=Role.SCORER)


def _back(event: Event) -> str:
    return reverse("checkin", args=[event.club.slug, event.pk])


@login_required
def checkin_page(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = _door(request, slug, event_id)
    search = CheckinSearchForm(request.GET or None)
    context = {
        "club": event.club, "event": event, "search_form": search,
        "registrations": checkin_registrations(event=event, search=search.search),
        "count": checkin_count(event=event), "no_shows": no_shows_allowed(event=event),
        "absent": checkin_absent(event=event),
        "director": club_allows(club=event.club, user=request.user, role=Role.DIRECTOR),
    }  # fmt: skip
    return render(request, "tournaments/checkin/page.html", context)


def _changed(request: HttpRequest, registration: Registration, message: str) -> HttpResponse:
    """The row and the count again: to htmx (the row, the count out of band), to the
    scanner (as JSON), or back to the page without script."""
    event = registration.event
    parts = {
        "registration": registration, "event": event, "club": event.club,
        "count": checkin_count(event=event), "no_shows": no_shows_allowed(event=event),
        "absent": checkin_absent(event=event),
    }  # fmt: skip
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/checkin/_changed.html", parts)
    if request.headers.get("Accept") == "application/json":
        row = render_to_string("tournaments/checkin/_row.html", parts, request=request)
        count = render_to_string("tournaments/checkin/_count.html", parts, request=request)
        absent = render_to_string("tournaments/checkin/_absent.html", parts, request=request)
        return JsonResponse({"ok": True, "message": message, "id": registration.pk,
                             "row": row, "count": count, "absent": absent})  # fmt: skip
    messages.success(request, message)
    return redirect(_back(event))


def _refused(request: HttpRequest, event: Event, message: str, status: int = 400) -> HttpResponse:
    """The refusal said on the check-in page (the scanner shows it in place)."""
    if request.headers.get("Accept") == "application/json":
        return JsonResponse({"ok": False, "message": message}, status=status)
    messages.error(request, message)
    if request.headers.get("HX-Request"):
        # htmx leaves an error unswapped: the page is loaded again, with the message.
        response = HttpResponse(status=204)
        response["HX-Redirect"] = _back(event)
        return response
    return redirect(_back(event))


@login_required
@require_POST
def checkin_tap(
    request: HttpRequest, slug: str, event_id: int, registration_id: int
) -> HttpResponse:
    event = _door(request, slug, event_id)
    registration = get_object_or_404(
        Registration.objects.select_related("player", "event__club"),
        pk=registration_id,
        event=event,
    )
    form = CheckinForm(request.POST)
    if not form.is_valid():
        return _refused(request, event, _("Check in or undo: nothing was changed."))
    here = form.cleaned_data["here"] == "in"
    try:
        checkin_set(registration=registration, here=here, by=request.user)
    except RuleViolation as error:
        return _refused(request, event, violation_text(error))
    name = registration.player.name
    message = _("%(name)s is here.") if here else _("%(name)s: check-in undone.")
    return _changed(request, registration, message % {"name": name})


@login_required
@require_POST
def checkin_scan(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """Check in by a personal code, scanned at the door or opened from its link."""
    event = _door(request, slug, event_id)
    form = ScanForm(request.POST)
    registration = (
        registration_for_token(form.cleaned_data["code"], event=event) if form.is_valid() else None
    )
    if registration is None:
        message = _("This code is not a registration for this event: check in by name instead.")
        return _refused(request, event, message, status=404)
    try:
        checkin_set(registration=registration, here=True, by=request.user)
    except RuleViolation as error:
        return _refused(request, event, violation_text(error))
    return _changed(
        request, registration, _("%(name)s is here.") % {"name": registration.player.name}
    )


@login_required
@require_POST
def checkin_walk_in(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = _door(request, slug, event_id)
    form = RegistrationForm(request.POST, event=event)
    if not form.is_valid():
        return _refused(request, event, _("Pick a player or type a guest's name."))
    data = form.cleaned_data
    try:
        registration = walk_in_add(event=event, player=data["player"], name=data["name"],
                                   home_club=data["home_club"], new_person=data["new_person"],
                                   by=request.user)  # fmt: skip
    except RuleViolation as error:
        if error.code != "lookalike":
            return _refused(request, event, violation_text(error))
        context = {
            "club": event.club, "event": event, "form": form, "warning": violation_text(error),
            "lookalikes": player_lookalikes(club=event.club, name=data["name"]),
            "taken": set(registered_player_ids(event=event)), "pick_url": request.path,
            "back": _back(event),
        }  # fmt: skip
        return render(request, "tournaments/registration_lookalike.html", context)
    messages.success(request, _("%(name)s is here.") % {"name": registration.player.name})
    return redirect(_back(event))


@login_required
@require_POST
def checkin_no_shows(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """Mark every registered player not here a no-show, asked on a page of its own first."""
    event = _door(request, slug, event_id)
    absent = checkin_count(event=event).absent
    if not confirmed(request):
        question = ngettext(
            "%(count)d registered player has not checked in. Mark them as a no-show? They are left out of the draw.",
            "%(count)d registered players have not checked in. Mark them as no-shows? They are left out of the draw.",
            absent,
        ) % {"count": absent}
        return confirm_page(request, title=_("Mark the no-shows"), question=question,
                            action=request.path, button=_("Mark them as no-shows"),
                            back=_back(event))  # fmt: skip
    try:
        marked = no_shows_mark(event=event, by=request.user, confirmed=True)
    except RuleViolation as error:
        return _refused(request, event, violation_text(error))
    messages.success(
        request,
        ngettext("%(count)d no-show marked.", "%(count)d no-shows marked.", marked)
        % {"count": marked},
    )
    return redirect(_back(event))


@no_index
def registration_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The player's code, to show at the door; the club's staff get the check-in button."""
    registration = registration_for_token(token)
    if registration is None:
        return render(request, "tournaments/checkin/code_gone.html", status=404)
    event = registration.event
    context = {
        "registration": registration, "event": event, "club": event.club, "token": token,
        "staff": club_allows(club=event.club, user=request.user, role=Role.SCORER),
        "possible": checkin_possible(registration),
    }  # fmt: skip
    return render(request, "tournaments/checkin/code.html", context)


@no_index
def registration_qr_image(request: HttpRequest, token: str) -> HttpResponse:
    registration = registration_for_token(token)
    if registration is None:
        raise Http404
    response = HttpResponse(registration_qr_svg(registration), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=300"
    return response
