"""Which phone is asking: its device cookie, set on the table's pages and read wherever a
page or an ETag depends on who asks."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse

DEVICE_COOKIE = "lappu_device"


def device_of(request: HttpRequest) -> str:
    if "_lappu_device" not in request.__dict__:
        cookie = request.COOKIES.get(DEVICE_COOKIE, "")
        valid = (
            16 <= len(cookie) <= 64
            and cookie.isascii()
            and cookie.replace("-", "").replace("_", "").isalnum()
        )
        request.__dict__["_lappu_device"] = cookie if valid else secrets.token_urlsafe(16)
    return str(request.__dict__["_lappu_device"])


def with_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    if request.COOKIES.get(DEVICE_COOKIE) != device_of(request):
        response.set_cookie(
            DEVICE_COOKIE,
            device_of(request),
            max_age=2 * 365 * 24 * 3600,
            samesite="Lax",
            httponly=True,
            secure=settings.DEVICE_COOKIE_SECURE,
        )
    return response


def user_key(request: HttpRequest) -> str:
    """The signed-in person's id as text ("" for nobody), for an ETag that is theirs."""
    return str(request.user.pk or "") if hasattr(request, "user") else ""
