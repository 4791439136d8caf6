"""The national night's load rehearsal: a championship's first stage at many tables of four,
two phones a table entering and confirming deals, spectators following the public page and
the big screen, against the site as the Docker image runs it (DEBUG=0, gunicorn with two
processes, PostgreSQL, Redis, a Celery worker: tests/production/stack.py).

    .venv/bin/python tests/bench/rehearsal.py                     # the full night, both paces
    .venv/bin/python tests/bench/rehearsal.py --tables 40 --seconds 45 --paces 30

Needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL; the machine's own by default).

Every phone and spectator is a browser, doing what a browser and the page's own scripts do,
no less (the site is measured by what real phones cost it):
- a page is loaded as a browser loads it: redirects followed (a seat claim, save or
  confirmation sent by a plain form answers with one, and the phone GETs the table page),
  the static files it links fetched once per browser (then cached: hashed names), the table
  page's service worker registered on the first visit (its script, its files, the copy of
  the page it asks for) and its script asked again at every later visit (the browser's
  update check); answers gzipped where the site gzips them;
- when the site answers such a form 200 with the updated part of the page instead (marked
  PART_MARK: the page's script swaps it in), the phone takes that part and loads no page
  (PART_ASK and PART_MARK are the one switch between the two);
- the polled part polls as htmx's `every 5s` does (next_poll): due on a fixed grid from the
  page's load, whatever the answers; a tick during a slow answer goes as soon as that answer
  is in, never two in flight from one page, with the tag the page said (data-poll-tag) or
  the last answer's ETag; a new page starts a new grid;
- the scorer's form sends its live check as fields are filled (`--checks` a deal), and its
  page offers no form while a deal waits for confirmation, so once the poll shows it
  confirmed the player reloads the page (or, where the site answers with parts, the page's
  script asks for its part at once); the checker confirms a few seconds after its page shows
  the deal's Confirm button; the phones sit down over the first `--arrival` seconds, as the
  spectators open their pages;
- every request is timed from when it was due, not from when it was sent: nothing in the
  generator holds requests back (no semaphore, a connection each), and how late it sent
  them (and how late its event loop woke) is reported, so a generator that fell behind
  shows.

It prints, per pace: each kind of request's count, p50/p95/p99/max, its p95 against the bare
view's p95 in the same run, statuses; the deals completed per second and the deals the
phones were told were saved and confirmed against those the database holds (lost,
duplicated); the spectators' polls shed (busy) as a 304 or a 503; where the web workers'
time went (gunicorn's access log with each request's time, by route and status); and the
CPU of the processes this rehearsal started (gunicorn's master and workers, the Celery
worker), of the PostgreSQL backends serving its own database (the server is the machine's:
pg_stat_activity, sampled each second) and of the generator itself. The ceiling: a bare
Django view reading 1000 rows on the same server, 8 at a time (requests/s) and one per
worker (its p95, the yardstick of the ratios).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import html
import json
import math
import os
import random
import re
import sys
import tempfile
import threading
import time
from collections import defaultdict
from contextlib import ExitStack
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import psycopg

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.production.stack import Stack, build_stack  # noqa: E402

MARK = "REHEARSAL-EVENT "
DATABASE = "lappu_rehearsal"
REDIS_DB = 11


# -- the event, made inside the stack (manage.py shell) ---------------------------------------


def setup_event(tables: int) -> dict[str, Any]:
    """A published Rutupeli championship with `tables` tables of four seated, no PINs; its
    addresses for the phones and spectators. Run with the stack's settings."""
    import datetime

    from django.contrib.auth import get_user_model

    from tournaments.models import Club, EventFormat, Membership, Player, Role
    from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

    club = Club.objects.create(name="National Rutupeli", slug="national", language="en")
    director = get_user_model().objects.create_user("director", password="director")
    Membership.objects.create(club=club, user=director, role=Role.DIRECTOR)
    event = event_create(
        published=True,
        club=club,
        name="National championship",
        date=datetime.date.today(),
        variant_id="rutupeli",
        preferred_table_size=4,
        format=EventFormat.CHAMPIONSHIP,
        format_options={"top_k": 1, "lucky_losers": False},
    )
    players = Player.objects.bulk_create(
        Player(club=club, name=f"Player {index:04d}") for index in range(tables * 4)
    )
    for player in players:
        registration_add(event=event, player=player, checked_in=True)
    stage = stage_draw(event=event, seed=2026)
    stage_confirm(stage=stage)
    keys = list(stage.tables.order_by("number").values_list("entry_key", flat=True))
    return {"event": event.pk, "slug": club.slug, "tables": keys}


def finish_tables(event_id: int) -> int:
    """Every table of the event's stage in play played to its end (seven deals, each
    confirmed; seat 1 wins), stored at once: the stage is ready to close. Run with the
    stack's settings."""
    from rules import score_deal
    from scoring.models import Deal, DealStatus
    from tournaments.changes import results_change
    from tournaments.models import Table

    tables = list(Table.objects.filter(stage__event_id=event_id).select_related("stage__event"))
    hands = [
        {"cards": None, "points": None if seat == 0 else 5 * seat, "buys": 0} for seat in range(4)
    ]
    deals = []
    for table in tables:
        Deal.objects.filter(table=table).delete()
        variant = table.variant
        for number in range(1, variant.max_deals + 1):
            entry = {"out": 0, "players": hands}
            score = score_deal(variant, number, entry)
            deals.append(
                Deal(
                    table=table,
                    number=number,
                    contract=variant.contract(number).to_dict(),
                    entry=entry,
                    points=list(score.points),
                    flags=score.flags,
                    status=DealStatus.CONFIRMED,
                )
            )
    Deal.objects.bulk_create(deals)
    Table.objects.filter(stage__event_id=event_id).update(has_scores=True)
    results_change(event_id=event_id, reason="seating_changed")
    return len(deals)


