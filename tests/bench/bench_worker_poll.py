"""What a table's poll that finds nothing new costs a gunicorn worker, as the Docker image
runs it (tests/production/stack.py: DEBUG=0, collected static files, PostgreSQL, Redis): the
worker's own CPU per request, read from the kernel around 2,000 polls answered 304, beside
2,000 requests for a static file, the cheapest thing the worker serves (WhiteNoise, in
Django's middleware). One sync worker, asked one request at a time over plain HTTP.

The worker's CPU is what a poll takes from the others. gunicorn's access log gives its wall
time instead, which under load includes waiting for a core (docs/speed.md). Goal: at least
5× under the 4 ms a poll's 304 took in the workers before it was answered early."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from tests.bench.testdb import stack_services

ROUNDS = 2000
BEFORE_US = 4000.0  # the figure for a poll's 304 in the workers


def _cpu_seconds(pid: int) -> float:
    # utime and stime: the 14th and 15th fields, after the command's name in parentheses.
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _get(port: int, path: str, headers: dict[str, str]) -> tuple[Any, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port)
    # As the proxy forwards it: HTTPS outside, so the site's secure defaults stay on.
    connection.request("GET", path, headers={"X-Forwarded-Proto": "https", **headers})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response, body


def _cpu_us(worker: int, port: int, path: str, headers: dict[str, str], status: int) -> float:
    before = _cpu_seconds(worker)
    for _ in range(ROUNDS):
        response, _body = _get(port, path, headers)
        assert response.status == status, (path, response.status)
    return (_cpu_seconds(worker) - before) / ROUNDS * 1e6


def run() -> list[tuple[str, float, str]]:
    services = stack_services()
    if services is None:
        print("  bench_worker_poll skipped: it needs PostgreSQL and Redis")
        return []
    _database, redis = services
    # Imported here: the stack's module reads the environment when it is imported.
    from tests.bench.rehearsal import _load
    from tests.production.stack import build_stack

    event: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory() as home,
        build_stack(
            Path(home),
            server_url=os.environ.get("DATABASE_URL")
            or "postgresql://postgres@127.0.0.1:5432/postgres",
            redis_url=redis,
            load=_load(2, event),
            workers=1,
            settings_module="tests.bench.rehearsal_settings",
            database="lappu_bench_worker_poll",
            redis_db=9,
        ) as stack,
    ):
        gunicorn = stack.pids["gunicorn"]
        worker = int(subprocess.check_output(["pgrep", "-P", str(gunicorn)]).split()[0])
        key = event["tables"][0]
        page, body = _get(stack.port, f"/t/{key}/", {})
        cookies = "; ".join(
            value.split(";")[0] for name, value in page.getheaders() if name == "Set-Cookie"
        )
        found = re.search(r'"(/static/[^"]+\.css)"', body.decode())
        assert found is not None, "the table page links no stylesheet"
        phone = {"Cookie": cookies, "HX-Request": "true"}
        live, _body = _get(stack.port, f"/t/{key}/live/", phone)
        poll = {**phone, "If-None-Match": live.getheader("ETag")}
        # Twice each, alternating: the second pair shows how steady the figures are.
        polls, statics = [], []
        for _ in range(2):
            polls.append(_cpu_us(worker, stack.port, f"/t/{key}/live/", poll, 304))
            statics.append(_cpu_us(worker, stack.port, found[1], {}, 200))
    poll_us, static_us = min(polls), min(statics)
    return [
        ("static file, one gunicorn worker's CPU per request", static_us, "yardstick"),
        (
            "table poll 304, one gunicorn worker's CPU per request",
            poll_us,
            f"{BEFORE_US / poll_us:.1f}x under the 4 ms before (goal >= 5x); "
            f"{poll_us / static_us:.2f}x a static file",
        ),
    ]


if __name__ == "__main__":
    for name, us, note in run():
        print(f"{name}: {us:.0f} µs  {note}")
