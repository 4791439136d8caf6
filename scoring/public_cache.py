"""The public pages' versions and cached parts, in the cache every web process shares.

An event's *stamp* says which version of its results a page shows: the event's
`results_changed_at` (or its creation, before any result) with a nonce drawn when the stamp
was stored, the club's slug and whether the event is public. It lives under one key per
event; the receivers (scoring.cache_receivers) store a fresh one when a change is committed,
so every ETag and cached part keyed by it is outdated at once. A page that finds no stamp
(evicted, Redis restarted) reads it from the database and adds it; the new nonce only costs
each poller one full answer.

The table page's poll has versions of its own: a table's token changes with that table's
deals, when a phone takes or lets go a seat there, or its link is replaced; an event's
*wide* token changes with what concerns every table (seating, a stage closed, the event
finished or edited). A deal saved at one table leaves the other tables' polls at 304.

Rendered parts (the public page's live part, the big screen's) are cached under the
event's stamp, the language and the ranking's query; they are what anyone may see, so a
private event's preview for its directors is never cached.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any, TypedDict
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import get_language

from core.conditional import (
    cache_add,
    cache_claim,
    cache_delete_many,
    cache_get_many,
    cache_set,
    cache_set_many,
)
from scoring.models import SeatClaim
from tournaments.models import Event

# A stamp is kept as long as nothing changes (a change stores a new one); the limit only
# bounds how long one stored from a read that raced with a change could last.
STAMP_TTL = 15 * 60
PART_TTL = 30 * 60
SEAT_TTL = 6 * 3600
# How long another request waits for one that renders a part (then renders it itself).
RENDER_CLAIM = 10


class Stamp(TypedDict):
    token: str  # changes with every results change (or when the stamp is stored again)
    slug: str
    public: bool
    changed: float  # results_changed_at (else created_at) as a timestamp: Last-Modified


def stamp_key(event_id: int) -> str:
    return f"lappu:ev:{event_id}"


def seat_key(table_id: int) -> str:
    return f"lappu:table:{table_id}"


def wide_key(event_id: int) -> str:
    return f"lappu:evwide:{event_id}"


def part_key(kind: str, event_id: int, token: str, variant: str) -> str:
    digest = hashlib.md5(variant.encode(), usedforsecurity=False).hexdigest()[:16]
    return f"lappu:part:{kind}:{event_id}:{token}:{digest}"


_STAMP_FIELDS = ("pk", "results_changed_at", "created_at", "published_at", "club__slug")


def _stamp_of(row: dict[str, Any]) -> Stamp:
    changed = row["results_changed_at"] or row["created_at"]
    return {
        "token": f"{changed.timestamp():.6f}.{secrets.token_hex(4)}",
        "slug": row["club__slug"],
        "public": row["published_at"] is not None,
        "changed": changed.timestamp(),
    }


def event_stamp(event_id: int, found: dict[str, Any] | None) -> Stamp | None:
    """The event's stamp: the one in `found` (a cache read), else read from the database and
    added to the cache. None when the event does not exist or the cache could not be read
    (`found` is None): the page then goes out without an ETag and is not cached."""
    if found is None:
        return None
    stamp: Stamp | None = found.get(stamp_key(event_id))
    if stamp is not None and shared():
        return stamp
    row = Event.objects.filter(pk=event_id).values(*_STAMP_FIELDS).first()
    if row is None:
        return None
    if stamp is not None and _same(stamp, row):
        return stamp  # a process's own cache, checked against the database
    fresh = _stamp_of(row)
    if stamp is not None:
        return fresh if cache_set(stamp_key(event_id), fresh, STAMP_TTL) else None
    return cache_add(stamp_key(event_id), fresh, STAMP_TTL)  # type: ignore[no-any-return]


def shared() -> bool:
    """Whether every web process reads this cache (Redis): only then is a version found
    there trusted without asking the database, and a seat token used at all."""
    return bool(getattr(settings, "PUBLIC_CACHE_SHARED", False))


def _same(stamp: Stamp, row: dict[str, Any]) -> bool:
    changed = row["results_changed_at"] or row["created_at"]
    return (
        stamp["changed"] == changed.timestamp()
        and stamp["slug"] == row["club__slug"]
        and stamp["public"] == (row["published_at"] is not None)
    )


def checked_stamp(stamp: Stamp | None, event: Event) -> Stamp | None:
    """`stamp` when it is the loaded `event`'s, else a fresh one stored in its place (one
    stored from a read that raced with a change, or left from an event of the same id
    that is gone). None stays None: the cache could not be read."""
    if stamp is None:
        return None
    row = {
        "results_changed_at": event.results_changed_at,
        "created_at": event.created_at,
        "published_at": event.published_at,
        "club__slug": event.club.slug,
    }
    if _same(stamp, row):
        return stamp
    fresh = _stamp_of(row)
    return fresh if cache_set(stamp_key(event.pk), fresh, STAMP_TTL) else None


def stamps_store(*, event_ids: list[int] | None = None, club_id: int | None = None) -> None:
    """Store fresh stamps (a change was committed): every page keyed by the old ones is out
    of date. For the given events, or every event of a club."""
    events = Event.objects.all()
    if event_ids is not None:
        events = events.filter(pk__in=event_ids)
    if club_id is not None:
        events = events.filter(club_id=club_id)
    cache_set_many(
        {stamp_key(row["pk"]): _stamp_of(row) for row in events.values(*_STAMP_FIELDS)}, STAMP_TTL
    )


def table_keys(event_id: int, table_id: int) -> list[str]:
    """What the table page's poll reads, in one round trip."""
    return [stamp_key(event_id), wide_key(event_id), seat_key(table_id)]


