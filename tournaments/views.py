from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.paging import paginate_table
from core.redirects import local_path
from core.tables import BaseTable
from core.task_views import task_page
from core.tasks import QueueUnavailable
from tournaments.forms import ClubEventFilterForm, LanguageForm
from tournaments.middleware import remember_language
from tournaments.models import Role
from tournaments.permissions import club_allows, get_club_for
from tournaments.selectors import (
    club_events_past,
    club_events_upcoming,
    club_list,
    club_members,
    club_role_counts,
)
from tournaments.services import profile_language_set
from tournaments.tables import MemberTable
from tournaments.tasks import club_stats_request


def _next(value: str | None) -> str:
    """Where to send the person afterwards: a path on this site, else home."""
    return local_path(value, fallback=reverse("home"))


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"clubs": club_list()})


# A phone's screenful of event cards per list.
CLUB_EVENTS_PER_PAGE = 10


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club, membership = get_club_for(slug=slug, user=request.user)
    if not request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) and not request.user.is_authenticated:
        # A first-time visitor reads the club in the club's own language.
        translation.activate(club.language)
    context: dict[str, object] = {
        "club": club,
        "membership": membership,
        "can_direct": club_allows(club=club, user=request.user, role=Role.DIRECTOR),
        "can_score": club_allows(club=club, user=request.user, role=Role.SCORER),
    }
    # Each list pages on its own (its own prefix in the address) and keeps its order: the
    # page lays the events out as cards with their actions, the table only pages them.
    filter_form = ClubEventFilterForm(request.GET, club=club)
    lists = {"upcoming": club_events_upcoming, "past": club_events_past}
    for name, selector in lists.items():
        events = selector(club=club, today=timezone.localdate(), **filter_form.filters())
        table = BaseTable(events, prefix=f"{name}-", orderable=False)
        context[name] = paginate_table(request, table, per_page=CLUB_EVENTS_PER_PAGE)
    context["event_lists"] = [(name, context[name]) for name in lists]
    context["filter_form"] = filter_form
    context["filtered"] = any(filter_form.filters().values())
    return render(request, "tournaments/club_detail.html", context)


@login_required
def club_member_list(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.MEMBER)
    table = paginate_table(request, MemberTable(club_members(club=club)))
    return render(
        request,
        "tournaments/club_members.html",
        {"club": club, "table": table, "role_counts": club_role_counts(club=club)},
    )


@login_required
@require_POST
def club_stats_refresh(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    try:
        task_id = club_stats_request(club=club)
    except QueueUnavailable as error:
        messages.error(request, error.message)
        return redirect(club.get_absolute_url())
    return redirect(task_page(task_id, club.get_absolute_url()))


@require_POST
def language_set(request: HttpRequest) -> HttpResponseRedirect:
    form = LanguageForm(request.POST)
    # Not redirect(): given a bare word it would try to reverse it as a view name.
    response = HttpResponseRedirect(_next(request.POST.get("next")))
    if not form.is_valid():
        messages.error(request, _("Pick one of the offered languages."))
        return response
    language = form.cleaned_data["language"]
    if request.user.is_authenticated:
        profile_language_set(user=request.user, language=language)
        remember_language(request, language)
    translation.activate(language)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language, max_age=365 * 24 * 3600, samesite="Lax"
    )
    return response
