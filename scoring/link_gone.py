"""What a table's link answers once it takes no more scores: replaced, drawn again, its stage
closed (the next one drawn) or its event finished.

When a director closes a 250-table stage, every phone of the hall meets this on its next
poll, within a few seconds of each other. The notice is the same for every table of a closed
stage (or finished event), so the poll's is kept in the cache per event, stage and
language, marked with the event's wide print (scoring.public_cache): it is served from one
cache read, and only while nothing that concerns every table has changed since it was
rendered (a stage closed, the event finished, tables drawn again all change that print).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers

from core.conditional import cache_set
from scoring.public_cache import SEAT_TTL, gone_key, wide_print, wide_print_of
from tournaments.models import EventStatus, StageStatus, Table


def link_gone(request: HttpRequest, key: str) -> HttpResponse:
    """The notice for link `key`, read from the database (and kept for the next phone's
    poll when the link is gone for good: its stage closed or its event finished)."""
    table = Table.everything.select_related("stage__event__club").filter(entry_key=key).first()
    event = table.stage.event if table else None
    finished = event is not None and event.status == EventStatus.FINISHED
    closed = table.stage if table and table.stage.status == StageStatus.FINISHED else None
    context = {"event": event, "finished": finished, "stage": closed}
    if not request.headers.get("HX-Request"):
        return _gone(render_to_string("scoring/link_gone.html", context, request))
    html = render_to_string("scoring/_link_gone.html", context, request)
    if table is not None and event is not None and (finished or closed):
        kept = {"print": wide_print_of(event.results_changed_at), "html": html}
        cache_set(gone_key(event.pk, table.stage.number), kept, SEAT_TTL)
    return _gone(html)


def cached_link_gone(
    request: HttpRequest, found: dict[str, Any], event_id: int, stage: int
) -> HttpResponse | None:
    """The poll's notice from `found` (a cache read that asked for `gone_key`), when the
    table's stage (as its ETag names it) is closed and nothing changed since; else None."""
    kept = found.get(gone_key(event_id, stage))
    if not request.headers.get("HX-Request") or not isinstance(kept, dict):
        return None
    if kept.get("print") != wide_print(found, event_id):
        return None
    return _gone(str(kept["html"]))


def _gone(html: str) -> HttpResponse:
    response = HttpResponse(html, status=404)
    # A poll that meets a dead link replaces the whole page's live part with the notice.
    response["HX-Retarget"] = "main"
    response["HX-Reswap"] = "innerHTML"
    add_never_cache_headers(response)
    return response