def _load(tables: int, found: dict[str, Any]):
    def load(stack: Stack) -> None:
        code = (
            "import json; from tests.bench.rehearsal import setup_event, MARK; "
            f"print(MARK + json.dumps(setup_event({tables})))"
        )
        out = stack.manage("shell", "-c", code)
        line = next(line for line in out.splitlines() if line.startswith(MARK))
        found.update(json.loads(line[len(MARK) :]))

    return load


# -- the browsers -----------------------------------------------------------------------------

# The one switch between a page that loads itself whole and one that swaps in its parts: a
# seat claim, save or confirmation sent by the table page's own script (it says so with
# PART_ASK), and its asking for the table again once a held-back deal is confirmed, are
# answered 200 with the updated main part of the page, marked PART_MARK; the phone then
# shows that part (its poll restarting with the swapped-in element) and loads no page. Any
# other answer is a plain form's: a redirect the browser follows to the whole table page,
# and a page that a player reloads to get the next deal's form.
PART_ASK = {"X-Lappu-Part": "1"}
PART_MARK = "x-lappu-part"

# What every request of a browser says (a phone's, in English as the rehearsal's club).
BROWSER_HEADERS = {
    "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like "
    "Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
    "Accept-Language": "en-GB,en;q=0.9",
    "Accept-Encoding": "gzip, deflate, br",
}

# What a browser reads from a page to behave as that page's scripts do.
_POLLED = re.compile(
    r"<[^>]*\shx-get=\"([^\"]+)\"[^>]*\shx-trigger=\"every (\d+(?:\.\d+)?)s\"[^>]*>"
)
_POLL_TAG = re.compile(r'data-poll-tag="([^"]+)"')
_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_ASSETS = re.compile(
    r'<(?:script[^>]*\ssrc|link[^>]*\srel="(?:stylesheet|icon)"[^>]*\shref)="(/static/[^"]+)"'
)
_WORKER = re.compile(r'data-worker="([^"]+)"')
_WORKER_CONFIG = re.compile(r"const CONFIG = (\{.*?\});")
_ENTRY_FORM = re.compile(r'action="[^"]*/deals/(\d+)/" class="entry"')
_CONFIRMABLE = re.compile(r'action="[^"]*/deals/(\d+)/confirm/"')
_WAITING = re.compile(r'data-waiting="(\d+)"')
_CHECK = re.compile(r'hx-post="([^"]+)" hx-trigger="input changed')


@dataclass
class Stats:
    """Every request under its kind, timed from when it was due."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[int, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    shed: dict[str, dict[int, int]] = field(  # "busy, keep yours": as 304 or as 503
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    sent: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # bytes of the 200s
    lags: list[float] = field(default_factory=list)  # this generator late to send, seconds
    loop: list[float] = field(default_factory=list)  # its event loop late to wake, seconds
    saved: set[tuple[str, int]] = field(default_factory=set)  # (table, deal) told saved
    confirmed: set[tuple[str, int]] = field(default_factory=set)  # told confirmed
    refused: int = 0  # saves or confirmations the phone was not told had worked
    confirm_times: list[float] = field(default_factory=list)  # when, since the start
    # The requests due once every phone and spectator has arrived (time.monotonic(); 0: no
    # such split), apart: how the pace fares once the hall has sat down.
    arrived: float = 0.0
    after: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def record(self, kind: str, due: float, answer: Answer | None) -> None:
        """One request due at `due` (time.monotonic()) and answered now (None: no answer)."""
        if answer is None:
            self.errors[kind] += 1
            return
        self.times[kind].append(time.monotonic() - due)
        if self.arrived and due >= self.arrived:
            self.after[kind].append(self.times[kind][-1])
        self.statuses[kind][answer.status_code] += 1
        if answer.status_code == 200:
            self.sent[kind] += len(answer.body)
        if answer.header("x-lappu-busy"):
            self.shed[kind][answer.status_code] += 1  # an honest answer, not a fault
        elif answer.status_code >= 500:
            self.errors[kind] += 1


@dataclass
class Answer:
    status_code: int
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        return next((value for key, value in self.headers if key == name), None)

    @property
    def text(self) -> str:
        body, encoding = self.body, self.header("content-encoding")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "br":  # as browsers, it accepts Brotli (WhiteNoise's static files)
            import brotli  # type: ignore[import-untyped]  # a dependency of the site's own

            body = brotli.decompress(body)
        return body.decode("utf-8", errors="replace")


async def _fetch(
    host: str, port: int, method: str, path: str, headers: dict[str, str], body: bytes
) -> Answer:
    """One HTTP/1.1 request on a connection of its own, read to its end. Hand-written rather
    than a client library's: a generator this light leaves the machine's cores to the server
    (gunicorn's sync workers close every connection anyway, so a browser's keep-alive saves
    nothing here)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
        lines += [f"{key}: {value}" for key, value in headers.items()]
        if body:
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
            ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        raw = await reader.read(-1)
    finally:
        writer.close()
    return _answer_of(raw)


def _answer_of(raw: bytes) -> Answer:
    """The answer in `raw` (a status line, headers, the body)."""
    head, _, content = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = [line.split(":", 1) for line in header_lines if ":" in line]
    fields = [(key.strip().lower(), value.strip()) for key, value in found]
    return Answer(int(status_line.split()[1]), fields, content)


