"""Several web processes behind a proxy: nothing one of them keeps is missed by another.

Two gunicorn processes on different ports share the test's PostgreSQL database and Redis:
a deal saved through one is on the other's public page and table poll at once, and a
page's ETag given by one is honoured (304) by the other, because the versions, the cached
parts and their invalidation live in Redis.
"""

from __future__ import annotations

import functools
import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.support.events import seated_event
from tests.support.waiting import wait_until
from tournaments.services import event_publish

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis: run with REDIS_URL"),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Phone:
    """One browser: its cookies go to whichever process it talks to (as behind a proxy)."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect()
        )

    def get(self, base: str, path: str, **headers: str) -> tuple[int, dict[str, str], str]:
        return self._open(urllib.request.Request(base + path, headers=headers))

    def post(self, base: str, path: str, data: dict[str, str], *, form_page: str) -> int:
        _status, _headers, page = self.get(base, form_page)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token[1] if token else ""})
        request = urllib.request.Request(
            base + path, data=body.encode(), headers={"Referer": base + path}
        )
        return self._open(request)[0]

    def _open(self, request: urllib.request.Request) -> tuple[int, dict[str, str], str]:
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()


def _start(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "clubsite.wsgi", "-b", f"127.0.0.1:{port}",
         "-w", "2", "--timeout", "60"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def _answers(base: str) -> bool:
    try:
        urllib.request.urlopen(base + "/", timeout=2)
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


@pytest.fixture
def two_servers(transactional_db) -> Iterator[tuple[str, str]]:
    db = connection.settings_dict
    database_url = (
        f"postgres://{db['USER']}{':' + db['PASSWORD'] if db['PASSWORD'] else ''}"
        f"@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    env = {
        **os.environ,
        "DATABASE_URL": database_url,  # the test database, where this test's rows are
        "REDIS_URL": settings.REDIS_URL,
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "clubsite.settings",
        # The tables' deals reach the public pages after a window, as in production; a
        # short one here, so the test waits it out.
        "PUBLIC_COALESCE_SECONDS": str(COALESCE),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    ports = [_free_port(), _free_port()]
    procs = [_start(port, env) for port in ports]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        for base in bases:
            wait_until(functools.partial(_answers, base), timeout=30, what=f"{base} to answer")
        yield bases[0], bases[1]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=20)


COALESCE = 4


def test_a_deal_saved_through_one_process_is_read_through_the_other(two_servers):
    """At its table at once; on the public page once the coalescing window is over, through
    either process (the version and its waiting mark are in Redis)."""
    one, two = two_servers
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    # The event's public version is made after this (at the latest by the first read below).
    not_before = time.monotonic()
    event_publish(event=event, published=True)
    live = f"/clubs/{event.club.slug}/events/{event.pk}/live/"
    poll = f"/t/{table.entry_key}/live/"
    entry = f"/t/{table.entry_key}/"
    alice, bob, spectator = Phone(), Phone(), Phone()
    assert alice.post(one, entry + "seat/", {"seat": "0"}, form_page=entry) == 302
    assert bob.post(two, entry + "seat/", {"seat": "1"}, form_page=entry) == 302

    # An ETag given by one process is honoured by the other: the version is in Redis.
    status, headers, before = spectator.get(one, live)
    assert status == 200 and "Player 001" in before
    tag = headers["ETag"]
    assert spectator.get(two, live, **{"If-None-Match": tag})[0] == 304
    status, headers, _page = bob.get(one, poll)
    bob_tag = headers["ETag"]
    assert bob.get(two, poll, **{"If-None-Match": bob_tag})[0] == 304

    hands = {"p0_cards": "", "p1_cards": "AS KD", "p2_cards": "7H", "p3_cards": "QS"}
    data = {"out": "0", "expected_version": "0", "request_id": "two-1", **hands}
    assert alice.post(one, entry + "deals/1/", data, form_page=entry) == 302

    # The spectators' version waits for the window; the table's own poll does not.
    waited = spectator.get(two, live, **{"If-None-Match": tag})[0]
    assert waited == 304 or time.monotonic() - not_before >= COALESCE
    # Then, once the window is over, through the other process: no 304, the new totals.
    status, headers, after = wait_until(
        lambda: (answer := spectator.get(two, live, **{"If-None-Match": tag}))[0] != 304 and answer,
        timeout=COALESCE + 30,
        what="the new public version through the other process",
        interval=0.2,
    )
    assert status == 200
    assert headers["ETag"] != tag
    assert 'class="unconfirmed"' in after and "30" in after
    status, _headers, bobs = bob.get(two, poll, **{"If-None-Match": bob_tag})
    assert status == 200
    assert "Confirm deal 1" in bobs
