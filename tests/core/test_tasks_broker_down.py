"""Redis down: the recount says so at once, nothing breaks, and the progress page still answers.

The broker and the result store are pointed at a closed local port (what a stopped Redis
looks like); the settings' short timeouts are the ones in use. The last test goes through a
proxy to the real Redis that it stops and starts again, to show the site recovers by itself.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import redis
from celery import uuid
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from clubsite.celery import app
from core.models import TaskRun
from core.tasks import QUEUE_UNAVAILABLE, START_WITHIN, QueueUnavailable, enqueue_on_commit
from tests.support.broker import reset_connections
from tests.support.factories import MembershipFactory
from tournaments.models import Club, Role
from tournaments.tasks import club_stats_refresh_task

CANNOT_TELL = "so this job's state cannot be told"


@pytest.fixture
def director_client(client, db):
    membership = MembershipFactory(role=Role.DIRECTOR)
    client.force_login(membership.user)
    return client, membership.club


def test_recount_says_at_once_that_the_queue_is_down(transactional_db, queue_at, client):
    membership = MembershipFactory(role=Role.DIRECTOR)
    club = membership.club
    client.force_login(membership.user)
    started = time.monotonic()
    response = client.post(reverse("club_stats_refresh", args=[club.slug]), follow=True)
    elapsed = time.monotonic() - started
    assert response.status_code == 200
    assert response.redirect_chain[0][0] == club.get_absolute_url()
    assert str(QUEUE_UNAVAILABLE) in response.content.decode()
    assert elapsed < 2.0, f"the refusal took {elapsed:.2f} s"
    # Nothing was changed; the attempt is on record, as never queued.
    assert Club.objects.get(pk=club.pk).member_count == 0
    assert TaskRun.objects.get().state == TaskRun.State.NOT_QUEUED
    # And the site carries on.
    assert client.get(club.get_absolute_url()).status_code == 200


def test_helper_raises_outside_a_transaction(transactional_db, queue_at):
    membership = MembershipFactory()
    started = time.monotonic()
    with pytest.raises(QueueUnavailable):
        enqueue_on_commit(club_stats_refresh_task, membership.club_id)
    assert time.monotonic() - started < 2.0


def test_inside_a_transaction_the_failure_is_recorded_for_the_progress_page(
    queue_at, director_client, django_capture_on_commit_callbacks
):
    client, club = director_client
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("club_stats_refresh", args=[club.slug]))
    # The view had returned before the commit, so it sent the person to the progress page.
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "The job could not be queued." in html
    assert "hx-get" not in html  # nothing more will happen: no polling
    assert 'type="submit">Retry<' in html  # the director may try again


def test_progress_page_tells_the_state_when_the_store_is_down(queue_at, client, db):
    """The job's record is its one state: Redis down changes nothing on its page, which
    answers at once and keeps asking."""
    now = timezone.now()
    run = TaskRun.objects.create(
        task_id=uuid(),
        name=club_stats_refresh_task.name,
        args=[1],
        queued_at=now,
        lost_after=now + START_WITHIN,
    )
    started = time.monotonic()
    page = client.get(reverse("task_status", args=[run.task_id]))
    assert time.monotonic() - started < 2.0
    assert page.status_code == 200
    html = page.content.decode()
    assert "Waiting for a worker to start the job" in html and CANNOT_TELL not in html
    assert "hx-get" in html  # it keeps asking
    TaskRun.objects.filter(pk=run.pk).update(state=TaskRun.State.SUCCEEDED, finished_at=now)
    partial = client.get(reverse("task_status", args=[run.task_id]), HTTP_HX_REQUEST="true")
    assert partial.status_code == 200
    assert "Done." in partial.content.decode()


# -- the real Redis, through a proxy that goes down and comes back -------------------------------


class Proxy:
    """A TCP proxy to Redis on a fixed local port, that can be stopped (connections cut,
    port closed: Redis is down) and started again on the same port."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self._server: socket.socket | None = None
        self._sockets: list[socket.socket] = []

    def start(self) -> None:
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", self.port))
        server.listen(64)
        self._server = server
        threading.Thread(target=self._accept, args=(server,), daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            # shutdown() first: on Linux, close() alone leaves a thread blocked in accept()
            # holding the port open, still taking connections.
            with contextlib.suppress(OSError):
                self._server.shutdown(socket.SHUT_RDWR)
            self._server.close()
            self._server = None
        for sock in self._sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        self._sockets.clear()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                client, _address = server.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self._sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)


@pytest.fixture
def redis_proxy() -> Iterator[tuple[Proxy, str]]:
    if not settings.REDIS_URL:
        pytest.skip("needs REDIS_URL: make test runs this in its PostgreSQL pass")
    from urllib.parse import urlsplit

    parts = urlsplit(settings.REDIS_URL)
    proxy = Proxy((parts.hostname or "127.0.0.1", parts.port or 6379))
    proxy.start()
    try:
        yield proxy, f"redis://127.0.0.1:{proxy.port}{parts.path or '/0'}"
    finally:
        proxy.stop()


@pytest.mark.celery_worker
def test_queueing_works_again_once_redis_is_back(transactional_db, redis_proxy):
    proxy, url = redis_proxy
    club = MembershipFactory().club
    saved = {key: app.conf[key] for key in ("broker_url", "result_backend", "task_default_queue")}
    # A queue no worker reads: the test only publishes.
    queue = f"lappu-test-nobody-{club.pk}-{time.monotonic_ns()}"
    app.conf.update(broker_url=url, result_backend=url, task_default_queue=queue)
    reset_connections()
    try:
        first = enqueue_on_commit(club_stats_refresh_task, club.pk)
        proxy.stop()
        started = time.monotonic()
        with pytest.raises(QueueUnavailable):
            enqueue_on_commit(club_stats_refresh_task, club.pk)
        assert time.monotonic() - started < 2.0
        proxy.start()
        # The same process, without a restart, queues again.
        again = enqueue_on_commit(club_stats_refresh_task, club.pk)
        states = dict(TaskRun.objects.values_list("task_id", "state"))
        assert states[first] == states[again] == TaskRun.State.QUEUED
        assert list(states.values()).count(TaskRun.State.NOT_QUEUED) == 1
    finally:
        app.conf.update(saved)
        reset_connections()
        # The queue, its messages and kombu's bindings for it.
        client = redis.Redis.from_url(settings.REDIS_URL)
        client.delete(*client.scan_iter(match=f"*{queue}*"))


def test_retry_while_the_queue_is_down_says_so_and_stays(transactional_db, queue_at, client):
    membership = MembershipFactory(role=Role.DIRECTOR)
    now = timezone.now()
    run = TaskRun.objects.create(
        task_id=uuid(),
        name=club_stats_refresh_task.name,
        args=[membership.club_id],
        state=TaskRun.State.FAILED,
        error="unavailable",
        queued_at=now,
        finished_at=now,
        lost_after=now + START_WITHIN,
    )
    client.force_login(membership.user)
    url = reverse("task_status", args=[run.task_id])
    started = time.monotonic()
    response = client.post(url, {"next": "/"}, follow=True)
    assert time.monotonic() - started < 2.0
    assert response.redirect_chain[0][0] == f"{url}?next=%2F"
    html = response.content.decode()
    assert str(QUEUE_UNAVAILABLE) in html
    assert "The job failed." in html
