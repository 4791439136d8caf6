"""`/healthz`: is this web process able to serve? Asked by Docker, compose and load balancers.

Answered by the first middleware, before anything else runs: no host check (a probe asks
for 127.0.0.1 or the container's name, neither of which is in ALLOWED_HOSTS), no redirect
to HTTPS (the probe speaks plain HTTP inside the container), no session, no language, no
rate limit. It costs one `SELECT 1` and one cache round trip, each bounded by the short
timeouts the settings give them, so an unhealthy site says so in about a second instead
of hanging the probe.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

PATH = "/healthz"


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _cache() -> None:
    cache = caches[settings.PUBLIC_CACHE]
    # A write and a read: a cache that answers reads from a dead primary is not healthy.
    cache.set("lappu:healthz", "ok", timeout=30)
    if cache.get("lappu:healthz") != "ok":
        raise ConnectionError("the cache did not keep a value")


CHECKS: dict[str, Callable[[], None]] = {"database": _database, "cache": _cache}


def health_report() -> tuple[bool, dict[str, object]]:
    """Every check's outcome ("ok" or what went wrong) and its time in milliseconds."""
    report: dict[str, object] = {}
    healthy = True
    for name, check in CHECKS.items():
        started = time.perf_counter()
        try:
            check()
            outcome = "ok"
        except Exception as error:
            healthy = False
            outcome = f"failing: {type(error).__name__}"
            logger.warning("Health check %s failed: %s", name, error)
        report[name] = {"status": outcome, "ms": round((time.perf_counter() - started) * 1000, 1)}
    return healthy, report


def health_response(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
    healthy, report = health_report()
    body = json.dumps({"status": "ok" if healthy else "failing", "checks": report})
    response = HttpResponse(body, status=200 if healthy else 503, content_type="application/json")
    response["Cache-Control"] = "no-store"
    return response


class HealthCheckMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.rstrip("/") == PATH:
            return health_response(request)
        return self.get_response(request)
