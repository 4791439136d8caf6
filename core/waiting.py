"""The one way a background job's progress is shown: its page (core/waiting.html) or, to
the page's own poll (htmx), its progress part alone. Every job's view answers through it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def waiting_page(
    request: HttpRequest,
    *,
    heading: str,
    part: str,
    context: dict[str, Any],
    poll_url: str = "",
    refresh: bool = False,
    status: int = 200,
) -> HttpResponse:
    """`part` (a template extending core/_progress.html, given `context` and `state`) inside
    the waiting page titled `heading`, or alone when the page's poll asks for it."""
    context = {**context, "poll_url": poll_url}
    if request.headers.get("HX-Request"):
        return render(request, part, context, status=status)
    page = {**context, "heading": heading, "part": part, "refresh": refresh}
    return render(request, "core/waiting.html", page, status=status)
