"""The national night's load rehearsal: a championship's first stage at many tables of four,
two phones a table entering and confirming deals and polling, spectators polling the public
page and the big screen, against the site as the Docker image runs it (DEBUG=0, gunicorn
with two processes, PostgreSQL, Redis, a Celery worker: tests/production/stack.py).

    .venv/bin/python tests/bench/rehearsal.py                     # the full night, both paces
    .venv/bin/python tests/bench/rehearsal.py --tables 40 --seconds 45 --paces 30

Needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL; the machine's own by default). Prints,
per pace, each kind of request's count, p50/p95/p99 and errors, the deals completed per
second, the deals the database holds against those the phones were told were saved and
confirmed, and the CPU each part of the stack used (web, PostgreSQL, Redis, worker, this
generator), beside the ceiling: a bare Django view reading 1000 rows on the same server.

A phone is a scorer (seat 1 enters its table's deals, and is sent to the table's page) or a
checker (seat 2 confirms each once its poll has shown it, and is sent to the page); both
poll their table's live part every `--phone-poll` seconds with the ETag they hold, as the
page does. The phones sit down over the first `--arrival` seconds. A spectator polls the event's live part (one in five the big screen's) every
`--spectator-poll` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import html
import json
import os
import random
import re
import statistics
import sys
import tempfile
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


# -- the clients ------------------------------------------------------------------------------


@dataclass
class Stats:
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[int, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    shed: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # "busy": keep yours
    sent: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # bytes of the 200s
    saved: int = 0  # deals a scorer was told were saved
    confirmed: int = 0  # deals a checker was told were confirmed
    refused: int = 0  # saves or confirmations the phone was not told had worked
    confirm_times: list[float] = field(default_factory=list)  # when, since the start


@dataclass
class Answer:
    status_code: int
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        return next((value for key, value in self.headers if key == name), None)

    @property
    def text(self) -> str:
        body = self.body
        if self.header("content-encoding") == "gzip":
            body = gzip.decompress(body)
        return body.decode("utf-8", errors="replace")


async def _fetch(
    host: str, port: int, method: str, path: str, headers: dict[str, str], body: bytes
) -> Answer:
    """One HTTP/1.1 request on a connection of its own, read to its end. Hand-written rather
    than a client library's: a generator this light leaves the machine's cores to the server
    (gunicorn's sync workers close every connection anyway)."""
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


class Client:
    """One phone or browser: its own cookies (set by the site as Secure: kept by hand), the
    ETags it holds, every request timed under its kind."""

    def __init__(self, base: str, stats: Stats, gate: asyncio.Semaphore) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.stats, self.gate = stats, gate
        self.origin = f"https://{parts.netloc}"
        self.cookies: dict[str, str] = {}
        self.etags: dict[str, str] = {}
        self.token = ""

    async def call(
        self, kind: str, path: str, *, data: dict[str, Any] | None = None, poll: bool = False
    ) -> Answer | None:
        headers = {"X-Forwarded-Proto": "https", "Accept-Encoding": "gzip"}  # as browsers
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if poll:
            headers["HX-Request"] = "true"
            if path in self.etags:
                headers["If-None-Match"] = self.etags[path]
        body = b""
        if data is not None:
            headers.update(Origin=self.origin, Referer=self.origin + path)
            body = urlencode({"csrfmiddlewaretoken": self.token, **data}).encode()
        async with self.gate:  # as many open at once as a hall's phones would keep open
            started = time.perf_counter()
            try:
                answer = await asyncio.wait_for(
                    _fetch(self.host, self.port, "POST" if body else "GET", path, headers, body),
                    timeout=120,
                )
            except (TimeoutError, OSError, ValueError, IndexError):
                self.stats.errors[kind] += 1
                return None
            self.stats.times[kind].append(time.perf_counter() - started)
        self.stats.statuses[kind][answer.status_code] += 1
        if answer.status_code == 200:
            self.stats.sent[kind] += len(answer.body)
        if answer.header("x-lappu-busy"):
            self.stats.shed[kind] += 1  # the server was saturated: an honest answer, not a fault
        elif answer.status_code >= 500:
            self.stats.errors[kind] += 1
        for key, line in answer.headers:
            if key == "set-cookie":
                jar: SimpleCookie = SimpleCookie()
                jar.load(line)
                for name, morsel in jar.items():
                    self.cookies[name] = morsel.value
        etag = answer.header("etag")
        if poll and etag:
            self.etags[path] = etag
        text = answer.text if answer.status_code == 200 and not poll else ""
        if "csrfmiddlewaretoken" in text:
            found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text)
            if found:
                self.token = found[1]
        if "data-poll-tag" in text:
            # The page's script starts its poll from the tag the page says (static/js/site.js).
            part = re.search(r'hx-get="([^"]+)"[^>]* data-poll-tag="([^"]+)"', text)
            if part:
                self.etags[part[1]] = html.unescape(part[2])
        return answer


