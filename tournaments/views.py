from __future__ import annotations

from celery.result import AsyncResult
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from tournaments.forms import LanguageForm
from tournaments.models import Role
from tournaments.permissions import get_club_for
from tournaments.selectors import club_events, club_list, club_members, club_role_counts
from tournaments.services import club_stats_request, profile_language_set
from tournaments.tables import MemberTable


def _safe_next(request: HttpRequest, url: str | None, fallback: str) -> str:
    if url and url_has_allowed_host_and_scheme(url, {request.get_host()}, request.is_secure()):
        return url
    return fallback


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"clubs": club_list()})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club, membership = get_club_for(slug=slug, user=request.user)
    if not request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) and not request.user.is_authenticated:
        # A first-time visitor reads the club in the club's own language.
        translation.activate(club.language)
    can_direct = request.user.is_superuser or bool(
        membership and membership.has_role(Role.DIRECTOR)
    )
    return render(
        request,
        "tournaments/club_detail.html",
        {
            "club": club,
            "membership": membership,
            "can_direct": can_direct,
            "events": club_events(club=club),
        },
    )


@login_required
def club_member_list(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.MEMBER)
    table = MemberTable(club_members(club=club))
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    return render(
        request,
        "tournaments/club_members.html",
        {"club": club, "table": table, "role_counts": club_role_counts(club=club)},
    )


@login_required
@require_POST
def club_stats_refresh(request: HttpRequest, slug: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user, role=Role.DIRECTOR)
    task_id = club_stats_request(club=club)
    return redirect(f"{reverse('task_status', args=[task_id])}?next={club.get_absolute_url()}")


def task_status(request: HttpRequest, task_id: str) -> HttpResponse:
    """A slow job's progress; the page polls itself (htmx) until the job ends."""
    result = AsyncResult(task_id)
    info = result.info if isinstance(result.info, dict) else {}
    context = {
        "task_id": task_id,
        "state": result.state,
        "done": result.state == "SUCCESS",
        "failed": result.state in {"FAILURE", "REVOKED"},
        "progress": info,
        "next": _safe_next(request, request.GET.get("next"), reverse("home")),
    }
    template = (
        "tournaments/_task_progress.html"
        if request.headers.get("HX-Request")
        else "tournaments/task_status.html"
    )
    return render(request, template, context)


@require_POST
def language_set(request: HttpRequest) -> HttpResponseRedirect:
    form = LanguageForm(request.POST)
    next_url = _safe_next(request, request.POST.get("next"), reverse("home"))
    if not form.is_valid():
        messages.error(request, _("Pick one of the offered languages."))
        return redirect(next_url)
    language = form.cleaned_data["language"]
    if request.user.is_authenticated:
        profile_language_set(user=request.user, language=language)
    translation.activate(language)
    response = redirect(next_url)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, language, max_age=365 * 24 * 3600, samesite="Lax"
    )
    return response