async def _at(moment: float) -> None:
    """Sleep until `moment` (time.monotonic())."""
    await asyncio.sleep(max(0.0, moment - time.monotonic()))


def next_poll(due: float, sent: float, answered: float, every: float) -> tuple[float, float]:
    """After a poll due at `due`, sent at `sent` and answered at `answered`: when the next one
    is sent, and the time it is due (from which its answer is timed).

    As htmx's `hx-trigger="every 5s"`: a timer fires every `every` seconds from the page's
    load whatever the answers, so the polls are due on that grid; a tick that comes while a
    poll is in flight is queued (one at most: htmx keeps the last) and goes as soon as the
    answer is in, timed from the first tick it stands for. One page never has two polls in
    flight, and a slow answer is followed at once, not `every` seconds later."""
    # The ticks that came before this poll could go (it was queued) went with it.
    following = due + (math.floor((sent - due) / every) + 1) * every
    return (following, following) if answered < following else (answered, following)


def _route(path: str) -> str:
    """A path with its table key and numbers taken out: what the access log groups by."""
    path = re.sub(r"^/t/[^/]+/", "/t/<key>/", path.split("?", 1)[0])
    path = re.sub(r"^/static/.*", "/static/…", path)
    return re.sub(r"/\d+(?=/)", "/<n>", path)


