"""Request guards that hold for every page, so no view has to remember them."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse

NUL = "\x00"


class RefuseNulMiddleware:
    """Refuse (400) any request whose address, query, form values or headers hold a NUL
    character; forget any cookie that holds one.

    No person types one, PostgreSQL cannot store one in a text column (psycopg raises on it,
    which used to surface as a server error wherever a value reached a query: a session key
    looked up, a user agent stored with a failed sign-in), and no field of the site means
    anything with one in it. A cookie is the browser's, not the person's: one holding a NUL
    (none of ours ever does) is dropped, as if it had not been sent, and the answer tells
    the browser to delete it, so that browser is not refused on every page from then on.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if NUL in request.path or _has_nul(request.GET):
            raise BadRequest("NUL character in the address")
        if any(NUL in str(value) for value in _headers(request)):
            raise BadRequest("NUL character in a header")
        spoilt = [name for name, value in request.COOKIES.items() if NUL in name + value]
        for name in spoilt:
            del request.COOKIES[name]
        if request.method == "POST" and _has_nul(request.POST):
            raise BadRequest("NUL character in the form")
        response = self.get_response(request)
        for name in spoilt:
            if NUL not in name:  # a name with a NUL cannot be written back to be deleted
                response.delete_cookie(name)
        return response


def _headers(request: HttpRequest) -> Iterable[object]:
    # The Cookie header is looked at cookie by cookie above; the rest whole.
    return (
        value
        for key, value in request.META.items()
        if key.startswith(("HTTP_", "CONTENT_", "REMOTE_")) and key != "HTTP_COOKIE"
    )


def _has_nul(query: object) -> bool:
    lists = getattr(query, "lists", None)
    if lists is None:
        return False
    return any(NUL in key or any(NUL in value for value in values) for key, values in lists())
