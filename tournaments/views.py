from __future__ import annotations

import re

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.paging import paginate_table
from core.redirects import local_path
from core.tasks import QueueUnavailable, TaskStatus, task_may_retry, task_run_retry, task_run_status
from tournaments.forms import LanguageForm
from tournaments.middleware import remember_language
from tournaments.models import Role
from tournaments.permissions import club_allows, get_club_for
from tournaments.selectors import club_events, club_list, club_members, club_role_counts
from tournaments.services import club_stats_request, profile_language_set
from tournaments.tables import MemberTable


def _next(value: str | None) -> str:
    """Where to send the person afterwards: a path on this site, else home."""
    return local_path(value, fallback=reverse("home"))


def _task_page(task_id: str, next_url: str) -> str:
    return f"{reverse('task_status', args=[task_id])}?{urlencode({'next': next_url})}"


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"clubs": club_list()})


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club, membership = get_club_for(slug=slug, user=request.user)
    if not request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) and not request.user.is_authenticated:
        # A first-time visitor reads the club in the club's own language.
        translation.activate(club.language)
    context = {
        "club": club,
        "membership": membership,
        "can_direct": club_allows(club=club, user=request.user, role=Role.DIRECTOR),
        "can_score": club_allows(club=club, user=request.user, role=Role.SCORER),
        "events": club_events(club=club),
    }
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
    return redirect(_task_page(task_id, club.get_absolute_url()))


TASK_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _task_status_or_404(task_id: str) -> TaskStatus:
    # Only ids the site hands out (Celery's uuids) are looked up; nobody queued any other.
    status = task_run_status(task_id=task_id) if TASK_ID.fullmatch(task_id) else None
    if status is None:
        raise Http404(_("No such job."))
    return status


@require_http_methods(["GET", "POST"])
def task_status(request: HttpRequest, task_id: str) -> HttpResponse:
    """A slow job's progress; the page polls itself (htmx) until the job ends. POST: retry."""
    status = _task_status_or_404(task_id)
    if request.method == "POST":
        return _task_retry(request, status)
    context = {
        "task_id": task_id,
        "status": status,
        "can_retry": task_may_retry(status=status, user=request.user),
        "next": _next(request.GET.get("next")),
    }
    template = (
        "tournaments/_task_progress.html"
        if request.headers.get("HX-Request")
        else "tournaments/task_status.html"
    )
    return render(request, template, context)


def _task_retry(request: HttpRequest, status: TaskStatus) -> HttpResponse:
    next_url = _next(request.POST.get("next"))
    if not task_may_retry(status=status, user=request.user):
        raise PermissionDenied
    try:
        task_id = task_run_retry(run=status.run)
    except QueueUnavailable as error:
        messages.error(request, error.message)
        return redirect(_task_page(status.run.task_id, next_url))
    return redirect(_task_page(task_id, next_url))


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