class Browser:
    """One phone or browser tab: its cookies (the site sets them Secure: kept by hand), its
    cache of the site's static files, its service worker, and the page it shows, with that
    page's poll running as the page's scripts run it (static/js/site.js, htmx)."""

    def __init__(self, base: str, stats: Stats, until: float, *, name: str = "") -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.stats, self.until, self.name = stats, until, name
        self.origin = f"https://{parts.netloc}"
        self.cookies: dict[str, str] = {}
        self.cached: set[str] = set()  # static files, hashed names cached for a year
        self.worker: str | None = None  # the service worker's script, once registered
        self.token = ""
        self.path = ""  # the page shown
        self.form: int | None = None  # the deal the page's entry form is for
        self.check = ""  # where the form's live check posts
        self.confirmable: dict[int, float] = {}  # deals shown with a Confirm button, since
        self.waiting: set[int] = set()  # deals shown waiting for confirmation
        self.shown = asyncio.Event()  # set whenever what the page shows changes
        self.poll_path, self.every, self.tag = "", 0.0, ""
        self.polling: asyncio.Task[None] | None = None
        self.parts = False  # whether the site answers this page's script with parts
        self.poll_kind = "poll"

    # -- one exchange

    async def exchange(
        self, kind: str, method: str, path: str, due: float, *,
        data: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
        meant: float | None = None,
    ) -> Answer | None:  # fmt: skip
        """One request, due at `due`, timed from then; sent at once (nothing here holds it
        back). `meant`: when it was meant to go out, to note how late this generator sent it
        (a request that follows another's answer, such as a redirect's, leaves it out)."""
        if meant is not None:
            self.stats.lags.append(max(0.0, time.monotonic() - meant))
        sent = {"X-Forwarded-Proto": "https", **BROWSER_HEADERS}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = b""
        if data is not None:
            sent.update(Origin=self.origin, Referer=self.origin + (self.path or path))
            body = urlencode({"csrfmiddlewaretoken": self.token, **data}).encode()
        sent.update(headers or {})
        try:
            answer: Answer | None = await asyncio.wait_for(
                _fetch(self.host, self.port, method, path, sent, body), timeout=120
            )
        except (TimeoutError, OSError, ValueError, IndexError):
            answer = None
        self.stats.record(kind, due, answer)
        if answer is not None:
            for key, line in answer.headers:
                if key == "set-cookie":
                    jar: SimpleCookie = SimpleCookie()
                    jar.load(line)
                    self.cookies.update((name, morsel.value) for name, morsel in jar.items())
        return answer

    # -- pages

    async def open(
        self, kind: str, path: str, due: float, *, method: str = "GET",
        data: dict[str, Any] | None = None,
    ) -> Answer | None:  # fmt: skip
        """A navigation: the request, the redirects followed (GET), the page loaded as a
        browser loads it. The page shown before polls on until the new one arrives."""
        answer = await self.exchange(kind, method, path, due, data=data, meant=due)
        while answer is not None and answer.status_code in (301, 302, 303, 307, 308):
            path = urlsplit(answer.header("location") or "/").path
            kind = _kind_of_page(path)
            answer = await self.exchange(kind, "GET", path, time.monotonic())
        self.stop_polling()
        if answer is not None and answer.status_code == 200:
            await self.load(path, answer.text)
        return answer

    async def load(self, path: str, text: str) -> None:
        """What a browser does with a page it was given: its static files (those not in its
        cache; its scripts run once they are in, and htmx starts the page's poll then), its
        service worker registered or its script checked for an update."""
        self.path = path
        self.take(text)
        await asyncio.gather(*(self.asset(each) for each in dict.fromkeys(_ASSETS.findall(text))))
        self.start_polling(text)
        worker = _WORKER.search(text)
        if worker:
            await self.service_worker(html.unescape(worker[1]), path)

    def start_polling(self, text: str) -> None:
        """htmx starts the poll of the polled element in `text` (a page loaded, a part
        swapped in): its own timer, from now."""
        polled = _POLLED.search(text)
        if polled:
            self.stop_polling()
            self.poll_path, self.every = html.unescape(polled[1]), float(polled[2])
            tag = _POLL_TAG.search(polled[0])
            # The page's script starts its poll from the tag the page says (site.js).
            self.tag = html.unescape(tag[1]) if tag else ""
            self.polling = asyncio.create_task(self._poll(time.monotonic()))

    def swap(self, answer: Answer) -> str:
        """A part the page's script swaps in (an answer marked PART_MARK)."""
        self.parts = True
        text = answer.text
        self.take(text)
        self.start_polling(text)
        return text

    async def ask_again(self, path: str, due: float) -> None:
        """The table asked for again, for the next deal's form: the page's script asks for its
        main part where the site answers with parts; else the player reloads the page."""
        kind = "table part" if self.parts else "table page"
        answer = await self.exchange(kind, "GET", path, due, headers=PART_ASK, meant=due)
        if answer is not None and answer.status_code == 200 and answer.header(PART_MARK):
            self.swap(answer)
            return
        self.stop_polling()
        if answer is not None and answer.status_code == 200:
            await self.load(path, answer.text)

    def take(self, text: str, *, part: bool = False) -> None:
        """What the page (or, `part`, its polled part) now shows."""
        token = _TOKEN.search(text)
        if token:
            self.token = token[1]
        if not part:
            form = _ENTRY_FORM.search(text)
            self.form = int(form[1]) if form else None
            check = _CHECK.search(text)
            self.check = html.unescape(check[1]) if check else ""
        now = time.monotonic()
        shown = {int(number) for number in _CONFIRMABLE.findall(text)}
        self.confirmable = {n: self.confirmable.get(n, now) for n in shown}
        self.waiting = {int(number) for number in _WAITING.findall(text)}
        self.shown.set()

    async def asset(self, path: str) -> None:
        if path not in self.cached:
            self.cached.add(path)
            await self.exchange("static file", "GET", path, time.monotonic())

    async def service_worker(self, script: str, page: str) -> None:
        """The table page's service worker (scoring/install.py): registered on the first
        visit (its script, the files it keeps, and the copy of the page it asks for), its
        script asked again at every later visit (the browser's update check)."""
        answer = await self.exchange("service worker", "GET", script, time.monotonic())
        if self.worker == script or answer is None or answer.status_code != 200:
            return
        self.worker = script
        found = _WORKER_CONFIG.search(answer.text)
        config = json.loads(found[1]) if found else {}
        assets = [config.get("queue", ""), *config.get("assets", [])]
        await asyncio.gather(*(self.asset(each) for each in assets if each))
        await self.exchange("table page", "GET", page, time.monotonic())  # the kept copy

    # -- the page's poll

    def stop_polling(self) -> None:
        """The page is left: its timer stops and a poll in flight is dropped."""
        if self.polling is not None and self.polling is not asyncio.current_task():
            self.polling.cancel()
        self.polling = None

    async def _poll(self, loaded: float) -> None:
        due = send = loaded + self.every
        while due < self.until:
            await _at(send)
            sent = time.monotonic()
            answer = await self.exchange(
                self.poll_kind, "GET", self.poll_path, due,
                headers={"HX-Request": "true", **({"If-None-Match": self.tag} if self.tag else {})},
                meant=send,
            )  # fmt: skip
            if answer is not None and answer.status_code == 404:
                return  # "this link no longer works" replaces the part: its poll stops
            if answer is not None and answer.status_code == 200:
                etag = answer.header("etag")
                self.tag = etag or ""
                self.take(answer.text, part=True)
            # A 304 or an unswapped answer (503 busy) keeps the part, and its tag.
            send, due = next_poll(due, sent, time.monotonic(), self.every)

    # -- forms

    async def submit(
        self, kind: str, path: str, data: dict[str, Any], due: float
    ) -> tuple[Answer | None, str]:
        """A form sent: the answer, and the text the phone is then shown (the page's part
        when the site answers with one, else the page the redirect leads to)."""
        answer = await self.exchange(
            kind, "POST", path, due, data=data, headers=PART_ASK, meant=due
        )
        if answer is not None and answer.status_code == 200 and answer.header(PART_MARK):
            return answer, self.swap(answer)  # swapped in by the page's script: no page loaded
        if answer is None:
            return None, ""
        # A plain form's answer is a navigation: the page is left once the next one comes.
        if answer.status_code not in (301, 302, 303):
            self.stop_polling()
            text = answer.text  # a refusal's page (422, 409) is shown as any page
            if "html" in (answer.header("content-type") or ""):
                await self.load(path, text)
            return answer, text
        # The browser follows the redirect and loads the page.
        target = urlsplit(answer.header("location") or "/").path
        page = await self.exchange(_kind_of_page(target), "GET", target, time.monotonic())
        self.stop_polling()
        if page is None or page.status_code != 200:
            return page, ""
        text = page.text
        await self.load(target, text)
        return page, text


def _kind_of_page(path: str) -> str:
    if path.startswith("/t/"):
        return "table page"
    if path.endswith("/manage/"):
        return "manage page"
    return "page"


# -- the people -------------------------------------------------------------------------------


