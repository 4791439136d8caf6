"""Rate limits for the pages anyone may call: a fixed-window counter per client in the cache.

    @rate_limit(scope="table_check")                  # rate from settings.RATE_LIMITS
    @rate_limit(scope="table_check", rate="120/m")    # a default for a scope not listed below
    @rate_limit(scope="signup", key=client_ip)        # one bucket per address, whatever the page

The rate of a scope is `settings.RATE_LIMITS[scope]`, else the decorator's `rate`, else
`DEFAULT_RATES[scope]`; `None` there turns that scope off, `RATE_LIMIT_ENABLED = False` turns
every scope off. A rate is "N/s", "N/m", "N/h" or "N/d", optionally with a multiple of the
unit ("20/10s"). Counts live in `caches[settings.RATE_LIMIT_CACHE]` ("default"): `cache.add`
starts a window, `cache.incr` counts in it, both atomic on Redis, so every worker shares one
count. A request over the limit gets 429 and `Retry-After` (the seconds until the window
ends): the translated 429 page, or for htmx a short fragment. When the cache cannot be
reached the request goes through and a warning is logged: Redis being down must not stop
score entry.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse

from core.views import too_many_requests

logger = logging.getLogger(__name__)

# Sized for a club night on one venue's Wi-Fi, where every phone shares one public address:
# the default key also holds the table, so the count is per table (up to six phones), not
# per venue. A person tapping cards sets off about one check a second; a phone polls the
# table every five seconds; seat picks, saves and confirmations are human-paced.
DEFAULT_RATES: dict[str, str | None] = {
    "table_check": "120/m",
    "table_live": "180/m",
    "table_write": "60/m",
}

KeyFunc = Callable[..., str]

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\w*\s*$")
# When the cache is down every request would warn; once a minute says it as well.
_WARN_EVERY = 60.0
_last_warning = -math.inf


@dataclass(frozen=True)
class Rate:
    limit: int
    period: int  # seconds

    @classmethod
    def parse(cls, text: str, *, name: str) -> Rate:
        match = _RATE.match(text) if isinstance(text, str) else None
        if not match or int(match[1]) < 1 or match[2] == "0":
            raise ImproperlyConfigured(
                f"{name}={text!r}: write a rate as requests/period, e.g. '120/m', '5/s', '20/10s'."
            )
        return cls(int(match[1]), int(match[2] or 1) * _UNITS[match[3]])


def client_ip(request: HttpRequest, *args: Any, **kwargs: Any) -> str:
    """The client's address: REMOTE_ADDR, or with `RATE_LIMIT_PROXY_COUNT = N` trusted proxies
    in front, the address the outermost of them saw (the N-th from the right of
    X-Forwarded-For). Never the left end of that header: any client can write it."""
    remote = str(request.META.get("REMOTE_ADDR") or "unknown")
    proxies = getattr(settings, "RATE_LIMIT_PROXY_COUNT", 0)
    if proxies:
        forwarded: list[str] = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return remote


def client_ip_and_target(request: HttpRequest, *args: Any, **kwargs: Any) -> str:
    """The default key: the client's address and what the view is about, its first argument
    after the request (a table, a club's slug...), so phones sharing one address at a venue
    count per table instead of all together."""
    values = [*args, *kwargs.values()]
    return client_ip(request) if not values else f"{client_ip(request)}|{_part(values[0])}"


def _part(value: Any) -> str:
    meta = getattr(value, "_meta", None)
    if meta is not None and hasattr(value, "pk"):
        return f"{meta.label_lower}:{value.pk}"
    return str(value)


def rate_for(scope: str, default: str | None = None) -> Rate | None:
    """The scope's rate now, from the settings; None when the scope is not limited."""
    configured = getattr(settings, "RATE_LIMITS", None) or {}
    if scope in configured:
        text, name = configured[scope], f"RATE_LIMITS[{scope!r}]"
    elif default is not None:
        text, name = default, f"rate_limit(scope={scope!r}, rate=...)"
    elif scope in DEFAULT_RATES:
        text, name = DEFAULT_RATES[scope], f"core.ratelimit.DEFAULT_RATES[{scope!r}]"
    else:
        raise ImproperlyConfigured(
            f"rate_limit(scope={scope!r}) has no rate: set RATE_LIMITS[{scope!r}] "
            "or pass rate='N/m'."
        )
    return None if text is None else Rate.parse(text, name=name)


def _now() -> float:
    return time.time()


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    count: int
    retry_after: int  # seconds until the window ends


def hit(scope: str, key: str, rate: Rate) -> Verdict:
    """Count one request of `key` in `scope`'s current window. Raises whatever the cache
    raises; the decorator turns that into letting the request through."""
    now = _now()
    window = int(now // rate.period)
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    cache_key = f"rl:{scope}:{rate.period}:{window}:{digest}"
    cache = caches[getattr(settings, "RATE_LIMIT_CACHE", "default")]
    # A second beyond the window's end so a slow clock between workers never re-adds it.
    timeout = rate.period + 1
    if cache.add(cache_key, 1, timeout):
        count = 1
    else:
        try:
            count = cache.incr(cache_key)
        except ValueError:  # expired between add and incr: this request starts it again
            cache.add(cache_key, 1, timeout)
            count = 1
    retry_after = max(1, math.ceil((window + 1) * rate.period - now))
    return Verdict(allowed=count <= rate.limit, count=count, retry_after=retry_after)


def rate_limit(
    *,
    scope: str,
    rate: str | None = None,
    key: KeyFunc | None = None,
    methods: tuple[str, ...] | None = None,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Limit a view to the scope's rate per key; over it, answer 429 with Retry-After.

    `key(request, *args, **kwargs)` is called with the view's own arguments and returns the
    bucket's name; the default is `client_ip_and_target`, `client_ip` is one bucket per
    address. `methods` limits only those methods (default: all).
    """
    rate_for(scope, rate)  # a missing or malformed rate stops the site at start-up, not later
    key_func = key or client_ip_and_target
    limited = {m.upper() for m in methods} if methods else None

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            current = rate_for(scope, rate)
            if (
                current is None
                or not getattr(settings, "RATE_LIMIT_ENABLED", True)
                or (limited is not None and request.method not in limited)
            ):
                return view(request, *args, **kwargs)
            bucket = key_func(request, *args, **kwargs)
            try:
                verdict = hit(scope, bucket, current)
            except Exception:
                _warn_cache_down(scope)
                return view(request, *args, **kwargs)
            if verdict.allowed:
                return view(request, *args, **kwargs)
            logger.info(
                "rate limit %s (%s/%ss) reached by %s",
                scope,
                current.limit,
                current.period,
                client_ip(request),
            )
            return too_many_requests(request, retry_after=verdict.retry_after, scope=scope)

        return wrapper

    return decorator


def _warn_cache_down(scope: str) -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning >= _WARN_EVERY:
        _last_warning = now
        logger.warning(
            "rate limit %s: the cache cannot be reached; letting requests through unlimited",
            scope,
            exc_info=True,
        )
