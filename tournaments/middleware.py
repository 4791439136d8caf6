from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from tournaments.selectors import user_language


class UserLanguageMiddleware:
    """Use a signed-in person's stored language, wherever they sign in from.

    LocaleMiddleware has already picked a language from the cookie or the browser; a stored
    choice is more deliberate than either, so it wins.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = user_language(user=request.user)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