async def _scorer(
    phone: Browser, key: str, args: argparse.Namespace, pace: float, stats: Stats, start: float
) -> None:
    """Seat 1's phone: enters each deal once the table has played it (the table plays at its
    pace: a deal every `pace` seconds, jittered, whatever the phones wait for), after its
    previous deal was confirmed (the page offers no form while one waits: the phone reloads
    it)."""
    page = f"/t/{key}/"
    played = time.monotonic() + random.uniform(0, pace)
    for number in range(1, 8):
        await _at(played)
        played += pace * random.uniform(0.7, 1.3)
        while phone.form != number:
            # The page shows no form while a deal waits for confirmation: once the poll shows
            # it confirmed, the page's script asks for the table's part (where the site
            # answers with parts), else the player reloads the page.
            while phone.waiting and time.monotonic() < phone.until:
                phone.shown.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(phone.shown.wait(), phone.until - time.monotonic())
            due = time.monotonic() + (0.0 if phone.parts else random.uniform(1, 3))
            await _at(due)
            if due >= phone.until:
                return
            await phone.ask_again(page, due)
            if phone.form != number and not phone.waiting:
                stats.refused += 1  # the page offers another deal's form: out of step
                return
        # Typing the deal: the form's live check answers each field as it is filled.
        for _field in range(args.checks):
            await _at(time.monotonic() + random.uniform(1, 3))
            typed = {"number": number, "expected_version": 0, "out": 0, "p1_points": 10}
            if phone.check and time.monotonic() < phone.until:
                due = time.monotonic()
                await phone.exchange(
                    "live check", "POST", phone.check, due, data=typed,
                    headers={"HX-Request": "true"}, meant=due,
                )  # fmt: skip
        entry: dict[str, Any] = {"number": number, "request_id": f"{key}-{number}",
                                 "expected_version": 0, "out": 0, "p1_points": 10,
                                 "p2_points": 25, "p3_points": 40}  # fmt: skip
        due = time.monotonic() + random.uniform(1, 3)
        await _at(due)
        if due >= phone.until:
            return
        _answer, told = await phone.submit("save", f"{page}deals/{number}/", entry, due)
        if f"Deal {number} saved" not in told:
            stats.refused += 1
            return
        stats.saved.add((key, number))


async def _checker(phone: Browser, key: str, stats: Stats, start: float) -> None:
    """Seat 2's phone: confirms each deal a few seconds after its page shows it."""
    page = f"/t/{key}/"
    for number in range(1, 8):
        while number not in phone.confirmable:
            phone.shown.clear()
            try:
                await asyncio.wait_for(phone.shown.wait(), phone.until - time.monotonic())
            except TimeoutError:
                return
        due = phone.confirmable[number] + random.uniform(2, 5)  # reading what was entered
        await _at(due)
        if due >= phone.until:
            return
        data = {"expected_version": 1, "request_id": f"{key}-{number}-c"}
        _answer, told = await phone.submit("confirm", f"{page}deals/{number}/confirm/", data, due)
        if f"Deal {number} confirmed" not in told:
            stats.refused += 1
            return
        stats.confirmed.add((key, number))
        stats.confirm_times.append(time.monotonic() - start)


async def _sit(phone: Browser, key: str, seat: int, due: float) -> None:
    """A phone opens the table's link (the seat list) and taps its seat."""
    await _at(due)
    await phone.open("table page", f"/t/{key}/", due)
    due = time.monotonic() + random.uniform(1, 3)
    await _at(due)
    await phone.submit("seat", f"/t/{key}/seat/", {"seat": seat}, due)


async def _table(
    base: str, key: str, args: argparse.Namespace, pace: float, stats: Stats, until: float,
    start: float,
) -> None:  # fmt: skip
    """A table's two phones: they sit down over the arrival, poll as their pages do, and the
    table's deals are entered and confirmed until the time is up or the game is over."""
    scorer = Browser(base, stats, until, name=f"{key}/1")
    checker = Browser(base, stats, until, name=f"{key}/2")
    for phone in (scorer, checker):
        phone.poll_kind = "table poll"
    await asyncio.gather(
        _sit(scorer, key, 0, start + random.uniform(0, args.arrival)),
        _sit(checker, key, 1, start + random.uniform(0, args.arrival)),
    )
    await asyncio.gather(
        _scorer(scorer, key, args, pace, stats, start), _checker(checker, key, stats, start)
    )
    for phone in (scorer, checker):
        if phone.polling is not None:
            await phone.polling


async def _spectator(base: str, page: str, stats: Stats, until: float, due: float) -> None:
    """A spectator opens the public page (or the big screen), then leaves it polling."""
    viewer = Browser(base, stats, until)
    viewer.poll_kind = "screen poll" if page.endswith("/screen/") else "public poll"
    await _at(due)
    await viewer.open("screen page" if page.endswith("/screen/") else "public page", page, due)
    if viewer.polling is not None:
        await viewer.polling


def _spectators(base: str, event: dict[str, Any], args: argparse.Namespace, stats: Stats,
                until: float, start: float, arrival: float) -> list[Any]:  # fmt: skip
    public = f"/clubs/{event['slug']}/events/{event['event']}/"
    return [
        _spectator(
            base,
            f"{public}screen/" if index % 5 == 4 else public,
            stats,
            until,
            start + random.uniform(0, arrival),
        )
        for index in range(args.spectators)
    ]


async def _night(base: str, event: dict[str, Any], args: argparse.Namespace, pace: float) -> Stats:
    start = time.monotonic()
    stats = Stats(arrived=start + args.arrival)
    until = start + args.seconds
    watch = asyncio.create_task(_loop_lag(stats, until))
    tasks = [_table(base, key, args, pace, stats, until, start) for key in event["tables"]]
    tasks += _spectators(base, event, args, stats, until, start, args.arrival)
    await asyncio.gather(*tasks)
    await watch
    return stats


async def _loop_lag(stats: Stats, until: float) -> None:
    """How late this generator's own event loop wakes (a tick asked for every 0.1 s)."""
    while time.monotonic() < until:
        due = time.monotonic() + 0.1
        await asyncio.sleep(0.1)
        stats.loop.append(max(0.0, time.monotonic() - due))


