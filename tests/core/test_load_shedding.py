"""core.load: a saturated server answers the spectators' polls at once with the copy they
hold, and never sheds a table's requests. The queue's length is read from a real listening
socket, and gunicorn (as the Dockerfile starts it) tells each worker its sockets."""

from __future__ import annotations

import html
import re
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core import load
from scoring import public_cache
from tests.production.stack import dockerfile_command
from tests.support.events import seated_event
from tests.support.waiting import wait_until
from tournaments.services import event_publish

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def queue() -> Iterator[list[socket.socket]]:
    """A listening socket registered as the server's; connect to it to fill its backlog."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    waiting: list[socket.socket] = []

    def fill(count: int) -> None:
        waiting.extend(socket.create_connection(listener.getsockname()) for _ in range(count))
        wait_until(
            lambda: load.waiting() >= len(waiting), timeout=5, what="the kernel to queue them"
        )

    load.listen_on([listener])
    try:
        yield fill  # type: ignore[misc]
    finally:
        load.listen_on([])
        for each in [*waiting, listener]:
            each.close()


def test_waiting_counts_the_connections_no_worker_took(queue) -> None:
    assert load.waiting() == 0
    queue(5)
    assert load.waiting() == 5


def test_a_server_that_never_said_its_sockets_is_never_busy(settings) -> None:
    settings.SHED_QUEUE = 1
    assert load.waiting() == 0
    assert not load.busy()


@pytest.fixture
def event(db):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    event_publish(event=event, published=True)
    return event


def _poll(client: Client, name: str, event, tag: str = ""):
    headers = {"HTTP_HX_REQUEST": "true", **({"HTTP_IF_NONE_MATCH": tag} if tag else {})}
    return client.get(reverse(name, args=[event.club.slug, event.pk]), **headers)


@pytest.mark.parametrize("name", ["event_live", "event_screen_live"])
def test_a_saturated_server_keeps_a_spectator_on_the_copy_shown(
    settings, queue, event, name, django_assert_num_queries
) -> None:
    settings.SHED_QUEUE = 3
    client = Client()
    first = _poll(client, name, event)
    assert first.status_code == 200 and "X-Lappu-Busy" not in first
    held = first["ETag"]
    event.name = "Renamed"  # a new version: the spectator's copy is out of date
    event.save()
    queue(3)
    with django_assert_num_queries(0):
        kept = _poll(client, name, event, held)
        asked = _poll(Client(), name, event)
    assert kept.status_code == 304 and kept["ETag"] == held
    assert kept["X-Lappu-Busy"] == "1" and kept["Retry-After"] == "10"
    # One with nothing on screen yet is told to come back; htmx swaps no 503.
    assert asked.status_code == 503 and asked["Retry-After"] == "10"
    assert "catches up shortly" in asked.content.decode()
    assert "no-store" in asked["Cache-Control"]


def test_below_the_limit_or_with_shedding_off_the_spectator_gets_the_new_copy(
    settings, queue, event
) -> None:
    client = Client()
    held = _poll(client, "event_live", event)["ETag"]
    event.name = "Renamed"
    event.save()
    queue(2)
    settings.SHED_QUEUE = 3
    assert _poll(client, "event_live", event, held).status_code == 200
    settings.SHED_QUEUE = 0
    queue(10)
    assert _poll(client, "event_live", event, held).status_code == 200


def test_a_tables_poll_is_never_shed(settings, queue, event) -> None:
    settings.SHED_QUEUE = 1
    queue(4)
    table = event.stages.get().tables.get()
    answer = Client().get(reverse("table_live", args=[table.entry_key]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "X-Lappu-Busy" not in answer


def test_a_made_up_tag_is_not_echoed(settings, queue, event) -> None:
    settings.SHED_QUEUE = 1
    queue(1)
    answer = _poll(Client(), "event_live", event, 'W/"x"\x7f')
    assert answer.status_code == 503 and "ETag" not in answer


@pytest.mark.parametrize(
    ("language", "words"),
    [("fi", "Moni seuraa tuloksia"), ("hu", "Sokan követik az eredményeket")],
)
def test_the_busy_line_is_in_the_visitors_language(settings, queue, event, language, words):
    settings.SHED_QUEUE = 1
    queue(1)
    with translation.override(language):
        answer = _poll(Client(HTTP_ACCEPT_LANGUAGE=language), "event_live", event)
    assert words in answer.content.decode()


def _taken_and_read(port: int, client_port: int) -> bool:
    """Whether the server took the connection from `client_port` and read all it was sent:
    /proc/net/tcp lists the server's end (local `port`, remote `client_port`) from the
    moment the kernel accepts it, with what no process has read yet as its rx_queue, and a
    listening socket's rx_queue is its queue of connections no worker has taken."""
    taken_and_read = False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                local, remote = (int(f.rsplit(":", 1)[1], 16) for f in fields[1:3])
                unread = int(fields[4].split(":")[1], 16)
                if local == port and fields[3] == "0A" and unread:
                    return False  # still queued for a worker
                if (local, remote) == (port, client_port) and fields[3] == "01":
                    taken_and_read = unread == 0
    return taken_and_read


