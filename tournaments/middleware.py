from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

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
