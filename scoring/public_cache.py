"""The public pages' versions and cached parts, in the cache every web process shares.

An event's *stamp* says which version of its results a page shows: the event's results
version (tournaments.changes: the latest change of the event or any of its tables) with a
nonce drawn when the stamp was stored, the club's slug and whether the event is public. It lives under one key per
event; the receivers (scoring.cache_receivers) store a fresh one when a change is committed,
so every ETag and cached part keyed by it is outdated at once. A page that finds no stamp
(evicted, Redis restarted) reads it from the database and adds it; the new nonce only costs
each poller one full answer. Every version found in the cache is checked against the
database every RECHECK seconds, so one the cache kept wrongly (restored from a snapshot)
is caught.

The table page's poll has versions of its own: a table's token changes with that table's
deals, when a phone takes or lets go a seat there, or its link is replaced; an event's
*wide* token changes with what concerns every table (seating, a stage closed, the event
finished or edited). A deal saved at one table leaves the other tables' polls at 304.

Rendered parts (the public page's live part, the big screen's) are cached under the
event's stamp, the language and the ranking's query; they are what anyone may see, so a
private event's preview for its directors is never cached.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import secrets
import time
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple, TypedDict
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import BooleanField, ExpressionWrapper, QuerySet
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
from tournaments.changes import event_results_version, with_results_version
from tournaments.models import Event, Table
from tournaments.visibility import is_public, public_events_q

# A stamp is kept as long as nothing changes (a change stores a new one); the limit only
# bounds how long one stored from a read that raced with a change could last.
STAMP_TTL = 15 * 60
PART_TTL = 30 * 60
SEAT_TTL = 6 * 3600
# How long another request waits for one that renders a part (then renders it itself).
RENDER_CLAIM = 10


class Stamp(TypedDict, total=False):
    token: str  # changes with every results change (or when the stamp is stored again)
    slug: str
    public: bool
    changed: float  # the event's results version as a timestamp: Last-Modified
    checked: float  # when it was last found to be the database's (time.time())
    stored: float  # when it was made (time.time()): a coalesced change waits for its age


def stamp_key(event_id: int) -> str:
    return f"lappu:ev:{event_id}"


def seat_key(table_id: int) -> str:
    return f"lappu:table:{table_id}"


def wide_key(event_id: int) -> str:
    return f"lappu:evwide:{event_id}"


def pending_key(event_id: int) -> str:
    """Marks an event whose tables changed since its stamp was made (a coalesced change)."""
    return f"lappu:evpending:{event_id}"


def stamp_keys(event_id: int) -> list[str]:
    """What `event_stamp` reads, in one round trip: the stamp, and whether a change waits."""
    return [stamp_key(event_id), pending_key(event_id)]


def part_key(kind: str, event_id: int, token: str, variant: str) -> str:
    digest = hashlib.md5(variant.encode(), usedforsecurity=False).hexdigest()[:16]
    return f"lappu:part2:{kind}:{event_id}:{token}:{digest}"  # 2: a Part, no longer a str


# A version kept in the cache is trusted for this long, then checked against the database
# by one request (the others go on trusting it meanwhile): a cache that lost a change (Redis
# restored from a snapshot taken before it, a version stored while Redis was down) serves
# an old page for RECHECK seconds at most, never for good. One small query per event, and
# per polled table, every RECHECK seconds.
RECHECK = 15.0


def _due(value: Any, key: str) -> bool:
    """Whether the cached `value` of `key` is to be checked against the database now."""
    checked = value.get("checked") if isinstance(value, dict) else None
    if isinstance(checked, int | float) and time.time() - checked < RECHECK:
        return False
    # One request checks this stored value; the claim is the value's own, so a value
    # stored anew (checked again) is never mistaken for one already being checked.
    return cache_claim(f"lappu:recheck:{key}:{checked}", int(RECHECK))


def _stamp_rows(events: QuerySet[Event]) -> QuerySet[Event, dict[str, Any]]:
    public = ExpressionWrapper(public_events_q(), output_field=BooleanField())
    fields = ("pk", "results_version", "public", "club__slug")
    return with_results_version(events).annotate(public=public).values(*fields)  # type: ignore[misc]


def _stamp_of(row: dict[str, Any]) -> Stamp:
    changed = row["results_version"]
    return {
        "token": f"{changed.timestamp():.6f}.{secrets.token_hex(4)}",
        "slug": row["club__slug"],
        "public": row["public"],
        "changed": changed.timestamp(),
        "checked": time.time(),
        "stored": time.time(),
    }


def coalesced() -> float:
    """How long a table's change waits for the event's next public version (0: none): only
    with a shared cache, whose waiting mark every process sees."""
    return float(getattr(settings, "PUBLIC_COALESCE_SECONDS", 0)) if shared() else 0.0


def change_pending(event_id: int) -> None:
    """A table's change was committed: the event's public version is renewed once the
    current one is `coalesced()` seconds old, by the first request that asks then."""
    cache_add(pending_key(event_id), time.time(), STAMP_TTL)


def _renewed(event_id: int, stamp: Stamp, found: dict[str, Any]) -> Stamp | None:
    """The stamp that follows `stamp` when a coalesced change waits and `stamp` has served
    its time (one request renews it; the others keep `stamp` meanwhile), else None."""
    waiting = found.get(pending_key(event_id))
    if waiting is None or time.time() - float(stamp.get("stored") or 0) < coalesced():
        return None
    if not cache_claim(f"lappu:restamp:{event_id}:{stamp.get('token')}", STAMP_TTL):
        return stamp
    # Dropped before the database is read: a change committed after the read marks anew.
    cache_delete_many([pending_key(event_id)])
    row = _stamp_rows(Event.objects.filter(pk=event_id)).first()
    if row is None:
        return None
    fresh = _stamp_of(row)
    return fresh if cache_set(stamp_key(event_id), fresh, STAMP_TTL) else stamp


def event_stamp(event_id: int, found: dict[str, Any] | None) -> Stamp | None:
    """The event's stamp: the one in `found` (a cache read), else read from the database and
    added to the cache. None when the event does not exist or the cache could not be read
    (`found` is None): the page then goes out without an ETag and is not cached."""
    if found is None:
        return None
    key = stamp_key(event_id)
    stamp: Stamp | None = found.get(key)
    if stamp is not None and coalesced() and (renewed := _renewed(event_id, stamp, found)):
        return renewed
    if stamp is not None and shared() and not _due(stamp, key):
        return stamp
    row = _stamp_rows(Event.objects.filter(pk=event_id)).first()
    if row is None:
        return None
    if stamp is not None and _same(stamp, row):
        # A process's own cache, or a shared one due for its check: it is still current.
        if shared():
            cache_set(key, {**stamp, "checked": time.time()}, STAMP_TTL)
        return stamp
    fresh = _stamp_of(row)
    if stamp is not None:
        return fresh if cache_set(key, fresh, STAMP_TTL) else None
    return cache_add(key, fresh, STAMP_TTL)  # type: ignore[no-any-return]


def shared() -> bool:
    """Whether every web process reads this cache (Redis): only then is a version found
    there trusted without asking the database (for RECHECK seconds), and a table's version
    used at all."""
    return bool(getattr(settings, "PUBLIC_CACHE_SHARED", False))


def _same(stamp: Stamp, row: dict[str, Any]) -> bool:
    return (
        stamp.get("changed") == row["results_version"].timestamp()
        and stamp.get("slug") == row["club__slug"]
        and stamp.get("public") == row["public"]
    )


def checked_stamp(stamp: Stamp | None, event: Event) -> Stamp | None:
    """`stamp` when it is the loaded `event`'s, else a fresh one stored in its place (one
    stored from a read that raced with a change, or left from an event of the same id
    that is gone). None stays None: the cache could not be read."""
    if stamp is None:
        return None
    if coalesced() and time.time() - float(stamp.get("stored") or 0) < coalesced():
        return stamp  # younger than a coalesced change waits: current enough by design
    row = {
        "results_version": event_results_version(event),
        "public": is_public(event),
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
    cache_set_many({stamp_key(row["pk"]): _stamp_of(row) for row in _stamp_rows(events)}, STAMP_TTL)


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
        wide = _table_token(found, wide_key(event_id), partial(_wide_print, event_id))
        own = _table_token(found, seat_key(table_id), partial(_table_print, table_id))
        return (wide, own) if wide and own else None
    stamp = event_stamp(event_id, found)
    if event is not None:
        stamp = checked_stamp(stamp, event)
    if stamp is None:
        return None
    return stamp["token"], _table_print(table_id)


# A table poll's two versions are each "what the database says.a nonce": the nonce is drawn
# anew whenever a change is committed (scoring.cache_receivers), the first part is checked
# against the database every RECHECK seconds.


def _wide_print(event_id: int) -> str:
    changed = Event.objects.filter(pk=event_id).values_list("results_changed_at", flat=True).first()
    return _print_of(changed)


def _print_of(changed: datetime.datetime | None) -> str:
    return f"{changed.timestamp():.6f}" if changed else "-"


def gone_key(event_id: int, stage: int, page_language: str | None = None) -> str:
    """The notice a poll of a closed stage's (or finished event's) table answers, in the
    page's language (the active one unless given): the same for every table of the stage,
    so 250 phones meeting it at a close cost one render, not 250 (scoring.link_gone)."""
    return f"lappu:gone:{event_id}:{stage}:{page_language or language()}"


def wide_token(found: dict[str, Any], event_id: int) -> str | None:
    """The event's wide token as `found` holds it (None: not there)."""
    held = found.get(wide_key(event_id))
    return str(held["token"]) if isinstance(held, dict) and "token" in held else None