async def _nap(seconds: float, until: float) -> None:
    """Sleep `seconds`, or until the run is over if that comes first."""
    await asyncio.sleep(max(0.0, min(seconds, until - time.monotonic())))


async def _poll(client: Client, kind: str, path: str, every: float, until: float) -> None:
    await _nap(random.uniform(0, every), until)
    while time.monotonic() < until:
        answer = await client.call(kind, path, poll=True)
        if answer is not None and answer.status_code == 404:
            return  # "this link no longer works" replaces the page's polled part: it stops
        await _nap(every, until)


async def _table(
    gate: asyncio.Semaphore, base: str, key: str, args: argparse.Namespace, pace: float,
    stats: Stats, until: float, start: float,
) -> None:  # fmt: skip
    """A table's two phones: seated, polling, and a deal entered and confirmed every `pace`
    seconds (jittered) until the time is up or the game (seven deals) is over."""
    page = f"/t/{key}/"
    scorer, checker = Client(base, stats, gate), Client(base, stats, gate)
    # The phones arrive over the first minute or so, as players sit down.
    await asyncio.sleep(random.uniform(0, args.arrival))
    for seat, phone in enumerate((scorer, checker)):
        await phone.call("table page", page)
        await phone.call("seat", f"{page}seat/", data={"seat": seat})
    polls = [
        asyncio.create_task(_poll(phone, "table poll", f"{page}live/", args.phone_poll, until))
        for phone in (scorer, checker)
    ]
    await _nap(random.uniform(0, pace), until)
    for number in range(1, 8):
        if time.monotonic() >= until:
            break
        entry = {"number": number, "request_id": f"{key}-{number}", "expected_version": 0,
                 "out": 0, "p1_points": 10, "p2_points": 25, "p3_points": 40}  # fmt: skip
        saved = await scorer.call("save", f"{page}deals/{number}/", data=entry)
        # What the phone is told: the page it is sent to says the deal was saved.
        told = await scorer.call("table page", page) if saved is not None else None
        if told is None or f"Deal {number} saved" not in told.text:
            stats.refused += 1
            break
        stats.saved += 1
        # The checker's poll shows the deal with its Confirm button (within a poll's time).
        await _nap(random.uniform(1, args.phone_poll), until + args.phone_poll)
        confirm = {"expected_version": 1, "request_id": f"{key}-{number}-c"}
        done = await checker.call("confirm", f"{page}deals/{number}/confirm/", data=confirm)
        told = await checker.call("table page", page) if done is not None else None
        if told is None or f"Deal {number} confirmed" not in told.text:
            stats.refused += 1
            break
        stats.confirmed += 1
        stats.confirm_times.append(time.monotonic() - start)
        await _nap(pace * random.uniform(0.7, 1.3), until)
    for task in polls:
        await task


async def _night(base: str, event: dict[str, Any], args: argparse.Namespace, pace: float) -> Stats:
    stats = Stats()
    gate = asyncio.Semaphore(400)
    start = time.monotonic()
    until = start + args.seconds
    public = f"/clubs/{event['slug']}/events/{event['event']}/"
    tasks = [_table(gate, base, key, args, pace, stats, until, start) for key in event["tables"]]
    for index in range(args.spectators):
        viewer = Client(base, stats, gate)
        path, kind = (
            (f"{public}screen/live/", "screen poll")
            if index % 5 == 4
            else (f"{public}live/", "public poll")
        )
        tasks.append(_poll(viewer, kind, path, args.spectator_poll, until))
    await asyncio.gather(*tasks)
    return stats


