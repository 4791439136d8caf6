"""A club's rating list per game: the public page (filtered, sorted, paged; 304 while
nothing changed), its downloads and its JSON feed; the club's rated games."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render

from core.conditional import etag, if_none_match, not_modified, with_validators
from core.paging import paginate_table
from core.tables import EXPORT_FORMATS, csv_separator, export_name, export_response
from ratings.display import PROVISIONAL_GAMES
from ratings.feeds import ratings_feed
from ratings.filters import RatingFilter
from ratings.models import RatingRun
from ratings.selectors import club_ratings, rating_run, rating_runs, ratings_fingerprint
from ratings.tables import RATINGS_PER_PAGE, RatingTable
from rules import VARIANT_IDS, get_variant
from scoring.public_cache import language
from standings.parts import page_viewer
from tournaments.models import Club, Role
from tournaments.permissions import club_allows, get_club_for


def _game_or_404(game: str) -> str:
    if game not in VARIANT_IDS:
        raise Http404
    return game


def club_ratings_index(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's rated games: straight to the list when there is one, else each named."""
    club, _membership = get_club_for(slug=slug, user=request.user)
    runs = rating_runs(club=club)
    if len(runs) == 1:
        return redirect("club_rating_list", slug, runs[0].game)
    return render(request, "ratings/index.html", {"club": club, "games": _games(runs)})


def club_rating_list(request: HttpRequest, slug: str, game: str) -> HttpResponse:
    club, _membership = get_club_for(slug=slug, user=request.user)
    run = rating_run(club=club, game=_game_or_404(game))
    directs = club_allows(club=club, user=request.user, role=Role.DIRECTOR)
    tag = _tag(request, club, game, run, page_viewer(request), directs)
    if tag in if_none_match(request):
        return not_modified(tag)
    ratings = RatingFilter(request.GET, club_ratings(club=club, game=game, public=not directs))
    table = RatingTable(ratings.qs, show_hidden=directs, label=get_variant(game).name)
    context = {
        "club": club, "game": game, "variant": get_variant(game), "run": run,
        "games": _games(rating_runs(club=club)), "filter": ratings, "directs": directs,
        "table": paginate_table(request, table, per_page=RATINGS_PER_PAGE),
        "provisional_games": PROVISIONAL_GAMES,
    }  # fmt: skip
    return with_validators(render(request, "ratings/list.html", context), tag)


def club_rating_export(
    request: HttpRequest, slug: str, game: str, export_format: str
) -> HttpResponse:
    """Every row the page's filters leave (never one page), as CSV or XLSX."""
    if export_format not in EXPORT_FORMATS:
        raise Http404
    club, _membership = get_club_for(slug=slug, user=request.user)
    directs = club_allows(club=club, user=request.user, role=Role.DIRECTOR)
    rows = club_ratings(club=club, game=_game_or_404(game), public=not directs)
    ratings = RatingFilter(request.GET, rows)
    table = RatingTable(ratings.qs.order_by("-rating", "player__name"))
    name = get_variant(game).name
    return export_response(
        table,
        export_format=export_format,
        name=export_name(club.slug, name, "ratings"),
        title=name,
        separator=csv_separator(request),
    )


def club_ratings_feed(request: HttpRequest, slug: str, game: str) -> HttpResponse:
    """The ratings as JSON, version 1 (README.md, "JSON feeds"): public players only, whoever
    asks (anyone may read and keep a feed)."""
    club, _membership = get_club_for(slug=slug, user=request.user)
    run = rating_run(club=club, game=_game_or_404(game))
    tag = _tag(request, club, game, run, "feed", False)
    if tag in if_none_match(request):
        response = not_modified(tag)
    else:
        body = ratings_feed(request, club=club, game=game, run=run)
        response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"
    return with_validators(response, tag)


def _games(runs: list[RatingRun]) -> list[tuple[str, str]]:
    return [(run.game, get_variant(run.game).name) for run in runs if run.game in VARIANT_IDS]


def _tag(
    request: HttpRequest, club: Club, game: str, run: RatingRun | None, viewer: str, directs: bool
) -> str:
    # The list as this reader gets it: its data's version, the language, the query (filters,
    # order, page) and who reads it (a director's list holds the hidden players too).
    version = ratings_fingerprint(club=club, game=game, run=run)
    query = request.META.get("QUERY_STRING", "")
    return etag("ratings", club.pk, game, version, language(), query, viewer, directs)
