from __future__ import annotations

from typing import Literal, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.paging import paginate_table
from core.redirects import local_path
from core.tables import EXPORT_FORMATS, csv_separator, export_name, export_response
from core.task_views import task_page
from core.tasks import QueueUnavailable
from tournaments.club_tables import ClubEventTable, ClubPlayerTable
from tournaments.filters import ClubEventFilter
from tournaments.forms import LanguageForm
from tournaments.middleware import remember_language
from tournaments.models import Club, Role, Season
from tournaments.permissions import club_allows, get_club_for
from tournaments.selectors import (
    club_events,
    club_list,
    club_members,
    club_public_players,
    club_role_counts,
    club_seasons,
    events_past,
    events_upcoming,
)
from tournaments.services import profile_language_set
from tournaments.tables import MemberTable
from tournaments.tasks import club_stats_request


def _next(value: str | None) -> str:
    """Where to send the person afterwards: a path on this site, else home."""
    return local_path(value, fallback=reverse("home"))


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"clubs": club_list()})


# A phone's screenful of events per list; the players' list is longer.
CLUB_EVENTS_PER_PAGE = 10
CLUB_PLAYERS_PER_PAGE = 25


def _season_links(club: Club) -> list[tuple[Season, str | None]]:
    """Each season with the address of its league table, where the site has that page."""
    links: list[tuple[Season, str | None]] = []
    for season in club_seasons(club=club):
        try:
            url: str | None = reverse(
                "season_league", kwargs={"slug": club.slug, "season_id": season.pk}
            )
        except NoReverseMatch:
            url = None
        links.append((season, url))
    return links


def _event_tables(
    request: HttpRequest, club: Club, *, can_direct: bool, can_score: bool
) -> tuple[ClubEventFilter, list[tuple[str, ClubEventTable]]]:
    """The club page's filter and its two event lists, each sorted and paged on its own
    (its own prefix in the address). Visitors see the published events; the club's scorers
    and directors (who run its nights) the private ones too, marked so."""
    events = club_events(club=club, with_private=can_score)
    event_filter = ClubEventFilter(request.GET, events, club=club)
    today, roles = timezone.localdate(), {"can_direct": can_direct, "can_score": can_score}
    lists = []
    for name, selector, label in (
        ("upcoming", events_upcoming, _("Upcoming events")),
        ("past", events_past, _("Past events")),
    ):
        table = ClubEventTable(
            selector(event_filter.qs, today=today), prefix=f"{name}-", label=label, **roles
        )
        lists.append((name, paginate_table(request, table, per_page=CLUB_EVENTS_PER_PAGE)))
    return event_filter, lists


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club, membership = get_club_for(slug=slug, user=request.user)
    # Its language, as every club page's, is ClubLanguageMiddleware's: the club's for a
    # first-time visitor whose browser names none of the site's languages.
    can_direct = club_allows(club=club, user=request.user, role=Role.DIRECTOR)
    can_score = club_allows(club=club, user=request.user, role=Role.SCORER)
    event_filter, event_lists = _event_tables(
        request, club, can_direct=can_direct, can_score=can_score
    )
    players = ClubPlayerTable(club_public_players(club=club), prefix="players-", label=_("Players"))
    context: dict[str, object] = {
        "club": club, "membership": membership, "can_direct": can_direct,
        "can_score": can_score, "event_lists": event_lists, **dict(event_lists),
        "filter": event_filter, "filtered": event_filter.active, "seasons": _season_links(club),
        "players": paginate_table(request, players, per_page=CLUB_PLAYERS_PER_PAGE),
    }  # fmt: skip
    return render(request, "tournaments/club_detail.html", context)


def club_events_export(request: HttpRequest, slug: str, export_format: str) -> HttpResponse:
    """The club's published events, as the page's filter narrows them, as a spreadsheet
    (every row, never a page). Private events are never in a download, whoever asks."""
    if export_format not in EXPORT_FORMATS:
        raise Http404
    club, _membership = get_club_for(slug=slug, user=request.user)
    events = ClubEventFilter(request.GET, club_events(club=club), club=club).qs
    return export_response(
        ClubEventTable(events),
        export_format=export_format,
        name=export_name(club.name, _("Events")),
        title=_("Events"),
        separator=csv_separator(request),
    )


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
    _language_cookie(response, language)
    return response


def _language_cookie(response: HttpResponse, language: str) -> None:
    """The chosen language, remembered by the browser with the settings' cookie flags."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        # django-stubs types the setting as any string; the settings make it "Lax".
        samesite=cast(Literal["Lax"], settings.LANGUAGE_COOKIE_SAMESITE),
    )
