"""The event's public page and its live part (the polled parts' machinery: standings.parts)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from core.load import shed_when_busy
from standings.parts import (
    page_viewer,
    public_page,
    public_part,
    render_live,
)


def event_public(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The public page: its header from the event, its live part from the cache."""
    return public_page(
        request,
        slug,
        event_id,
        kind="page",
        template="standings/event_public.html",
        polls="live",
        render_part=render_live,
        ranked=True,
        viewer=page_viewer(request),
    )


@shed_when_busy
def event_live(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The part of the public page that refreshes itself (htmx polling): a poll that finds
    nothing new is answered 304 from one cache read."""
    return public_part(request, slug, event_id, kind="live", render_part=render_live, ranked=True)
