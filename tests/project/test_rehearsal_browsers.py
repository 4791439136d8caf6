"""The load rehearsal's phones behave as browsers and the page's scripts do (tests/bench/
rehearsal.py): they follow a form's redirect to the page, fetch a page's files once, take
the poll's tag from the page, poll on htmx's fixed schedule, time each request from when it
was due; and the rehearsal counts only the processes it started. Against a scripted server
in this process: no stack is built here."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.bench.rehearsal import (
    PART_ASK,
    PART_MARK,
    Answer,
    Browser,
    Stats,
    _route,
    ledger,
    next_poll,
    process_tree,
    worker_time,
)
from tests.support.waiting import wait_until

Reply = tuple[int, dict[str, str], str]


class Server:
    """A scripted HTTP server: what each path answers, and every request it was sent."""

    def __init__(self, routes: dict[tuple[str, str], Callable[[dict[str, str]], Reply]]) -> None:
        self.routes = routes
        self.seen: list[tuple[str, str, dict[str, str]]] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        request_line, *lines = head.strip().split("\r\n")
        method, path, _version = request_line.split()
        headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}
        if int(headers.get("content-length", 0)):
            await reader.readexactly(int(headers["content-length"]))
        self.seen.append((method, path, headers))
        route = self.routes.get((method, path))
        status, sent, body = route(headers) if route else (404, {}, "gone")
        data = body.encode()
        lines = [f"HTTP/1.1 {status} X", f"Content-Length: {len(data)}", "Connection: close"]
        lines += [f"{key}: {value}" for key, value in sent.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        await writer.drain()
        writer.close()

    def paths(self, method: str = "GET") -> list[str]:
        return [path for verb, path, _headers in self.seen if verb == method]


def run(server: Server, play: Callable[[str], Any]) -> Any:
    async def main() -> Any:
        listening = await asyncio.start_server(server.handle, "127.0.0.1", 0)
        port = listening.sockets[0].getsockname()[1]
        async with listening:
            return await play(f"http://127.0.0.1:{port}")

    # In a thread of its own: a browser test earlier in the same process (Playwright's sync
    # API) may leave an event loop running in this one, where asyncio.run() refuses to start.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


HTML = {"Content-Type": "text/html; charset=utf-8"}
TABLE_PAGE = (
    '<link rel="stylesheet" href="/static/css/site.abc.css"><script src="/static/js/site.abc.js"'
    ' defer></script><input type="hidden" name="csrfmiddlewaretoken" value="tok">'
    '<div id="table-live" hx-get="/t/k/live/" hx-trigger="every 60s" hx-swap="innerHTML"'
    ' data-poll-tag="W/&quot;v1&quot;">Deal 1 saved</div>'
)


def page(text: str = TABLE_PAGE) -> Callable[[dict[str, str]], Reply]:
    return lambda _headers: (200, HTML, text)


def test_a_plain_forms_redirect_is_followed_to_the_page_and_its_files_fetched_once():
    server = Server(
        {
            ("POST", "/t/k/seat/"): lambda _h: (302, {"Location": "/t/k/"}, ""),
            ("POST", "/t/k/deals/1/"): lambda _h: (302, {"Location": "/t/k/"}, ""),
            ("GET", "/t/k/"): page(),
            ("GET", "/static/css/site.abc.css"): lambda _h: (200, {}, "css"),
            ("GET", "/static/js/site.abc.js"): lambda _h: (200, {}, "js"),
        }
    )

    async def play(base: str) -> str:
        phone = Browser(base, Stats(), time.monotonic() + 60)
        await phone.submit("seat", "/t/k/seat/", {"seat": 0}, time.monotonic())
        _answer, told = await phone.submit("save", "/t/k/deals/1/", {}, time.monotonic())
        phone.stop_polling()
        return told

    told = run(server, play)
    assert "Deal 1 saved" in told  # what the phone is shown: the page the redirect led to
    # Each answer's redirect is followed (the old rehearsal never loaded the page after a
    # seat claim); the page's files are fetched by the first load only, as a browser caches.
    assert server.paths() == [
        "/t/k/",
        "/static/css/site.abc.css",
        "/static/js/site.abc.js",
        "/t/k/",
    ]
    assert all(headers["accept-encoding"].startswith("gzip") for _m, _p, headers in server.seen)


def part_or_page(part: str) -> Callable[[dict[str, str]], Reply]:
    """The site as it answers the table page's script: the part when asked for it (PART_ASK),
    else a plain form's redirect."""

    def answer(headers: dict[str, str]) -> Reply:
        if all(headers.get(key.lower()) == value for key, value in PART_ASK.items()):
            return 200, {**HTML, PART_MARK: "entry"}, part
        return 302, {"Location": "/t/k/"}, ""

    return answer