def _gunicorn(port: int) -> list[str]:
    """The Dockerfile's gunicorn command with its config, serving a bare app on one worker."""
    command = dockerfile_command(port)
    command[command.index("clubsite.wsgi:application")] = "tests.support.load_app:app"
    command[command.index("--workers") + 1] = "1"
    return command


def test_gunicorn_as_the_dockerfile_starts_it_tells_each_worker_its_queue() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        _gunicorn(port), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        base = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            assert server.poll() is None, server.stderr.read().decode()  # type: ignore[union-attr]
            try:
                urllib.request.urlopen(base + "/waiting", timeout=2).read()
            except OSError:
                return False
            return True

        wait_until(answers, timeout=30, what="gunicorn to answer")
        # The one worker sleeps on a request; four more queue behind it meanwhile.
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"GET /sleep HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        wait_until(
            lambda: _taken_and_read(port, slow.getsockname()[1]),
            timeout=10,
            what="the one worker to read the slow request",
        )
        behind = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
        for each in behind:
            each.sendall(b"GET /waiting HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        seen = [each.makefile("rb").read().split(b"\r\n\r\n", 1)[1] for each in behind]
        # The first taken saw the three still queued behind it, the last saw none.
        assert sorted(int(body) for body in seen) == [0, 1, 2, 3]
        for each in [slow, *behind]:
            each.close()
    finally:
        server.terminate()
        server.wait(10)


def test_the_test_app_is_importable_alone() -> None:
    # gunicorn imports it in a fresh process: it must not need Django's settings.
    done = subprocess.run(
        [sys.executable, "-c", "import tests.support.load_app"], cwd=ROOT, capture_output=True
    )
    assert done.returncode == 0, done.stderr.decode()


PAGES = {"event_live": "event_public", "event_screen_live": "event_screen"}


def _page_tag(client: Client, poll: str, event) -> str:
    """The tag the page (the public page, the big screen) says for the part it polls."""
    page = client.get(reverse(PAGES[poll], args=[event.club.slug, event.pk]))
    assert page.status_code == 200
    found = re.search(r'data-poll-tag="([^"]+)"', page.content.decode())
    assert found, "the page says no tag for its poll"
    return html.unescape(found[1])


@pytest.mark.parametrize("name", ["event_live", "event_screen_live"])
def test_a_spectator_who_just_opened_the_page_is_shed_as_a_304(settings, queue, event, name):
    # The page says its live part's tag (as the table page does), so even its first poll
    # holds one: shed, it keeps what the page shows instead of a 503.
    client = Client()
    held = _page_tag(client, name, event)
    assert _poll(client, name, event, held).status_code == 304  # the poll's own tag
    settings.SHED_QUEUE = 1
    queue(1)
    shed = _poll(client, name, event, held)
    assert shed.status_code == 304 and shed["ETag"] == held and shed["X-Lappu-Busy"] == "1"
    # Without the tag (a page built before it said one) it is what it was: a 503.
    assert _poll(Client(), name, event).status_code == 503


@pytest.mark.parametrize("name", ["event_live", "event_screen_live"])
def test_the_pages_tag_still_brings_a_changed_result(settings, queue, event, name):
    client = Client()
    held = _page_tag(client, name, event)
    event.name = "Renamed"  # a new version
    event.save()
    queue(2)
    settings.SHED_QUEUE = 3  # below the limit: nothing is shed
    fresh = _poll(client, name, event, held)
    assert fresh.status_code == 200 and fresh["ETag"] != held
    assert "X-Lappu-Busy" not in fresh


@pytest.mark.parametrize("name", ["event_live", "event_screen_live"])
def test_a_copy_given_while_the_new_one_renders_is_still_kept_when_shed(
    settings, queue, event, name
) -> None:
    """Under a stress pace a new public version comes every few seconds, and while one
    request renders it the others get the copy before it: that copy carries its own
    version's tag, so the spectator's next poll, if shed, is a 304 and never a 503."""
    settings.PUBLIC_CACHE_SHARED = True
    client = Client()
    first = _poll(client, name, event)
    event.name = "Renamed"
    event.save()
    stamp = public_cache.event_stamp(event.pk, {})
    kind = "live" if name == "event_live" else "screen-live"
    rendering = public_cache.part_key(kind, event.pk, stamp["token"], "en\x1f") + ":rendering"
    cache.add(rendering, 1, 10)  # another request is rendering the new version
    try:
        meanwhile = _poll(client, name, event, first["ETag"])
    finally:
        cache.delete(rendering)
    assert meanwhile.status_code == 200 and meanwhile.has_header("ETag")
    settings.SHED_QUEUE = 1
    queue(1)
    shed = _poll(client, name, event, meanwhile["ETag"])
    assert shed.status_code == 304 and shed["X-Lappu-Busy"] == "1"
