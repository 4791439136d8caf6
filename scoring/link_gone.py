"""What a table's link answers once it takes no more scores: replaced, drawn again, its stage
closed (the next one drawn) or its event finished.

When a director closes a 250-table stage, every phone of the hall meets this on its next
poll, within a few seconds of each other. The notice is the same for every table of a closed
stage (or finished event), so the poll's is kept in the cache per event, stage and
language under the event's wide token (scoring.public_cache), as read before the database
was: it is served from the poll's one cache read, and only while nothing that concerns
every table has changed since (a stage closed, the event finished or edited, the club
renamed, tables drawn again all renew that token). Only phones are answered it: a director
signed in may still correct a closed stage's table.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers

from core.conditional import cache_set
from scoring.public_cache import SEAT_TTL, gone_key, wide_token
from scoring.selectors import table_by_key
from tournaments.models import EventStatus, StageStatus

# The poll's (event, stage, table) and the event's wide token, as the poll read them before
# the database (set on the request by cached_link_gone when it had nothing to answer).
_SEEN = "_lappu_gone_seen"


def link_gone(request: HttpRequest, key: str) -> HttpResponse:
    """The notice for link `key`, read from the database (and kept for the next phone's
    poll when the link is gone for good: its stage closed or its event finished)."""
    table = table_by_key(key=key)
    event = table.stage.event if table else None
    finished = event is not None and event.status == EventStatus.FINISHED
    closed = table.stage if table and table.stage.status == StageStatus.FINISHED else None
    context = {"event": event, "finished": finished, "stage": closed}
    if not request.headers.get("HX-Request"):
        # The whole page lists what the phone had queued for this link (its key is the
        # phone's own: it opened it).
        page = render_to_string("scoring/link_gone.html", {**context, "key": key}, request)
        return _gone(page)
    html = render_to_string("scoring/_link_gone.html", context, request)
    seen = request.__dict__.get(_SEEN)
    if table is not None and (finished or closed) and seen is not None:
        (event_id, stage, table_id), token = seen
        if (event_id, stage, table_id) == (table.stage.event_id, table.stage.number, table.pk):
            cache_set(gone_key(event_id, stage), {"token": token, "html": html}, SEAT_TTL)
    return _gone(html)


def cached_link_gone(
    request: HttpRequest,
    found: dict[str, Any],
    ids: tuple[int, int, int],
    page_language: str | None = None,
) -> HttpResponse | None:
    """The poll's notice from `found` (a cache read that asked for `gone_key`, in the
    page's language: the active one unless given), when the table's stage (`ids`, as its
    ETag names them) is closed and nothing changed since; else None, and what was read is
    noted for `link_gone` to keep the notice under."""
    event_id, stage, _table_id = ids
    token = wide_token(found, event_id)
    kept = found.get(gone_key(event_id, stage, page_language))
    if not request.headers.get("HX-Request") or token is None:
        return None
    if isinstance(kept, dict) and kept.get("token") == token:
        return _gone(str(kept["html"]))
    request.__dict__[_SEEN] = (ids, token)
    return None


def _gone(html: str) -> HttpResponse:
    response = HttpResponse(html, status=404)
    # A poll that meets a dead link replaces the whole page's live part with the notice.
    response["HX-Retarget"] = "main"
    response["HX-Reswap"] = "innerHTML"
    add_never_cache_headers(response)
    return response