async def _ceiling(base: str, seconds: float, at_once: int) -> tuple[float, list[float]]:
    """Requests per second of the bare view reading 1000 rows with `at_once` requests in
    flight, and their times."""
    stats = Stats()
    client = Browser(base, stats, 0.0)

    async def hammer(until: float) -> None:
        while time.monotonic() < until:
            await client.exchange("bare", "GET", "/bench/bare/rows/", time.monotonic())

    # Each worker's first requests (its imports, the template) are not the ceiling's.
    await asyncio.gather(*(hammer(time.monotonic() + 1.0) for _ in range(at_once)))
    client.stats = stats = Stats()
    until = time.monotonic() + seconds
    await asyncio.gather(*(hammer(until) for _ in range(at_once)))
    times = stats.times["bare"]
    return len(times) / seconds, times


async def _close_under_load(
    base: str, event: dict[str, Any], args: argparse.Namespace
) -> tuple[Stats, float]:
    """Every phone and spectator polling while the director closes the finished stage (and
    so draws the next) a third of the way in: the polls' figures, and how long the close
    took. The phones have sat down before the clock starts, as a hall's have hours before
    a close (their pages, seats and files are not what is measured); their pages poll on."""
    warm_up = Stats()
    until = time.monotonic() + 3600
    public = f"/clubs/{event['slug']}/events/{event['event']}/"
    phones = [Browser(base, warm_up, until) for _ in event["tables"] for _seat in range(2)]
    keys = [key for key in event["tables"] for _seat in range(2)]
    for phone in phones:
        phone.poll_kind = "table poll"
    viewers = [Browser(base, warm_up, until) for _ in range(args.spectators)]
    pages = [f"{public}screen/" if index % 5 == 4 else public for index in range(len(viewers))]
    for viewer, page in zip(viewers, pages, strict=True):
        viewer.poll_kind = "screen poll" if page.endswith("/screen/") else "public poll"
    # They arrive over `--arrival` seconds, as for a pace, before the clock starts.
    begin = time.monotonic()

    async def look(viewer: Browser, page: str, due: float) -> None:
        await _at(due)
        await viewer.open("page", page, due)

    await asyncio.gather(
        *(
            _sit(phone, key, index % 2, begin + random.uniform(0, args.arrival))
            for index, (phone, key) in enumerate(zip(phones, keys, strict=True))
        ),
        *(
            look(viewer, page, begin + random.uniform(0, args.arrival))
            for viewer, page in zip(viewers, pages, strict=True)
        ),
    )
    stats = Stats()
    start = time.monotonic()
    close_until = start + args.close_seconds
    for browser in phones + viewers:
        browser.stats, browser.until = stats, close_until

    async def director() -> float:
        desk = Browser(base, warm_up, close_until)
        await desk.open("page", "/accounts/login/", time.monotonic())
        login = {"username": "director", "password": "director"}
        await desk.open("page", "/accounts/login/", time.monotonic(), method="POST", data=login)
        await desk.open("manage page", f"{public}manage/", time.monotonic())
        desk.stats = stats
        due = start + args.close_seconds / 3
        await _at(due)
        answer = await desk.exchange("close", "POST", f"{public}championship/close/", due,
                                     data={"stage": 1})  # fmt: skip
        took = time.monotonic() - due
        if answer is not None and answer.status_code in (302, 303):
            await desk.open(
                "manage page", urlsplit(answer.header("location") or "/").path, time.monotonic()
            )
        return took

    polls = [browser.polling for browser in phones + viewers if browser.polling is not None]
    took, *_rest = await asyncio.gather(director(), *polls)
    return stats, float(took or 0.0)


# -- what the stack used ----------------------------------------------------------------------


def _ticks(pid: int) -> float:
    """CPU seconds so far of process `pid` with its waited-for children (0: gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime, stime, cutime, cstime
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(child) for child in task.read_text().split()]
        except OSError:
            continue
    return found


def process_tree(pid: int) -> list[int]:
    """`pid` and every process under it."""
    tree, todo = [], [pid]
    while todo:
        each = todo.pop()
        tree.append(each)
        todo += _children(each)
    return tree


def tree_cpu(pid: int) -> float:
    """CPU seconds so far of the processes a started process (`pid`) is the root of: a
    child that ended counts in its parent's waited-for children's time."""
    return sum(_ticks(each) for each in process_tree(pid))


class Meter:
    """The CPU of the processes the rehearsal started (gunicorn's master and workers, the
    Celery worker and its pool), of the PostgreSQL backends serving its own database (the
    server is the machine's, shared: its other databases' backends are not counted), and of
    this generator. Backends are found in pg_stat_activity every `every` seconds and their
    CPU read from /proc; one that ends between two looks loses its last second."""

    def __init__(self, started: dict[str, int], database_url: str, every: float = 1.0) -> None:
        self.started = started
        self.database = urlsplit(database_url).path.lstrip("/")
        self.maintenance = urlsplit(database_url)._replace(path="/postgres").geturl()
        self.every = every
        self.backends: dict[int, tuple[float, float]] = {}  # pid: (first seen, last seen)
        self.done = threading.Event()
        self.conn: psycopg.Connection[Any] | None = None
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Meter:
        self.before = {name: tree_cpu(pid) for name, pid in self.started.items()}
        self.own = os.times()
        self.wall = time.monotonic()
        self._look(first=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()
        self._look()
        if self.conn is not None:
            self.conn.close()
        self.wall = time.monotonic() - self.wall
        after = {name: tree_cpu(pid) for name, pid in self.started.items()}
        self.used = {name: after[name] - self.before[name] for name in self.started}
        self.used["PostgreSQL (its database)"] = sum(
            last - first for first, last in self.backends.values()
        )
        mine = os.times()
        self.used["generator"] = (mine.user - self.own.user) + (mine.system - self.own.system)

    def _watch(self) -> None:
        while not self.done.wait(self.every):
            self._look()

    def _look(self, *, first: bool = False) -> None:
        try:
            if self.conn is None:
                self.conn = psycopg.connect(self.maintenance, autocommit=True)
            pids = [
                int(row[0])
                for row in self.conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database]
                )
            ]
        except psycopg.Error:
            return
        for pid in pids:
            now = _ticks(pid)
            if now:
                begun = self.backends.get(pid, (now if first else 0.0, now))[0]
                self.backends[pid] = (begun, now)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def _deals_in(database_url: str, event_id: int) -> list[tuple[str, int, str]]:
    """The event's deals in the database: (table key, number, status)."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT t.entry_key, d.number, d.status FROM scoring_deal d"
            " JOIN tournaments_table t ON t.id = d.table_id"
            " JOIN tournaments_stage s ON s.id = t.stage_id WHERE s.event_id = %s",
            [event_id],
        ).fetchall()
    return [(str(key), int(number), str(status)) for key, number, status in rows]


