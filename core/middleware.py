"""Request guards that hold for every page, so no view has to remember them."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse

NUL = "\x00"


class RefuseNulMiddleware:
    """Refuse (400) any request whose address, query or form values hold a NUL character.

    No person types one, PostgreSQL cannot store one in a text column (psycopg raises on it,
    which used to surface as a server error wherever a value reached a query), and no field
    of the site means anything with one in it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if NUL in request.path or _has_nul(request.GET):
            raise BadRequest("NUL character in the address")
        if request.method == "POST" and _has_nul(request.POST):
            raise BadRequest("NUL character in the form")
        return self.get_response(request)


def _has_nul(query: object) -> bool:
    lists = getattr(query, "lists", None)
    if lists is None:
        return False
    return any(NUL in key or any(NUL in value for value in values) for key, values in lists())
