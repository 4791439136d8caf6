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
    from tests.support.events import seated_event

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
        # The shared parts as the first phone after a change finds them: those of the table's
        # version not built yet (a blank deal's fields, the same for every deal, are).
        if not hasattr(views, "_fragments"):
            return  # (the site before its parts were cached: a "before" run)
        fragments = views._fragments(table, views._versions(table))
        cache.delete_many([
            make_template_fragment_key("table-totals", [fragments, 0, False]),
            make_template_fragment_key("table-entered", [fragments, 4]),
        ])  # fmt: skip

    rows = []
    for state in ("deal 4 to enter", "deal 4 waiting"):
        if state == "deal 4 waiting":
            record(4)
        rows += [
            (f"whole page, {state}, shared parts cached", _cpu_us(handler, page)),
            (f"whole page, {state}, after a change", _cpu_us(handler, page, before=forget_parts)),
            (f"main part, {state}, shared parts cached", _cpu_us(handler, part)),
            (f"main part, {state}, after a change", _cpu_us(handler, part, before=forget_parts)),
        ]  # fmt: skip

    save_part, save_page = _deal_cycles()

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
    print(
        f"\n  a deal saved on one phone and confirmed on another, CPU of its requests, median of {CYCLES} tables:"
    )
    print(f"    answered with the main part                        {save_part:8.0f} µs")
    print(f"    redirected, then the whole page                    {save_page:8.0f} µs")
    return [
        *((f"table page: {name} (CPU)", us, f"{us / bare:.1f}x the bare view") for name, us in rows),
        ("a deal saved and confirmed, part answers (CPU)", save_part, f"{save_page / save_part:.2f}x less"),
        ("a deal saved and confirmed, redirect + page (CPU)", save_page, "the plain forms' way"),
    ]  # fmt: skip


CYCLES = int(os.environ.get("BENCH_TABLE_PAGE_CYCLES", "15"))


def _deal_cycles() -> tuple[float, float]:
    """A deal's requests at a table of its own: the save from seat 0's phone and the
    confirmation from seat 1's, each answered with the main part, or redirected and followed
    by the GET of the whole page (a plain form's way, and every phone's before the part)."""
    import django.test.client
    from django.test import Client
    from django.urls import reverse

    from tests.support.events import seated_event

    # The test client copies every template's context for its assertions: not the site's work.
    django.test.client.store_rendered_templates = lambda *args, **kwargs: None  # type: ignore[assignment]
    _event, tables = seated_event(variant_id="rutupeli", players=8 * CYCLES)
    save = {"number": 1, "expected_version": 0, "out": "0"}
    save.update({f"p{seat}_cards": hand for seat, hand in enumerate(("", "AS KD", "7H", "QS"))})
    results = []
    for part, group in ((True, tables[:CYCLES]), (False, tables[CYCLES:])):
        headers = {"X-Lappu-Part": "1"} if part else {}
        samples = []
        for table in group:
            key = table.entry_key
            first, second = Client(), Client()
            first.post(reverse("table_seat", args=[key]), {"seat": 0})
            second.post(reverse("table_seat", args=[key]), {"seat": 1})
            for phone in (first, second):  # each phone has its page open
                assert phone.get(reverse("table_entry", args=[key])).status_code == 200
            started = time.process_time_ns()
            for phone, url, data in (
                (first, reverse("deal_save", args=[key, 1]), {**save, "request_id": "s"}),
                (second, reverse("deal_confirm", args=[key, 1]), {"expected_version": 1, "request_id": "c"}),
            ):  # fmt: skip
                answer = phone.post(url, data, headers=headers)
                if answer.status_code == 302:
                    answer = phone.get(answer["Location"])
                assert answer.status_code == 200, answer.status_code
            samples.append((time.process_time_ns() - started) / 1000)
        results.append(statistics.median(samples))
    return results[0], results[1]


if __name__ == "__main__":
    for name, us, note in run():
        print(f"{name}: {us:.0f} µs  {note}")