def ledger(stats: Stats, held: list[tuple[str, int, str]]) -> dict[str, int]:
    """The deals the phones were told about against those the database holds: lost (told
    saved or confirmed, not so in the database), duplicated (a deal held twice), untold
    (held, but its phone never heard it landed)."""
    pairs = [(key, number) for key, number, _status in held]
    confirmed = {(key, number) for key, number, status in held if status == "confirmed"}
    return {
        "lost": len(stats.saved - set(pairs)) + len(stats.confirmed - confirmed),
        "duplicated": len(pairs) - len(set(pairs)),
        "untold": len(set(pairs) - stats.saved),
    }


def worker_time(log: str, *, marker: str = "ACCESS ") -> list[tuple[str, int, float]]:
    """Where the web workers' time went, from gunicorn's access log lines
    `ACCESS <method> <path> <status> <microseconds>`: (method route status, requests,
    seconds), most time first."""
    spent: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for line in log.splitlines():
        if not line.startswith(marker):
            continue
        try:
            method, path, status, micros = line[len(marker) :].split()
            seconds = int(micros) / 1e6
        except ValueError:
            continue
        group = spent[f"{method} {_route(path)} {status}"]
        group[0] += 1
        group[1] += seconds
    return sorted(((key, int(n), s) for key, (n, s) in spent.items()), key=lambda row: -row[2])


ACCESS_FORMAT = "ACCESS %(m)s %(U)s %(s)s %(D)s"


def report(pace: float, stats: Stats, args: argparse.Namespace, meter: Meter,
           held: list[tuple[str, int, str]], bare_p95: float, log: str) -> list[str]:  # fmt: skip
    offered = len(args.tables_run) / pace
    count = ledger(stats, held)
    lines = [
        f"pace: a deal per table every {pace:.0f} s ({offered:.2f} deals/s offered), "
        f"{len(args.tables_run)} tables, {args.spectators} spectators, {args.seconds:.0f} s",
        *_kinds(stats, bare_p95),
        _after_line(stats, args.arrival),
        f"  deals completed: {len(stats.confirmed) / args.seconds:.2f}/s; told saved "
        f"{len(stats.saved)}, confirmed {len(stats.confirmed)} (not told so: {stats.refused});"
        f" the database holds {len(held)}, {sum(s == 'confirmed' for *_k, s in held)} confirmed;"
        f" lost {count['lost']}, duplicated {count['duplicated']}, landed untold {count['untold']}",
        _shed_line(stats),
        f"  generator late to send: p95 {_percentile(stats.lags, 0.95) * 1000:.0f} ms, max "
        f"{max(stats.lags, default=0) * 1000:.0f} ms; its loop late to wake: p95 "
        f"{_percentile(stats.loop, 0.95) * 1000:.0f} ms (tens of ms: it kept up; more: its "
        "figures include its own delay)",
    ]
    split = ", ".join(f"{name} {seconds / meter.wall:.2f}" for name, seconds in meter.used.items())
    lines.append(f"  CPU (cores): {split} (Redis: the machine's, shared, not counted)")
    lines += _where(log)
    return lines


def _after_line(stats: Stats, arrival: float) -> str:
    """Each kind's p95/p99 among the requests due after the arrival: what the pace costs
    once the hall has sat down (the arrival's burst is in the table above)."""
    kinds = sorted(stats.after, key=lambda kind: -_percentile(stats.after[kind], 0.95))
    figures = ", ".join(
        f"{kind} {_percentile(stats.after[kind], 0.95):.2f}/{_percentile(stats.after[kind], 0.99):.2f}"
        for kind in kinds
    )
    return f"  after the arrival (due from {arrival:.0f} s on), p95/p99 s: {figures or 'none'}"


def _shed_line(stats: Stats) -> str:
    shed = {kind: dict(codes) for kind, codes in stats.shed.items() if codes}
    if not shed:
        return "  shed: none"
    return "  shed (busy): " + "; ".join(
        f"{kind} {' '.join(f'{n} as {code}' for code, n in sorted(codes.items()))}"
        for kind, codes in sorted(shed.items())
    )


def _where(log: str, rows: int = 12) -> list[str]:
    spent = worker_time(log)
    total = sum(seconds for _key, _n, seconds in spent) or 1.0
    lines = [f"  where the workers' time went (access log, {total:.1f} worker-s):"]
    for key, count, seconds in spent[:rows]:
        lines.append(
            f"    {seconds / total:>5.1%}  {count:>6} × {seconds / count * 1000:>6.1f} ms  {key}"
        )
    return lines