async def _ceiling(base: str, seconds: float, concurrency: int = 8) -> tuple[float, float]:
    """Requests per second, and the median, of the bare view reading 1000 rows."""
    stats = Stats()
    client = Client(base, stats, asyncio.Semaphore(concurrency))
    until = time.monotonic() + seconds

    async def hammer() -> None:
        while time.monotonic() < until:
            await client.call("bare", "/bench/bare/rows/")

    await asyncio.gather(*(hammer() for _ in range(concurrency)))
    times = stats.times["bare"]
    return len(times) / seconds, statistics.median(times) if times else float("nan")


async def _close_under_load(
    base: str, event: dict[str, Any], args: argparse.Namespace
) -> tuple[Stats, float]:
    """Every phone and spectator polling while the director closes the finished stage (and
    so draws the next) a third of the way in: the polls' figures, and how long the close
    took. The phones have sat down and polled once before the clock starts, as a hall's
    have hours before a close (their seats, cookies and ETags are not what is measured)."""
    stats, warm_up = Stats(), Stats()
    gate = asyncio.Semaphore(400)
    public = f"/clubs/{event['slug']}/events/{event['event']}/"
    polls: list[tuple[Client, str, str]] = []

    async def sit(key: str, seat: int) -> None:
        phone = Client(base, warm_up, gate)
        await phone.call("table page", f"/t/{key}/")
        await phone.call("seat", f"/t/{key}/seat/", data={"seat": seat})
        await phone.call("table poll", f"/t/{key}/live/", poll=True)
        phone.stats = stats
        polls.append((phone, "table poll", f"/t/{key}/live/"))

    async def look(index: int) -> None:
        viewer = Client(base, warm_up, gate)
        path = f"{public}screen/live/" if index % 5 == 4 else f"{public}live/"
        await viewer.call("public poll", path, poll=True)
        viewer.stats = stats
        polls.append((viewer, "public poll", path))

    await asyncio.gather(
        *(sit(key, seat) for key in event["tables"] for seat in range(2)),
        *(look(index) for index in range(args.spectators)),
    )
    until = time.monotonic() + args.close_seconds
    tasks = [
        _poll(client, kind, path, args.phone_poll if kind == "table poll" else args.spectator_poll,
              until)
        for client, kind, path in polls
    ]  # fmt: skip

    async def director() -> float:
        desk = Client(base, warm_up, gate)
        await desk.call("director", "/accounts/login/")
        login = {"username": "director", "password": "director"}
        await desk.call("director", "/accounts/login/", data=login)
        await desk.call("director", f"{public}manage/")
        await asyncio.sleep(args.close_seconds / 3)
        desk.stats = stats
        started = time.perf_counter()
        await desk.call("close", f"{public}championship/close/", data={"stage": 1})
        return time.perf_counter() - started

    took, *_rest = await asyncio.gather(director(), *tasks)
    return stats, took


# -- what the stack used ----------------------------------------------------------------------


def _cpu_of(names: tuple[str, ...], pids: set[int] | None = None) -> dict[str, float]:
    """CPU seconds so far of the processes whose command line holds each name."""
    ticks = os.sysconf("SC_CLK_TCK")
    used: dict[str, float] = defaultdict(float)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        for name in names:
            if name in command:
                # utime, stime, and the waited-for children's.
                used[name] += sum(int(value) for value in fields[11:15]) / ticks
                break
    return used


PARTS = {"gunicorn": "web", "postgres": "PostgreSQL", "redis-server": "Redis", "celery": "worker"}


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def _deals_in(database_url: str, event_id: int) -> tuple[int, int]:
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE d.status = 'confirmed') FROM scoring_deal d"
            " JOIN tournaments_table t ON t.id = d.table_id"
            " JOIN tournaments_stage s ON s.id = t.stage_id WHERE s.event_id = %s",
            [event_id],
        ).fetchone()
    return int(row[0]), int(row[1])


