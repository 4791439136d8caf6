"""The event's public page and its live part (the polled parts' machinery: standings.parts)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

from core.conditional import with_validators
from core.load import shed_when_busy
from scoring.public_cache import (
    cached_part,
    checked_stamp,
    ranking_query,
)
from standings.parts import (
    early_304,
    last_modified,
    page_path,
    page_viewer,
    public_event_or_404,
    public_part,
    public_tag,
    render_live,
    stamp_of,
)


def event_public(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The public page: its header from the event, its live part from the cache."""
    query = ranking_query(request, page_path(slug, event_id))
    stamp = stamp_of(event_id)
    tag = public_tag(request, "page", stamp, slug, query, viewer=page_viewer(request))
    if answer := early_304(request, stamp, tag, visible=False):
        return answer
    event = public_event_or_404(request, slug, event_id)
    stamp = checked_stamp(stamp, event)
    tag = public_tag(request, "page", stamp, slug, query, viewer=page_viewer(request))
    if answer := early_304(request, stamp, tag, visible=True):
        return answer
    part, shown = cached_part("live", stamp, event, query, lambda: render_live(request, event))
    # The tag of the live part as the page shows it (the poll's own, same version), so the
    # page's first poll asks with it: a 304, also when the server sheds spectators' polls.
    poll_tag = public_tag(request, "live", shown, slug, query, viewer="")
    context = {"event": event, "live_html": mark_safe(part.html), "poll_tag": poll_tag}
    response = render(request, "standings/event_public.html", context)
    page_tag = public_tag(request, "page", shown, slug, query, viewer=page_viewer(request))
    return with_validators(response, page_tag, last_modified(shown))


@shed_when_busy
def event_live(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The part of the public page that refreshes itself (htmx polling): a poll that finds
    nothing new is answered 304 from one cache read."""
    return public_part(request, slug, event_id, kind="live", render_part=render_live, ranked=True)
