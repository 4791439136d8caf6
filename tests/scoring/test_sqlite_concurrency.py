"""The embedded default (`make run`: SQLite) survives a table's phones saving at once.

A real server process (gunicorn, threads) on a real SQLite file, as a club on the default
install runs it; twenty saves of one table sent together must each get an answer a person
understands (saved, or "someone saved first"), never a server error.
"""

from __future__ import annotations

import concurrent.futures
import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from tests.support.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.sqlite,
    pytest.mark.skipif(
        not settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
        reason="the SQLite pass runs this (it brings its own database file)",
    ),
]

SETUP = """
from tests.support.events import seated_event
event, (table,) = seated_event(variant_id="rutupeli", players=4)
print("KEY=" + table.entry_key)
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Phone:
    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
            _NoRedirect(),
        )

    def get(self, path: str) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path))

    def post(self, path: str, data: dict[str, str], *, form_page: str) -> tuple[int, str]:
        _status, page = self.get(form_page)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token[1] if token else ""})
        request = urllib.request.Request(
            self.base + path, data=body.encode(), headers={"Referer": self.base + path}
        )
        return self._open(request)

    def _open(self, request: urllib.request.Request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture
def server(tmp_path):
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
        "REDIS_URL": "",
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "clubsite.settings",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    setup = subprocess.run(
        [*manage, "shell", "-c", SETUP],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    key = re.search(r"KEY=(\S+)", setup.stdout)[1]
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "clubsite.wsgi", "-b", f"127.0.0.1:{port}",
         "-w", "2", "-k", "gthread", "--threads", "10", "--timeout", "60"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _answers(base), timeout=30, what="gunicorn to answer")
        yield base, key
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _answers(base: str) -> bool:
    try:
        urllib.request.urlopen(base + "/", timeout=2)
    except OSError:
        return False
    return True


def test_twenty_saves_of_one_table_at_once_give_no_server_error(server):
    base, key = server
    phones = [Phone(base) for _ in range(4)]
    for seat, phone in enumerate(phones):
        status, _page = phone.post(f"/t/{key}/seat/", {"seat": str(seat)}, form_page=f"/t/{key}/")
        assert status == 302
    hands = {"p0_cards": "", "p1_cards": "AS KD", "p2_cards": "7H", "p3_cards": "QS"}

    def save(index: int) -> int:
        phone = phones[index % 4]
        data = {"out": "0", "expected_version": "0", "request_id": f"r{index}", **hands}
        status, _page = phone.post(f"/t/{key}/deals/1/", data, form_page=f"/t/{key}/")
        return status

    with concurrent.futures.ThreadPoolExecutor(max_workers=20) as pool:
        statuses = list(pool.map(save, range(20)))
    counts = {status: statuses.count(status) for status in sorted(set(statuses))}
    print(f"20 concurrent saves of one table on SQLite: {counts}")
    assert all(status < 500 for status in statuses), counts
    # One save lands; every other one is told someone else saved deal 1 first.
    assert counts.get(302) == 1, counts
    assert counts.get(409) == 19, counts
