from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

from tournaments.club_language import club_language
from tournaments.selectors import user_language

# Where the signed-in person's stored language is kept for the session (with the user's id,
# so a different sign-in on the same browser reads its own).
SESSION_LANGUAGE = "lappu_language"


class UserLanguageMiddleware:
    """Use a signed-in person's stored language, wherever they sign in from.

    LocaleMiddleware has already picked a language from the cookie or the browser; a stored
    choice is more deliberate than either, so it wins.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = self._language(request)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)

    @staticmethod
    def _language(request: HttpRequest) -> str:
        """The stored choice, read once per session (the language switch updates it)."""
        if not request.user.is_authenticated:
            return ""
        key = _session_key(request)
        if key not in request.session:
            request.session[key] = user_language(user=request.user)
        return request.session[key]


def _session_key(request: HttpRequest, user_id: int | None = None) -> str:
    return f"{SESSION_LANGUAGE}:{request.user.pk if user_id is None else user_id}"


def remember_language(request: HttpRequest, language: str, user_id: int | None = None) -> None:
    """A new choice of the signed-in person (``user_id`` while signing in, before the request
    carries the user): pages follow it from the next request on."""
    request.session[_session_key(request, user_id)] = language


class ClubLanguageMiddleware:
    """A first-time visitor of a club's pages reads them in the club's language.

    A phone that scans a Finnish club's QR code gets Finnish on the event, table, big-screen
    and player pages, unless it said otherwise: a language chosen with the site's switch
    (the cookie), or an Accept-Language naming one of the site's languages, wins; a person
    signed in reads their own choice. No cookie is set: the same phone reads a Hungarian
    club in Hungarian. The club is found from the address (its slug, or its table's link)
    in the shared cache (tournaments.club_language), so a table's poll asks no database.

    Decided in process_view, after LocaleMiddleware and UserLanguageMiddleware and before
    the view computes an ETag or cache key that names the language.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.__dict__.get(_CLUB_PAGE):
            # The language follows the header and the cookie: a cache keeps each apart.
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponse],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        where = _club_of(request, kwargs)
        if where is None:
            return
        request.__dict__[_CLUB_PAGE] = True
        if _language_asked(request):
            return
        language = club_language(**where)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language


# Marks a request whose language may be its club's.
_CLUB_PAGE = "_lappu_club_page"


def _club_of(request: HttpRequest, kwargs: dict[str, Any]) -> dict[str, str] | None:
    """How the address names its club: a club's page (clubs/<slug>/...) or a table's link
    (t/<key>/...). Feeds (api/...) and the site's own pages name none."""
    match = request.resolver_match
    route = match.route if match is not None else ""
    if route.startswith("clubs/") and isinstance(kwargs.get("slug"), str):
        return {"slug": kwargs["slug"]}
    if route.startswith("t/") and isinstance(kwargs.get("key"), str):
        return {"key": kwargs["key"]}
    return None


def _language_asked(request: HttpRequest) -> bool:
    """Whether the visitor said which of the site's languages they read, as LocaleMiddleware
    reads it: the cookie, or the Accept-Language header (up to a "*"). A person signed in
    is no first-time visitor: their stored choice, else their browser's, as on the club's
    own page (tournaments.views.club_detail)."""
    return _browser_asked(request) or bool(request.user.is_authenticated)


def _browser_asked(request: HttpRequest) -> bool:
    """Whether the cookie or the Accept-Language header (up to a "*") names one of the
    site's languages."""
    if _supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")):
        return True
    for code, _quality in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        if code == "*":
            break
        if _supported(code):
            return True
    return False


def visitor_language(request: HttpRequest, club: str | None) -> str | None:
    """The language a club's page is shown in to a visitor nobody signed in as, decided as
    LocaleMiddleware and ClubLanguageMiddleware decide it, before either has run (a table's
    poll answered early, scoring.polls): what the browser asked for, else the club's
    language (`club`: as the cache holds it). None: it depends on the club's language,
    which `club` does not give."""
    if _browser_asked(request):
        return translation.get_language_from_request(request)
    return club or None


def _supported(code: str) -> bool:
    try:
        translation.get_supported_language_variant(code)
    except LookupError:
        return False
    return True