def table_versions(
    event_id: int, table_id: int, found: dict[str, Any] | None, *, event: Event | None = None
) -> tuple[str, str] | None:
    """What the table page's poll shows depends on: (the event's changes that concern every
    table, this table's own: its deals, seats and link). With a shared cache a deal at
    another table changes neither, so the 250 tables of a hall keep their 304s while the
    others play. A cache of one process's own cannot hear of a change made through
    another: the event's results version and the table's seat claims are then read from
    the database. `event`: loaded already (a version left from an earlier event of the same
    id is then caught). None: the cache could not be read."""
    if found is None:
        return None
    if shared():
        wide = found.get(wide_key(event_id)) or cache_add(wide_key(event_id), _nonce(), SEAT_TTL)
        own = found.get(seat_key(table_id)) or cache_add(seat_key(table_id), _nonce(), SEAT_TTL)
        return (str(wide), str(own)) if wide and own else None
    stamp = event_stamp(event_id, found)
    if event is not None:
        stamp = checked_stamp(stamp, event)
    if stamp is None:
        return None
    claims = SeatClaim.objects.filter(table_id=table_id).order_by("position")
    text = repr(list(claims.values_list("position", "device", "claimed_at")))
    return stamp["token"], hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()[:16]


def _nonce() -> str:
    return secrets.token_hex(6)


def table_version_renew(table_id: int) -> None:
    cache_set(seat_key(table_id), _nonce(), SEAT_TTL)


def wide_versions_renew(*, event_ids: list[int]) -> None:
    cache_set_many({wide_key(pk): _nonce() for pk in event_ids}, SEAT_TTL)


def language() -> str:
    return get_language() or ""


def ranking_query(request: HttpRequest, page_path: str) -> str:
    """The query that sorts and pages the ranking of this request: its own, or on a poll the
    address the browser shows (core.tables.paginate_polled reads it the same way)."""
    if request.GET:
        return request.META.get("QUERY_STRING", "")
    current = request.headers.get("HX-Current-URL", "")
    if request.headers.get("HX-Request") and current:
        address = urlsplit(current)
        if address.path == page_path:
            return address.query
    return ""


def cached_part(
    kind: str, stamp: Stamp | None, event: Event, variant: str, render: Callable[[], str]
) -> tuple[str, bool]:
    """The rendered part under the event's stamp, and whether it is of that version.

    Missing, it is rendered and stored. While one request renders a new version, the
    others that want it meanwhile get the one before it (False: it goes out without an
    ETag, so the next poll asks again) instead of all rendering it at once: at 250 tables a
    result changes about every second. A private event's part, or one rendered while the
    cache is unreachable, is not stored."""
    if stamp is None or not stamp["public"] or event.published_at is None:
        return render(), True
    variant = f"{language()}\x1f{variant}"
    key = part_key(kind, event.pk, stamp["token"], variant)
    latest = part_key(kind, event.pk, "latest", variant)
    found = cache_get_many([key, latest])
    if found is None:
        return render(), True
    if key in found:
        return str(found[key]), True
    if latest in found and not cache_claim(key + ":rendering", RENDER_CLAIM):
        return str(found[latest]), False
    try:
        html = render()
        cache_set_many({key: html, latest: html}, PART_TTL)
    finally:
        cache_delete_many([key + ":rendering"])
    return html, True