def _table_print(table_id: int) -> str:
    row = (
        Table.everything.filter(pk=table_id).values_list("results_changed_at", "entry_key").first()
    )
    claims = SeatClaim.objects.filter(table_id=table_id).order_by("position")
    text = repr((row, list(claims.values_list("position", "device", "claimed_at"))))
    return hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()[:16]


def _token_of(fingerprint: str) -> dict[str, Any]:
    return {"token": f"{fingerprint}.{_nonce()}", "print": fingerprint, "checked": time.time()}


def _table_token(found: dict[str, Any], key: str, fingerprint: Callable[[], str]) -> str | None:
    held = found.get(key)
    if isinstance(held, dict) and not _due(held, key):
        return str(held["token"])
    now = fingerprint()
    if isinstance(held, dict) and held.get("print") == now:
        cache_set(key, {**held, "checked": time.time()}, SEAT_TTL)
        return str(held["token"])
    if held is not None:  # the cache had lost a change (or holds an older kind): renewed
        fresh = _token_of(now)
        return str(fresh["token"]) if cache_set(key, fresh, SEAT_TTL) else None
    added = cache_add(key, _token_of(now), SEAT_TTL)
    return str(added["token"]) if isinstance(added, dict) else None


def _nonce() -> str:
    return secrets.token_hex(6)


