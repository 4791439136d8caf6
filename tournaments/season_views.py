"""A club's seasons on the director's pages: a new season, its name and dates, closing it,
and which season an event counts in (its league table is the leagues app's)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.i18n import violation_text
from rules import RuleViolation
from tournaments.forms import EventSeasonForm, SeasonForm
from tournaments.models import Role, Season
from tournaments.permissions import event_for, get_club_for, manage_page, season_for
from tournaments.services import event_season_set, season_close, season_save


@login_required
def season_edit(request: HttpRequest, slug: str, season_id: int | None = None) -> HttpResponse:
    """A new season of the club (no `season_id`), or a season's name and dates."""
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    season = season_for(slug=slug, season_id=season_id, user=request.user) if season_id else None
    form = SeasonForm(request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        try:
            saved = season_save(club=club, season=season, **form.cleaned_data)
        except RuleViolation as error:
            form.add_error(error.field, violation_text(error))
        else:
            messages.success(request, _("Season %(name)s saved.") % {"name": saved.name})
            return redirect(f"{club.get_absolute_url()}#seasons")
    context = {"club": club, "season": season, "form": form}
    return render(request, "tournaments/season_form.html", context)


@login_required
@require_POST
def season_close_view(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """Close the season to new events, or open it again."""
    season: Season = season_for(slug=slug, season_id=season_id, user=request.user)
    season_close(season=season, closed=request.POST.get("closed") == "1")
    if season.is_closed:
        messages.success(request, _("Season %(name)s is closed.") % {"name": season.name})
    else:
        messages.success(request, _("Season %(name)s is open again.") % {"name": season.name})
    return redirect("season_edit", slug=slug, season_id=season_id)


@login_required
@require_POST
def event_season(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """Put the event in a season (or in none), from its manage page."""
    event = event_for(slug=slug, event_id=event_id, user=request.user)
    form = EventSeasonForm(request.POST, event=event)
    if not form.is_valid():
        messages.error(request, _("Choose one of the club's open seasons."))
        return manage_page(slug, event_id, "season")
    try:
        event_season_set(event=event, season=form.cleaned_data["season"])
    except RuleViolation as error:
        messages.error(request, violation_text(error))
    else:
        messages.success(request, _("The event's season is saved."))
    return manage_page(slug, event_id, "season")
