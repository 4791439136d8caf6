"""Cheap answers to polls: ETags, 304s, and a cache that may fail without failing the page.

A page that many phones poll carries an ETag built from a few short version strings kept
in the cache (the app decides what they are: an event's results version, a table's seat
token). A poll whose If-None-Match still matches is answered 304 after one cache read,
before the database is touched:

    stamps = cache_get_many([key])                    # one round trip
    tag = etag("live", stamps[key], language)
    if tag in if_none_match(request):
        return not_modified(tag)

Every cache call here swallows the cache's errors (logged, at most once a minute): with
Redis down nothing answers 304 and nothing is served from the cache, the page is simply
computed, as it would be without a cache. The cache is `settings.PUBLIC_CACHE`
("default"): Redis when REDIS_URL is set, so every web process reads and drops the same
entries.
"""

from __future__ import annotations

import logging
import math
import re
import time
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.crypto import salted_hmac
from django.utils.http import http_date

logger = logging.getLogger(__name__)

# How a 200 or 304 of a polled page may be kept: by the browser only (pages carry a CSRF
# token and the language), and only after asking again (no-cache = revalidate each time).
CACHE_CONTROL = "private, no-cache"
_WARN_EVERY = 60.0
_last_warning = -math.inf
RETRY_AFTER = 5.0
_GZIP = re.compile(r"\bgzip\b")
_down_until = -math.inf


def public_cache() -> BaseCache:
    return caches[getattr(settings, "PUBLIC_CACHE", "default")]


def _warn(action: str, error: Exception) -> None:
    # After a failure pages stop reading the cache for a few seconds: a Redis that hangs
    # would otherwise cost every page its timeout. Writes (a change's new version) are
    # always tried: one skipped would leave an old version behind once Redis is back.
    global _last_warning, _down_until
    now = time.monotonic()
    _down_until = now + RETRY_AFTER
    if now - _last_warning >= _WARN_EVERY:
        _last_warning = now
        logger.warning("public page cache unavailable (%s): %r; pages are computed", action, error)


def cache_get_many(keys: list[str]) -> dict[str, Any] | None:
    """The values found (missing keys left out), or None when the cache cannot be read."""
    if time.monotonic() < _down_until:
        return None
    try:
        return public_cache().get_many(keys)
    except Exception as error:  # any backend's connection error: the page goes on without
        _warn("read", error)
        return None


def cache_get(key: str) -> Any | None:
    found = cache_get_many([key])
    return None if found is None else found.get(key)


def cache_set(key: str, value: Any, timeout: int) -> bool:
    try:
        public_cache().set(key, value, timeout)
        return True
    except Exception as error:
        _warn("write", error)
        return False


def cache_set_many(values: dict[str, Any], timeout: int) -> bool:
    try:
        public_cache().set_many(values, timeout)
        return True
    except Exception as error:
        _warn("write", error)
        return False


def cache_add(key: str, value: Any, timeout: int) -> Any | None:
    """Store `value` unless the key holds one already; the value then held (None: no cache).

    Readers that found nothing store with `add`, writers with `set`: a reader that read the
    database before a change was committed cannot overwrite what the change stored."""
    try:
        cache = public_cache()
        if cache.add(key, value, timeout):
            return value
        held = cache.get(key)
        return value if held is None else held
    except Exception as error:
        _warn("write", error)
        return None


def cache_claim(key: str, timeout: int) -> bool:
    """Whether this request is the first to claim `key` (an atomic add; with the cache
    unreachable every request is)."""
    try:
        return bool(public_cache().add(key, 1, timeout))
    except Exception as error:
        _warn("write", error)
        return True


def cache_delete_many(keys: list[str]) -> None:
    try:
        public_cache().delete_many(keys)
    except Exception as error:
        _warn("write", error)


def etag(*parts: object, label: str = "") -> str:
    """A weak ETag for these parts, signed with the SECRET_KEY: a client cannot make up one
    that matches a page it has not been given. `label` is shown in clear before the
    signature (what the page needs to find its versions again)."""
    text = "\x1f".join(str(part) for part in (label, *parts))
    return 'W/"' + label + salted_hmac("lappu.conditional", text).hexdigest()[:24] + '"'


def if_none_match(request: HttpRequest) -> set[str]:
    """The ETags the client holds (weak comparison: W/ prefixes are ignored)."""
    header = request.headers.get("If-None-Match", "")
    tags = {tag.strip() for tag in header.split(",") if tag.strip()}
    return {tag if tag.startswith("W/") else "W/" + tag for tag in tags}


def part_response(request: HttpRequest, html: str, gzipped: bytes | None) -> HttpResponse:
    """A polled part as the client takes it: the copy compressed once when it was cached, if
    the client accepts gzip (every browser does), else the HTML."""
    if gzipped is not None and _GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(gzipped)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(html)
    patch_vary_headers(response, ["Accept-Encoding"])
    return response


def not_modified(tag: str, last_modified: float | None = None) -> HttpResponse:
    response = HttpResponseNotModified()
    # As its 200 does (part_response): a cache keeps each coding's copy apart.
    patch_vary_headers(response, ["Accept-Encoding"])
    return with_validators(response, tag, last_modified)


def with_validators(
    response: HttpResponse, tag: str | None, last_modified: float | None = None
) -> HttpResponse:
    """Mark `response` as revalidated by `tag` (None: the cache could not be read, so the
    page goes out without one and the next poll gets it in full)."""
    response["Cache-Control"] = CACHE_CONTROL
    if "Expires" in response:
        del response["Expires"]
    if tag is not None:
        response["ETag"] = tag
        if last_modified is not None:
            response["Last-Modified"] = http_date(last_modified)
    return response
