"""Self-registration's pages (register, confirm, cancel, one's own registrations) and the
director's registration list with its settings and actions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from core.ratelimit import client_ip, rate_limit
from rules import RuleViolation
from tournaments import event_views
from tournaments.confirm import confirm_page, confirmed
from tournaments.models import Event, Registration, RegistrationStatus
from tournaments.permissions import event_for, public_event
from tournaments.registration import (
    registration_cancel,
    registration_cancel_refusal,
    registration_confirm,
    registration_counts,
    registration_director_act,
    registration_director_add,
    registration_refusal,
    registration_self_add,
    registration_settings_set,
    user_registrations,
)
from tournaments.registration_forms import (
    DirectorAddForm,
    GuestRegistrationForm,
    RegistrationActionForm,
    RegistrationFilterForm,
    RegistrationSettingsForm,
)
from tournaments.registration_links import CANCEL, CONFIRM, LinkRefused, registration_from_token
from tournaments.registration_tables import registration_list_table


def _public_event_or_404(request: HttpRequest, slug: str, event_id: int) -> Event:
    event = public_event(slug=slug, event_id=event_id, user=request.user)
    if event is None:
        raise Http404
    return event


def _done(request: HttpRequest, registration: Registration) -> HttpResponse:
    return render(
        request,
        "tournaments/registration/done.html",
        {"registration": registration, "event": registration.event},
    )


@rate_limit(scope="registration", rate="10/h", key=client_ip, methods=("POST",))
def register(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The public page's Register: one tap for a signed-in person, else a name and an
    address. A flood from one address is stopped by the rate limit (429)."""
    event = _public_event_or_404(request, slug, event_id)
    refusal = registration_refusal(event=event, user=request.user)
    signed_in = request.user.is_authenticated
    form = None if signed_in else GuestRegistrationForm(request.POST or None)
    if request.method == "POST" and refusal is None and (form is None or form.is_valid()):
        fields = form.cleaned_data if form is not None else {}
        try:
            registration = registration_self_add(event=event, user=request.user, **fields)
        except RuleViolation as error:
            messages.error(request, violation_text(error))
        else:
            return _done(request, registration)
    context = {
        "event": event, "club": event.club, "form": form, "counts": registration_counts(event=event),
        "refusal": violation_text(refusal) if refusal else "",
    }  # fmt: skip
    return render(request, "tournaments/registration/register.html", context)


def _link_page(
    request: HttpRequest, token: str, salt: str
) -> tuple[Registration | None, HttpResponse | None]:
    """The link's registration, or the page saying why the link does nothing."""
    try:
        return registration_from_token(token=token, salt=salt), None
    except LinkRefused as refused:
        return None, _gone(request, _(refused.message), status=400)


def _gone(request: HttpRequest, reason: str, *, status: int) -> HttpResponse:
    """A link that does nothing (forged, expired, used): why, and that nothing changed."""
    context = {"reason": reason}
    return render(request, "tournaments/registration/link_gone.html", context, status=status)


def confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The mailed confirmation link: asks with a button (a mail scanner's visit confirms
    nothing), confirms on its post; used, expired or forged links change nothing."""
    registration, gone = _link_page(request, token, CONFIRM)
    if registration is None:
        return gone  # type: ignore[return-value]
    if request.method == "POST":
        try:
            registration = registration_confirm(registration=registration)
        except RuleViolation as error:
            return _gone(request, violation_text(error), status=409)
        return _done(request, registration)
    used = registration.status != RegistrationStatus.UNCONFIRMED
    context = {"registration": registration, "event": registration.event, "used": used}
    return render(request, "tournaments/registration/confirm.html", context)


def cancel_link(request: HttpRequest, token: str) -> HttpResponse:
    """The mail's cancel link: asks first; a second use says so and changes nothing."""
    registration, gone = _link_page(request, token, CANCEL)
    if registration is None:
        return gone  # type: ignore[return-value]
    return _cancel(request, registration, back=registration.event.get_absolute_url())


