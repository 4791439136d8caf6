"""A table's page as its phones load it, in one process: the whole page (a phone opening its
link), its main part as the page's script asks for it (the answer to a save, confirmation or
seat claim, scoring.views._table_answer), and both with the parts that every phone at the
table shares taken from the cache (the totals, a blank deal's fields) or built anew, as the
first phone after a change builds them.

A Rutupeli table of four with three deals, the last one waiting for confirmation (its
confirm button shown); the phone at seat 0 asks. Measured as the WSGI handler
runs it (no HTTP), median CPU time of ROUNDS requests, beside a bare view through the same
stack. Uses the cache as configured (Redis when REDIS_URL is set, else this process's own).
"""

from __future__ import annotations

import os
import statistics
import time

ROUNDS = int(os.environ.get("BENCH_TABLE_PAGE_ROUNDS", "200"))


def run() -> list[tuple[str, float, str]]:
    from tests.bench.testdb import on_test_database

    return on_test_database(_measure)


def _cpu_us(handler, environ: dict, *, before=None) -> float:  # type: ignore[no-untyped-def]
    statuses: list[str] = []

    def start_response(status: str, _headers: list, _exc=None) -> None:  # type: ignore[no-untyped-def]
        statuses.append(status)

    samples = []
    for _ in range(ROUNDS):
        if before is not None:
            before()
        started = time.process_time_ns()
        response = handler(dict(environ), start_response)
        b"".join(response)
        response.close()
        samples.append((time.process_time_ns() - started) / 1000)
    assert set(statuses) == {"200 OK"}, statuses[:3]
    return statistics.median(samples)


def _measure() -> list[tuple[str, float, str]]:
    from django.core.cache import cache
    from django.core.cache.utils import make_template_fragment_key
    from django.core.handlers.wsgi import WSGIHandler
    from django.http import HttpResponse
    from django.test import Client, RequestFactory
    from django.test.utils import override_settings
    from django.urls import path, reverse

    from scoring import views
    from scoring.services import Actor, deal_confirm, deal_record
    from tests.scoring.conftest import seated_event

    cache.clear()
    _event, (table, *_rest) = seated_event(variant_id="rutupeli", players=8)
    hands = ["", "AS KD", "7H 7C 2D", "QS"]
    entry = {"out": 0, "players": [{"cards": h or None, "points": None, "buys": 0} for h in hands]}

    def record(number: int):  # type: ignore[no-untyped-def]
        return deal_record(
            table=table, number=number, entry=entry, by=Actor(device="seat-1", seat=1),
            expected_version=0, request_id=f"bench-{number}",
        )  # fmt: skip

    for number in (1, 2, 3):
        deal = record(number)
        deal_confirm(
            deal=deal, by=Actor(device="seat-2", seat=2), expected_version=deal.version,
            request_id=f"bench-c{number}",
        )  # fmt: skip
    phone = Client()
    phone.post(reverse("table_seat", args=[table.entry_key]), {"seat": 0})
    cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in phone.cookies.items())
    url = reverse("table_entry", args=[table.entry_key])
    page = RequestFactory().get(url, headers={"cookie": cookie}).environ
    part = RequestFactory().get(url, headers={"cookie": cookie, "x-lappu-part": "1"}).environ
    handler = WSGIHandler()

    def forget_parts() -> None:
        # The shared parts as the first phone after a change finds them: not built yet.
        if not hasattr(views, "_fragments"):
            return  # (the site before its parts were cached: a "before" run)
        fragments = views._fragments(table, views._versions(table))
        cache.delete_many([
            make_template_fragment_key("table-totals", [fragments, 0, False]),
            make_template_fragment_key("table-entry", [fragments, 4]),
            make_template_fragment_key("table-entered", [fragments, 4]),
        ])  # fmt: skip

    rows = []
    for state in ("deal 4 to enter", "deal 4 waiting"):
        if state == "deal 4 waiting":
            record(4)
        rows += [
            (f"whole page, {state}, shared parts cached", _cpu_us(handler, page)),
            (f"whole page, {state}, shared parts built", _cpu_us(handler, page, before=forget_parts)),
            (f"main part, {state}, shared parts cached", _cpu_us(handler, part)),
            (f"main part, {state}, shared parts built", _cpu_us(handler, part, before=forget_parts)),
        ]  # fmt: skip

    import clubsite.urls

    bare_urls = type(
        "BareUrls",
        (),
        {"urlpatterns": [path("bare/", lambda _r: HttpResponse("ok")), *clubsite.urls.urlpatterns]},
    )
    with override_settings(ROOT_URLCONF=bare_urls):
        bare = _cpu_us(handler, RequestFactory().get("/bare/").environ)
    print(f"\n  a Rutupeli table's page (4 seats), CPU per request, median of {ROUNDS}:")
    for name, us in rows:
        print(f"    {name:<50} {us:8.0f} µs")
    print(f"    {'bare view (yardstick)':<50} {bare:8.0f} µs")
    return [
        (f"table page: {name} (CPU)", us, f"{us / bare:.1f}x the bare view") for name, us in rows
    ]


if __name__ == "__main__":
    for name, us, note in run():
        print(f"{name}: {us:.0f} µs  {note}")