def report(pace: float, stats: Stats, args: argparse.Namespace, cpu: dict[str, float],
           wall: float, deals: tuple[int, int]) -> list[str]:  # fmt: skip
    offered = len(args.tables_run) / pace
    lines = [
        f"pace: a deal per table every {pace:.0f} s ({offered:.2f} deals/s offered), "
        f"{len(args.tables_run)} tables, {args.spectators} spectators, {args.seconds:.0f} s",
        *_kinds(stats),
        f"  deals completed: {stats.confirmed / args.seconds:.2f}/s; told saved {stats.saved}, "
        f"confirmed {stats.confirmed} (not told so: {stats.refused}); the database holds "
        f"{deals[0]} deals, {deals[1]} confirmed",
    ]
    split = ", ".join(
        f"{PARTS.get(name, name)} {seconds / wall:.2f}" for name, seconds in cpu.items()
    )
    lines.append(f"  CPU (cores): {split}")
    return lines


def _kinds(stats: Stats) -> list[str]:
    """Each kind of request: how many, p50/p95/p99/max, the statuses, the errors."""
    lines = [
        f"  {'request':<12} {'count':>6} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8} "
        f"{'KB/200':>7}  statuses"
    ]
    for kind in sorted(stats.times):
        times = stats.times[kind]
        codes = " ".join(f"{code}×{n}" for code, n in sorted(stats.statuses[kind].items()))
        lines.append(
            f"  {kind:<12} {len(times):>6} {_percentile(times, 0.5):>7.3f}s "
            f"{_percentile(times, 0.95):>7.3f}s {_percentile(times, 0.99):>7.3f}s "
            f"{max(times):>7.3f}s {stats.sent[kind] / 1024 / max(1, stats.statuses[kind].get(200, 0)):>7.1f}"
            f"  {codes}"
            + (f"  shed {stats.shed[kind]}" if stats.shed[kind] else "")
            + (f"  errors {stats.errors[kind]}" if stats.errors[kind] else "")
        )
    return lines


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=240.0, help="each pace's run")
    parser.add_argument(
        "--paces", type=float, nargs="*", default=[180.0, 30.0], help="none: the close alone"
    )
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--phone-poll", type=float, default=5.0)
    parser.add_argument("--spectator-poll", type=float, default=10.0)
    parser.add_argument("--arrival", type=float, default=60.0, help="the phones sit down over")
    parser.add_argument(
        "--close-seconds", type=float, default=60.0, help="polling around the stage close (0: none)"
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
            workers=2,
            settings_module="tests.bench.rehearsal_settings",
            database=DATABASE,
            redis_db=REDIS_DB,
        )
        stack = stack_of.enter_context(built)
        rate, median = asyncio.run(_ceiling(stack.base, 10.0))
        lines.append(
            f"ceiling: a bare view reading 1000 rows, 8 at a time: {rate:.0f} requests/s, "
            f"median {median * 1000:.0f} ms"
        )
        args.tables_run = event["tables"]
        for pace in args.paces:
            before = _cpu_of(tuple(PARTS))
            own = os.times()
            started = time.monotonic()
            stats = figures[pace] = asyncio.run(_night(stack.base, event, args, pace))
            wall = time.monotonic() - started
            after = _cpu_of(tuple(PARTS))
            cpu = {name: after[name] - before.get(name, 0.0) for name in PARTS}
            mine = os.times()
            cpu["generator"] = (mine.user - own.user) + (mine.system - own.system)
            deals = _deals_in(stack.env["DATABASE_URL"], event["event"])
            lines.extend(report(pace, stats, args, cpu, wall, deals))
            stack.manage("shell", "-c", _RESET.format(event=event["event"]))
        if args.close_seconds:
            finish = "from tests.bench.rehearsal import finish_tables; finish_tables({})"
            stack.manage("shell", "-c", finish.format(event["event"]))
            stats, took = asyncio.run(_close_under_load(stack.base, event, args))
            lines.append(
                f"stage close under load: {len(args.tables_run)} tables closed and the next "
                f"stage drawn in {took:.2f} s (the director's request), while every phone and "
                f"spectator polled for {args.close_seconds:.0f} s"
            )
            lines.extend(_kinds(stats))
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