def _kinds(stats: Stats, bare_p95: float = float("nan")) -> list[str]:
    """Each kind of request: how many, p50/p95/p99/max (from when it was due), its p95
    against the bare view's, the statuses, the errors."""
    lines = [
        f"  {'request':<14} {'count':>6} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8} "
        f"{'÷bare':>6} {'KB/200':>7}  statuses"
    ]
    for kind in sorted(stats.times):
        times = stats.times[kind]
        codes = " ".join(f"{code}×{n}" for code, n in sorted(stats.statuses[kind].items()))
        p95 = _percentile(times, 0.95)
        size = stats.sent[kind] / 1024 / max(1, stats.statuses[kind].get(200, 0))
        lines.append(
            f"  {kind:<14} {len(times):>6} {_percentile(times, 0.5):>7.3f}s {p95:>7.3f}s "
            f"{_percentile(times, 0.99):>7.3f}s {max(times):>7.3f}s {p95 / bare_p95:>5.1f}× "
            f"{size:>7.1f}  {codes}"
            + (f"  errors {stats.errors[kind]}" if stats.errors[kind] else "")
        )
    return lines


WORKERS = 2  # gunicorn's processes by default: one per core of the machine measured on


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=240.0, help="each pace's run")
    parser.add_argument(
        "--paces", type=float, nargs="*", default=[180.0, 30.0], help="none: the close alone"
    )
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument(
        "--checks", type=int, default=4, help="live checks a deal's entry sends (fields typed)"
    )
    parser.add_argument(
        "--arrival", type=float, default=60.0, help="the phones and spectators arrive over"
    )
    parser.add_argument(
        "--close-seconds", type=float, default=60.0, help="polling around the stage close (0: none)"
    )
    parser.add_argument("--ceiling-seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=WORKERS, help="gunicorn's processes")
    parser.add_argument(
        "--threads", type=int, default=0, help="threads of each (gthread) worker; 0: sync workers"
    )
    parser.add_argument(
        "--database", default=DATABASE, help="the database it makes (and drops) for itself"
    )
    parser.add_argument(
        "--redis-db", type=int, default=REDIS_DB, help="the Redis database it flushes"
    )
    return parser.parse_args(argv)


def rehearse(args: argparse.Namespace) -> tuple[list[str], dict[float, Stats]]:
    """Build the stack, measure the ceiling, play each pace; the report's lines, and each
    pace's figures."""
    server = os.environ.get("DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/postgres"
    redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    lines: list[str] = []
    figures: dict[float, Stats] = {}
    with ExitStack() as stack_of, tempfile.TemporaryDirectory() as home:
        event: dict[str, Any] = {}
        built = build_stack(
            Path(home),
            server_url=server,
            redis_url=redis_url,
            load=_load(args.tables, event),
            workers=args.workers,
            threads=args.threads or None,
            settings_module="tests.bench.rehearsal_settings",
            database=args.database,
            redis_db=args.redis_db,
            access_log_format=ACCESS_FORMAT,
        )
        stack = stack_of.enter_context(built)
        started = {"web": stack.pids["gunicorn"], "worker": stack.pids["worker"]}
        rate, _times = asyncio.run(_ceiling(stack.base, args.ceiling_seconds, 8))
        _rate, bare = asyncio.run(_ceiling(stack.base, args.ceiling_seconds, args.workers))
        bare_p95 = _percentile(bare, 0.95)
        lines.append(
            f"gunicorn: {args.workers} "
            + (f"threaded workers of {args.threads} threads" if args.threads else "sync workers")
        )
        lines.append(
            f"ceiling: a bare view reading 1000 rows: {rate:.1f} requests/s 8 at a time; one "
            f"per worker: p50 {_percentile(bare, 0.5) * 1000:.0f} ms, p95 {bare_p95 * 1000:.0f} ms"
        )
        args.tables_run = event["tables"]
        for pace in args.paces:
            offset = len(stack.log("gunicorn"))
            with Meter(started, stack.env["DATABASE_URL"]) as meter:
                stats = figures[pace] = asyncio.run(_night(stack.base, event, args, pace))
            held = _deals_in(stack.env["DATABASE_URL"], event["event"])
            log = stack.log("gunicorn")[offset:]
            lines.extend(report(pace, stats, args, meter, held, bare_p95, log))
            stack.manage("shell", "-c", _RESET.format(event=event["event"]))
        if args.close_seconds:
            finish = "from tests.bench.rehearsal import finish_tables; finish_tables({})"
            stack.manage("shell", "-c", finish.format(event["event"]))
            stats, took = asyncio.run(_close_under_load(stack.base, event, args))
            lines.append(
                f"stage close under load: {len(args.tables_run)} tables closed and the next "
                f"stage drawn in {took:.2f} s (the director's request, from when it was due), "
                f"while every phone and spectator polled for {args.close_seconds:.0f} s"
            )
            lines.extend(_kinds(stats, bare_p95))
            lines.append(_shed_line(stats))
    return lines, figures


def main(argv: list[str] | None = None) -> int:
    lines, _figures = rehearse(parse(argv))
    print("\n".join(lines))
    return 0


# Between paces: the event's deals and seat claims go, so the next pace starts at deal 1
# again with phones that take their seats anew.
_RESET = (
    "from scoring.models import Deal, DealVersion, SeatClaim; "
    "from tournaments.models import Table; "
    "SeatClaim.objects.filter(table__stage__event_id={event}).delete(); "
    "DealVersion.objects.filter(deal__table__stage__event_id={event}).delete(); "
    "Deal.objects.filter(table__stage__event_id={event}).delete(); "
    "Table.objects.filter(stage__event_id={event}).update(has_scores=False)"
)


if __name__ == "__main__":
    sys.exit(main())
