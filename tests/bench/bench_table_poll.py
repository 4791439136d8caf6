"""A phone's table poll that finds nothing new (a 304), in one process, on Redis.

At 250 tables these polls are most of what a hall's night serves. Measured as the WSGI
handler runs them (no HTTP, so the server's own cost is left out), the median CPU time of:

- the poll answered early (scoring.polls.TablePollMiddleware: one Redis read, before the
  sessions, CSRF, locale and the rest);
- the same poll through the whole middleware stack to the view, as before it (goal: the
  early answer at least 5x cheaper);
- a bare view that returns a short text through the whole stack, the yardstick.

Needs Redis on 127.0.0.1:6379 (database 13, the public bench's), else says so.
"""

from __future__ import annotations

import os
import socket
import statistics
import time

ROUNDS = int(os.environ.get("BENCH_POLL_ROUNDS", "2000"))
REDIS_URL = os.environ.get("BENCH_PUBLIC_REDIS_URL", "redis://127.0.0.1:6379/13")
EARLY = "scoring.polls.TablePollMiddleware"


def _reachable(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


def run() -> list[tuple[str, float, str]]:
    if not _reachable(6379):
        print("  bench_table_poll: needs Redis on 127.0.0.1:6379: not measured")
        return []
    os.environ["REDIS_URL"] = REDIS_URL
    from tests.bench.testdb import on_test_database

    return on_test_database(_measure)


def _cpu_us(handler, environ: dict) -> float:  # type: ignore[no-untyped-def]
    statuses: list[str] = []

    def start_response(status: str, _headers: list, _exc=None) -> None:  # type: ignore[no-untyped-def]
        statuses.append(status)

    samples = []
    for _ in range(ROUNDS):
        started = time.process_time_ns()
        response = handler(dict(environ), start_response)
        response.close()
        samples.append((time.process_time_ns() - started) / 1000)
    assert set(statuses) <= {"304 Not Modified", "200 OK"} and len(set(statuses)) == 1, statuses[:3]
    return statistics.median(samples)


def _measure() -> list[tuple[str, float, str]]:
    from django.conf import settings
    from django.core.cache import cache
    from django.core.handlers.wsgi import WSGIHandler
    from django.http import HttpResponse
    from django.test import Client, RequestFactory
    from django.test.utils import override_settings
    from django.urls import path, reverse

    from tests.support.events import seated_event

    cache.clear()
    _event, (table, *_rest) = seated_event(variant_id="rutupeli", players=4)
    phone = Client()
    phone.post(reverse("table_seat", args=[table.entry_key]), {"seat": 0})
    live = reverse("table_live", args=[table.entry_key])
    tag = phone.get(live)["ETag"]
    device = phone.cookies["lappu_device"].value
    poll = RequestFactory().get(
        live, headers={"if-none-match": tag, "cookie": f"lappu_device={device}"}
    )
    poll.environ["HTTP_ACCEPT_ENCODING"] = "gzip, deflate, br"

    early = _cpu_us(WSGIHandler(), poll.environ)
    with override_settings(MIDDLEWARE=[m for m in settings.MIDDLEWARE if m != EARLY]):
        whole = _cpu_us(WSGIHandler(), poll.environ)

    import clubsite.urls

    bare_urls = type(
        "BareUrls",
        (),
        {"urlpatterns": [path("bare/", lambda _r: HttpResponse("ok")), *clubsite.urls.urlpatterns]},
    )
    with override_settings(ROOT_URLCONF=bare_urls):
        bare = _cpu_us(WSGIHandler(), RequestFactory().get("/bare/").environ)
    print(
        f"\n  a table's poll that finds nothing new (304), CPU per request, median of {ROUNDS}:"
        f"\n    answered early    {early:8.0f} µs"
        f"\n    through the stack {whole:8.0f} µs  ({whole / early:.1f}x the early answer;"
        f" goal >= 5x)"
        f"\n    bare view         {bare:8.0f} µs  (yardstick: a 200 through the whole stack)"
    )
    return [
        ("table poll 304, answered early (CPU)", early, f"{bare / early:.1f}x cheaper than bare"),
        ("table poll 304, through the stack (CPU)", whole, f"{whole / early:.1f}x the early one"),
    ]


if __name__ == "__main__":
    for name, us, note in run():
        print(f"{name}: {us:.0f} µs  {note}")