PART = (
    '<div class="table-part"><p>Deal 1 saved</p><div id="table-live" hx-get="/t/k/live/"'
    ' hx-trigger="every 60s" hx-swap="innerHTML" data-poll-tag="W/&quot;v2&quot;"></div>'
    '<form method="post" action="/t/k/deals/2/" class="entry" data-queue="deal"></form></div>'
)


def test_an_answer_with_the_updated_part_is_taken_as_it_is_and_no_page_is_loaded():
    server = Server({("POST", "/t/k/deals/1/"): part_or_page(PART), ("GET", "/t/k/"): page()})

    async def play(base: str) -> tuple[str, str, int | None, bool]:
        phone = Browser(base, Stats(), time.monotonic() + 60)
        _answer, told = await phone.submit("save", "/t/k/deals/1/", {}, time.monotonic())
        polling = phone.polling is not None
        phone.stop_polling()
        return told, phone.tag, phone.form, polling

    told, tag, form, polling = run(server, play)
    # What the phone shows: the part, its next deal's form, its poll started with the tag.
    assert "Deal 1 saved" in told and form == 2 and polling and tag == 'W/"v2"'
    assert server.paths() == []  # no page loaded after it


def test_a_table_asked_for_again_is_a_part_where_the_site_answers_with_parts():
    server = Server({("GET", "/t/k/"): part_or_page(PART)})

    async def play(base: str) -> Stats:
        stats = Stats()
        phone = Browser(base, stats, time.monotonic() + 60)
        await phone.ask_again("/t/k/", time.monotonic())
        phone.stop_polling()
        return stats

    stats = run(server, play)
    assert server.paths() == ["/t/k/"] and dict(stats.statuses["table page"]) == {200: 1}


def test_a_table_asked_for_again_is_the_page_reloaded_where_the_site_answers_with_pages():
    server = Server(
        {
            ("GET", "/t/k/"): page(),
            ("GET", "/static/css/site.abc.css"): lambda _h: (200, {}, "css"),
            ("GET", "/static/js/site.abc.js"): lambda _h: (200, {}, "js"),
        }
    )

    async def play(base: str) -> None:
        phone = Browser(base, Stats(), time.monotonic() + 60)
        await phone.ask_again("/t/k/", time.monotonic())
        phone.stop_polling()

    run(server, play)
    # A page, loaded whole: its files come with it.
    assert server.paths() == ["/t/k/", "/static/css/site.abc.css", "/static/js/site.abc.js"]


def test_a_spectator_opens_the_page_then_polls_with_the_tag_the_page_says():
    public = (
        '<div id="live" hx-get="/e/live/" hx-trigger="every 0.01s" hx-swap="innerHTML"'
        ' data-poll-tag="W/&quot;p1&quot;">results</div>'
    )
    server = Server(
        {
            ("GET", "/e/"): page(public),
            ("GET", "/e/live/"): lambda _h: (304, {"ETag": 'W/"p1"'}, ""),
        }
    )

    async def play(base: str) -> Stats:
        stats = Stats()
        viewer = Browser(base, stats, time.monotonic() + 60)
        viewer.poll_kind = "public poll"
        await viewer.open("public page", "/e/", time.monotonic())
        # Let the page poll until two polls came back (a condition, bounded, not a fixed time).
        async with asyncio.timeout(30):
            while len(stats.times["public poll"]) < 2:
                await asyncio.sleep(0.01)
        viewer.stop_polling()
        return stats

    stats = run(server, play)
    assert server.paths()[0] == "/e/"  # the page first, as a browser opens it
    polls = [headers for _m, path, headers in server.seen if path == "/e/live/"]
    assert polls[0]["if-none-match"] == 'W/"p1"' and polls[0]["hx-request"] == "true"
    assert dict(stats.statuses["public poll"]) == {304: len(stats.times["public poll"])}