def table_version_renew(table_id: int) -> None:
    cache_set(seat_key(table_id), _token_of(_table_print(table_id)), SEAT_TTL)


def wide_versions_renew(*, event_ids: list[int]) -> None:
    # One query for them all: a merge or a club's settings renew many events at once.
    changed = dict(Event.objects.filter(pk__in=event_ids).values_list("pk", "results_changed_at"))
    tokens = {wide_key(pk): _token_of(_print_of(changed.get(pk))) for pk in event_ids}
    cache_set_many(tokens, SEAT_TTL)


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


class Part(NamedTuple):
    """A rendered public part, and the same gzipped once for every poll that accepts it (a
    250-table ranking is 100-160 KB of HTML, about a tenth of that compressed). It holds
    only what anyone may see, so compressing it gives nothing away (BREACH needs a secret
    in the body)."""

    html: str
    gzipped: bytes | None = None
    token: str = ""  # the event's version it shows ("": not known)


def _part_of(html: str, token: str) -> Part:
    return Part(html, gzip.compress(html.encode(), compresslevel=6, mtime=0), token)


def _language_part_key(kind: str, event_id: int, token: str, variant: str) -> str:
    """The key of a part as it is shown in the active language (`variant`: the rest it
    depends on, the ranking's query): the one key stored_part and cached_part share."""
    return part_key(kind, event_id, token, f"{language()}\x1f{variant}")


def stored_part(kind: str, stamp: Stamp | None, event_id: int, variant: str) -> Part | None:
    """The part already rendered for a public event's `stamp`, read without the event: what
    a spectator's poll finds after each change (the first to ask rendered it). The stamp is
    trusted as a 304 before the database trusts it (RECHECK); None: not there, or not a
    public event's."""
    if stamp is None or not stamp.get("public") or not shared():
        return None
    key = _language_part_key(kind, event_id, stamp["token"], variant)
    found = cache_get_many([key])
    part = found.get(key) if found is not None else None
    return part if isinstance(part, Part) else None


def cached_part(
    kind: str, stamp: Stamp | None, event: Event, variant: str, render: Callable[[], str]
) -> tuple[Part, Stamp | None]:
    """The rendered part under the event's stamp, and the stamp of the version it shows.

    Missing, it is rendered and stored. While one request renders a new version, the
    others that want it meanwhile get the one before it (with that version's stamp: its
    ETag is the one before's, so the next poll asks again, and a poll shed meanwhile is
    still a 304 keeping that copy) instead of all rendering it at once: at 250 tables a
    result changes about every second. A private event's part, or one rendered while the
    cache is unreachable, is not stored (nor compressed)."""
    if stamp is None or not stamp["public"] or not is_public(event):
        return Part(render()), stamp
    key = _language_part_key(kind, event.pk, stamp["token"], variant)
    latest = _language_part_key(kind, event.pk, "latest", variant)
    found = cache_get_many([key, latest])
    if found is None:
        return Part(render()), stamp
    if isinstance(found.get(key), Part):
        return found[key], stamp
    before = found.get(latest)
    if isinstance(before, Part) and not cache_claim(key + ":rendering", RENDER_CLAIM):
        return before, {**stamp, "token": before.token} if before.token else None
    try:
        part = _part_of(render(), stamp["token"])
        cache_set_many({key: part, latest: part}, PART_TTL)
    finally:
        cache_delete_many([key + ":rendering"])
    return part, stamp
