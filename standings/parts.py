"""The polled parts of the public pages (the event page's live part, the big screen's): one
ETag per results version, 304 from one cache read, the part cached per version."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import partial
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe

from core.conditional import (
    cache_get_many,
    etag,
    if_none_match,
    not_modified,
    part_response,
    with_validators,
)
from formats.parts import public_parts
from scoring.devices import user_key
from scoring.public_cache import (
    Stamp,
    cached_part,
    checked_stamp,
    event_stamp,
    language,
    ranking_query,
    stamp_keys,
    stored_part,
)
from scoring.selectors import event_sheets
from standings.sections import event_sections
from standings.selectors import public_stages
from standings.standings import event_standings
from tournaments.models import Event
from tournaments.permissions import public_event
from tournaments.visibility import confirmed_only


def public_event_or_404(request: HttpRequest, slug: str, event_id: int) -> Event:
    """The event of a public page: a private one is not found (but for its directors)."""
    event = public_event(slug=slug, event_id=event_id, user=request.user)
    if event is None:
        raise Http404
    return event


def public_part(
    request: HttpRequest,
    slug: str,
    event_id: int,
    *,
    kind: str,
    render_part: Callable[[HttpRequest, Event], str],
    ranked: bool = False,
) -> HttpResponse:
    """A polled part of a public page (`kind`: the event page's live part, the big screen's):
    304 while the event's results are unchanged, else the part from the cache (rendered by
    `render_part` when it is not there). `ranked`: the part holds the paged ranking, whose
    query is part of what is cached. A public event's part already rendered for the version
    is answered from the cache alone, as a 304 is: no query."""
    early = _early(request, slug, event_id, kind, ranked, viewer="")
    if isinstance(early, HttpResponse):
        return early
    stamp, tag, query = early
    if tag is not None and (part := stored_part(kind, stamp, event_id, query)) is not None:
        response = part_response(request, part.html, part.gzipped)
        return with_validators(response, tag, last_modified(stamp))
    found = _loaded(request, slug, event_id, kind, stamp, query, viewer="")
    if isinstance(found, HttpResponse):
        return found
    event, stamp = found
    part, shown = cached_part(kind, stamp, event, query, partial(render_part, request, event))
    response = part_response(request, part.html, part.gzipped)
    shown_tag = public_tag(request, kind, shown, slug, query, viewer="")
    return with_validators(response, shown_tag, last_modified(shown))


def public_page(
    request: HttpRequest,
    slug: str,
    event_id: int,
    *,
    kind: str,
    template: str,
    polls: str,
    render_part: Callable[[HttpRequest, Event], str],
    ranked: bool = False,
    viewer: str = "",
) -> HttpResponse:
    """A whole public page (`kind`): `template` around the part it polls (`polls`), that
    part taken from the cache as its polls take it, so a version's standings are worked out
    once for the page and its polls alike (at 250 tables that is most of a page's cost).
    The page says the part's tag (data-poll-tag), so its first poll asks with it and is a
    304, also when spectators' polls are shed. `viewer`: what makes the page this visitor's
    (page_viewer), where it carries forms."""
    early = _early(request, slug, event_id, kind, ranked, viewer=viewer)
    if isinstance(early, HttpResponse):
        return early
    stamp, _tag, query = early
    found = _loaded(request, slug, event_id, kind, stamp, query, viewer=viewer)
    if isinstance(found, HttpResponse):
        return found
    event, stamp = found
    part, shown = cached_part(polls, stamp, event, query, partial(render_part, request, event))
    poll_tag = public_tag(request, polls, shown, slug, query, viewer="")
    context = {"event": event, "live_html": mark_safe(part.html), "poll_tag": poll_tag}
    response = render(request, template, context)
    page_tag = public_tag(request, kind, shown, slug, query, viewer=viewer)
    return with_validators(response, page_tag, last_modified(shown))


def _early(
    request: HttpRequest, slug: str, event_id: int, kind: str, ranked: bool, *, viewer: str
) -> tuple[Stamp | None, str | None, str] | HttpResponse:
    """A 304 when the visitor holds a public event's `kind` as it is now, before the
    database is asked; else the stamp the cache holds, its tag and the ranking's query."""
    query = ranking_query(request, page_path(slug, event_id)) if ranked else ""
    stamp = stamp_of(event_id)
    tag = public_tag(request, kind, stamp, slug, query, viewer=viewer)
    if answer := early_304(request, stamp, tag, visible=False):
        return answer
    return stamp, tag, query


def _loaded(
    request: HttpRequest,
    slug: str,
    event_id: int,
    kind: str,
    stamp: Stamp | None,
    query: str,
    *,
    viewer: str,
) -> tuple[Event, Stamp | None] | HttpResponse:
    """The event (404: none the visitor may see) and its stamp checked against it; a 304
    when the visitor holds `kind` as it is now (a private event's, now that they may)."""
    event = public_event_or_404(request, slug, event_id)
    stamp = checked_stamp(stamp, event)
    tag = public_tag(request, kind, stamp, slug, query, viewer=viewer)
    if answer := early_304(request, stamp, tag, visible=True):
        return answer
    return event, stamp


def stamp_of(event_id: int) -> Stamp | None:
    return event_stamp(event_id, cache_get_many(stamp_keys(event_id)))


def last_modified(stamp: Stamp | None) -> float | None:
    return stamp["changed"] if stamp else None


def page_path(slug: str, event_id: int) -> str:
    return reverse("event_public", kwargs={"slug": slug, "event_id": event_id})


def public_tag(
    request: HttpRequest, kind: str, stamp: Stamp | None, slug: str, query: str, *, viewer: str
) -> str | None:
    if stamp is None or stamp["slug"] != slug:
        return None
    # A public event's part is the same for everyone; a private one's (a director's
    # preview) is only ever revalidated for the person who was shown it.
    who = viewer if stamp["public"] else f"{viewer}\x1f{user_key(request)}"
    return etag(kind, stamp["token"], language(), query, who)


def early_304(
    request: HttpRequest, stamp: Stamp | None, tag: str | None, *, visible: bool
) -> HttpResponse | None:
    """304 when the client holds the page as it is now: for a public event before the
    database is asked; for a private one only once the visitor may see it (`visible`)."""
    if stamp is None or tag is None or tag not in if_none_match(request):
        return None
    return not_modified(tag, stamp["changed"]) if visible or stamp["public"] else None


def page_viewer(request: HttpRequest) -> str:
    """What makes a whole page this visitor's: who is signed in, the CSRF cookie its forms
    carry a token of, a message waiting to be shown (never answered 304)."""
    if request.COOKIES.get("messages"):
        return secrets.token_hex(8)
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    return f"{user_key(request)}\x1f{csrf}"


def render_live(request: HttpRequest, event: Event) -> str:
    # Every round's own page and seating, not only the newest's (the big screen needs none).
    stages = [] if event.spec.one_stage else public_stages(event=event)
    context = {**live_context(event), "stages": stages, "sections": event_sections(event)}
    return render_to_string("standings/_event_live.html", context, request)


def live_context(event: Event) -> dict[str, Any]:
    """The live part's context: the event's standings and the tables of the stage in play
    (the round's own ranking is on its stage page). A club that shows only confirmed results publicly has them here
    too (its setting's change renews every event's version: scoring.cache_receivers)."""
    standings = event_standings(event=event)
    sheets = standings.sheets
    if not sheets and standings.stage is None and not event.spec.one_stage:
        # A series' or head to head's standings span the rounds: the cards are the round
        # in play's.
        sheets = event_sheets(event=event, confirmed_only=confirmed_only(club=event.club))
    return {
        "event": event,
        "standings": standings,
        **public_parts(event, standings.every_sheet),
        "sheets": sheets,
        "pending": standings.pending or any(sheet.unconfirmed for sheet in sheets),
    }