def _cancel(request: HttpRequest, registration: Registration, *, back: str) -> HttpResponse:
    if refusal := registration_cancel_refusal(registration=registration):
        return _gone(request, violation_text(refusal), status=409)
    if request.method != "POST" or not confirmed(request):
        event = registration.event
        return confirm_page(
            request,
            title=_("Cancel your registration"),
            question=_("Cancel the registration of %(name)s for %(event)s (%(date)s)?")
            % {"name": registration.player.name, "event": event.name, "date": event.date},
            action=request.path,
            button=_("Cancel the registration"),
            back=back,
        )
    try:
        registration_cancel(registration=registration, by=request.user)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    else:
        messages.success(request, _("Your registration is cancelled."))
    return HttpResponseRedirect(back)


@login_required
def my_registrations(request: HttpRequest) -> HttpResponse:
    rows = user_registrations(user=request.user)
    today = timezone.localdate()
    context = {"upcoming": [r for r in rows if r.event.date >= today], "today": today}
    return render(request, "tournaments/registration/mine.html", context)


@login_required
@require_POST
def my_registration_cancel(request: HttpRequest, registration_id: int) -> HttpResponse:
    registration = get_object_or_404(user_registrations(user=request.user), pk=registration_id)
    return _cancel(request, registration, back=reverse("my_registrations"))


# -- the director's list -------------------------------------------------------------------------


@login_required
def registration_list(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The director's list (GET); the manage page's add-a-player form posts here too."""
    if request.method == "POST":
        return event_views.registration_create(request, slug, event_id)
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    with timezone.override(event.club.time_zone):
        return _list_page(request, event, RegistrationSettingsForm(event=event))


def _list_page(
    request: HttpRequest, event: Event, settings_form: RegistrationSettingsForm, status: int = 200
) -> HttpResponse:
    filters = RegistrationFilterForm(request.GET)
    context = {
        "event": event, "club": event.club, "filters": filters,
        "table": registration_list_table(request=request, event=event, status=filters.status_value),
        "counts": registration_counts(event=event),
        "settings_form": settings_form, "add_form": DirectorAddForm(),
    }  # fmt: skip
    return render(request, "tournaments/registration/list.html", context, status=status)


def _to_list(slug: str, event_id: int) -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("registration_list", args=[slug, event_id]))


@login_required
@require_POST
def registration_settings(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    with timezone.override(event.club.time_zone):
        form = RegistrationSettingsForm(request.POST, event=event)
        if form.is_valid():
            try:
                registration_settings_set(event=event, **form.cleaned_data)
            except RuleViolation as error:
                form.add_error(error.field, violation_text(error))
            else:
                messages.success(request, _("Registration settings saved."))
                return _to_list(slug, event_id)
        messages.error(request, _("The settings were not saved: see the errors below."))
        return _list_page(request, event, form, status=400)


@login_required
@require_POST
def registration_add_view(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    form = DirectorAddForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a name and a valid e-mail address."))
        return _to_list(slug, event_id)
    try:
        registration = registration_director_add(event=event, by=request.user, **form.cleaned_data)
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    else:
        messages.success(request, _("%(name)s is registered.") % {"name": registration.player.name})
    return _to_list(slug, event_id)


@login_required
@require_POST
def registration_act(
    request: HttpRequest, slug: str, event_id: int, registration_id: int
) -> HttpResponse:
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    registration = get_object_or_404(
        Registration.objects.select_related("player"), pk=registration_id, event=event
    )
    form = RegistrationActionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Unknown action: nothing was changed."))
        return _to_list(slug, event_id)
    action = form.cleaned_data["action"]
    if action == "remove" and not confirmed(request):
        name = registration.player.name
        return confirm_page(
            request,
            title=_("Remove %(name)s") % {"name": name},
            question=_(
                "Remove %(name)s from %(event)s? A place they hold goes to the first on the "
                "waitlist. You can give them a place again later."
            )
            % {"name": name, "event": event.name},
            action=request.path,
            button=_("Remove"),
            back=reverse("registration_list", args=[slug, event_id]),
            fields={"action": action},
        )
    try:
        registration_director_act(
            registration=registration,
            action=action,
            by=request.user,
            confirmed=True,
        )
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    return _to_list(slug, event_id)
