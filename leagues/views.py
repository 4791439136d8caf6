"""A season's league table: the public page, its downloads, the embeddable page, the JSON
feed, and the director's page that changes the scheme (showing what would change)."""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_replace
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt

from core.i18n import violation_text
from core.tables import EXPORT_FORMATS, csv_separator, export_name, export_response
from leagues.feeds import league_feed
from leagues.forms import LeagueSchemeForm
from leagues.selectors import (
    SeasonLeague,
    league_compute,
    place_changes,
    public_season,
    season_scheme_changes,
)
from leagues.services import season_league, season_league_scheme_set
from leagues.tables import export_table, league_table, scheme_text
from leagues.tasks import league_recompute_queue
from rules import RuleViolation
from tournaments.models import Role, Season
from tournaments.permissions import club_allows, season_for

# The JSON feed's version, in its path and its body (docs/feeds.md).


def _season_or_404(slug: str, season_id: int) -> Season:
    season = public_season(slug=slug, season_id=season_id)
    if season is None:
        raise Http404
    return season


def _changes(season: Season) -> list[dict[str, Any]]:
    return [
        {
            "change": change,
            "old": scheme_text(change.old_scheme),
            "new": scheme_text(change.new_scheme),
            "by": change.changed_by.get_full_name() or change.changed_by.get_username()
            if change.changed_by
            else "",
        }
        for change in season_scheme_changes(season=season)
    ]


def _context(request: HttpRequest, league: SeasonLeague, *, embed: bool = False) -> dict[str, Any]:
    season = league.season
    return {
        "season": season,
        "club": season.club,
        "league": league,
        "table": league_table(league, league.ranked, request=request, embed=embed),
        "unranked": league_table(league, league.unranked, embed=embed) if league.unranked else None,
        "scheme_text": scheme_text(league.scheme.to_dict()),
    }


def season_league_page(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    league = season_league(season=_season_or_404(slug, season_id))
    directs = club_allows(club=league.season.club, user=request.user, role=Role.DIRECTOR)
    context = {**_context(request, league), "changes": _changes(league.season), "directs": directs}
    return render(request, "leagues/season.html", context)


def season_league_export(
    request: HttpRequest, slug: str, season_id: int, export_format: str
) -> HttpResponse:
    if export_format not in EXPORT_FORMATS:
        raise Http404
    league = season_league(season=_season_or_404(slug, season_id))
    season = league.season
    return export_response(
        export_table(league),
        export_format=export_format,
        name=export_name(season.club.slug, season.name, "league"),
        title=season.name,
        separator=csv_separator(request),
    )


@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})  # type: ignore[arg-type]  # typed for views of one argument
def season_league_embed(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """The table alone, for an iframe on the club's own site: any site may frame it."""
    league = season_league(season=_season_or_404(slug, season_id))
    return render(request, "leagues/embed.html", _context(request, league, embed=True))


def season_league_feed(request: HttpRequest, slug: str, season_id: int) -> JsonResponse:
    """The league table as JSON, version 1 (docs/feeds.md)."""
    league = season_league(season=_season_or_404(slug, season_id))
    response = JsonResponse(league_feed(request, league), json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"
    return response


@login_required
def season_scheme_edit(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """The director changes the scheme: "Show what changes" first, then "Save"."""
    season = season_for(slug=slug, season_id=season_id, user=request.user)
    league = season_league(season=season)
    form = LeagueSchemeForm(request.POST or None, scheme=league.scheme)
    preview = None
    if request.method == "POST" and form.is_valid() and form.scheme is not None:
        if "save" in request.POST and _scheme_saved(request, season, form):
            return redirect("season_league", slug=slug, season_id=season_id)
        after = league_compute(season=season, scheme=form.scheme, previous=league.payload)
        preview = {
            "text": scheme_text(after["scheme"]),
            "moves": place_changes(league.payload, after),
        }
    context = {
        "season": season, "club": season.club, "form": form, "preview": preview,
        "scheme_text": scheme_text(league.scheme.to_dict()), "changes": _changes(season),
    }  # fmt: skip
    return render(request, "leagues/scheme.html", context)


def _scheme_saved(request: HttpRequest, season: Season, form: LeagueSchemeForm) -> bool:
    """Save the form's scheme (the change recorded, the table recomputed) and say so;
    False, with the reason said, when it is refused."""
    assert form.scheme is not None
    try:
        change = season_league_scheme_set(
            season=season, scheme=form.scheme, by=request.user, note=form.cleaned_data["note"]
        )
    except RuleViolation as error:
        messages.error(request, violation_text(error))
        return False
    league_recompute_queue(season_id=season.pk)
    messages.success(
        request,
        _("The league scheme is changed; the table shows the change.")
        if change
        else _("That is the scheme the season has already; nothing changed."),
    )
    return True