def test_the_next_poll_is_due_on_the_fixed_grid_and_goes_at_once_after_a_slow_answer():
    # Answered in time: the next goes 5 s after this one was due, not after its answer.
    assert next_poll(due=10.0, sent=10.0, answered=12.0, every=5.0) == (15.0, 15.0)
    # Answered after the next tick: that poll goes at once, timed from its tick.
    assert next_poll(due=10.0, sent=10.0, answered=17.5, every=5.0) == (17.5, 15.0)
    # That queued poll (due 15, sent 17.5) stood for the tick at 15 too: the grid goes on at 20.
    assert next_poll(due=15.0, sent=17.5, answered=18.0, every=5.0) == (20.0, 20.0)
    # Three ticks missed while one answer took 13 s: one poll, never two in flight.
    assert next_poll(due=10.0, sent=10.0, answered=23.0, every=5.0) == (23.0, 15.0)
    assert next_poll(due=15.0, sent=23.0, answered=23.5, every=5.0) == (25.0, 25.0)


def test_a_request_is_timed_from_when_it_was_due_not_from_when_it_went():
    stats = Stats()
    stats.record("table poll", time.monotonic() - 100.0, Answer(304, [], b""))
    assert stats.times["table poll"][0] >= 100.0
    stats.record("table poll", time.monotonic(), None)  # no answer: an error, not a time
    assert len(stats.times["table poll"]) == 1 and stats.errors["table poll"] == 1


def test_a_shed_poll_counts_by_the_answer_it_got():
    stats = Stats()
    stats.record("public poll", time.monotonic(), Answer(503, [("x-lappu-busy", "1")], b""))
    stats.record("public poll", time.monotonic(), Answer(304, [("x-lappu-busy", "1")], b""))
    assert dict(stats.shed["public poll"]) == {503: 1, 304: 1}
    assert stats.errors["public poll"] == 0  # an honest answer, not a fault


def test_the_processes_counted_are_those_it_started_and_their_children_only():
    parent = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys; subprocess.run(['sleep', '30'])"],
        start_new_session=True,
    )
    try:

        def with_its_child() -> list[int] | None:
            tree = process_tree(parent.pid)
            return tree if len(tree) == 2 else None

        tree = wait_until(with_its_child, timeout=10, what="the child to start")
        assert tree[0] == parent.pid
        assert os.getpid() not in tree and 1 not in tree  # nothing else on the machine
    finally:
        os.killpg(parent.pid, 15)
        parent.wait()


def test_the_workers_time_is_grouped_by_route_and_status():
    log = "\n".join(
        [
            "ACCESS GET /t/AbC-12_x/ 200 47000",
            "ACCESS GET /t/zz9/ 200 53000",
            "ACCESS GET /t/zz9/live/ 304 4000",
            "ACCESS POST /t/zz9/deals/3/confirm/ 302 60000",
            "[2026-12-06 09:00:00] [INFO] Booting worker with pid: 12",
            "ACCESS GET /static/css/site.abc.css 200 1000",
        ]
    )
    assert worker_time(log) == [
        ("GET /t/<key>/ 200", 2, pytest.approx(0.1)),
        ("POST /t/<key>/deals/<n>/confirm/ 302", 1, pytest.approx(0.06)),
        ("GET /t/<key>/live/ 304", 1, pytest.approx(0.004)),
        ("GET /static/… 200", 1, pytest.approx(0.001)),
    ]
    assert (
        _route("/clubs/national/events/7/screen/live/?x=1")
        == "/clubs/national/events/<n>/screen/live/"
    )


def test_deals_lost_or_held_twice_are_counted():
    stats = Stats()
    stats.saved = {("a", 1), ("a", 2), ("b", 1)}
    stats.confirmed = {("a", 1), ("b", 1)}
    held = [("a", 1, "confirmed"), ("a", 2, "saved"), ("b", 1, "saved"), ("c", 1, "saved")]
    # b's deal 1 was told confirmed but is not; c's landed with no phone told; none twice.
    assert ledger(stats, held) == {"lost": 1, "duplicated": 0, "untold": 1}
    assert ledger(stats, [*held, ("a", 2, "saved")])["duplicated"] == 1
