"""The Celery broker and result store pointed elsewhere: a closed port, or one that never answers."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

from clubsite.celery import app

CLOSED = "redis://127.0.0.1:1/0"


def reset_connections() -> None:
    """Forget Celery's cached connection pools and result store, so new URLs take effect."""
    app._pool = None
    if "amqp" in app.__dict__:
        app.amqp._producer_pool = None
    app._backend_cache = None
    app._local.__dict__.pop("backend", None)


@contextlib.contextmanager
def queue_pointed_at(url: str) -> Iterator[None]:
    """The broker and the result store at `url` (no inline tasks) while inside."""
    saved = {key: app.conf[key] for key in ("broker_url", "result_backend", "task_always_eager")}
    app.conf.update(broker_url=url, result_backend=url, task_always_eager=False)
    reset_connections()
    try:
        yield
    finally:
        app.conf.update(saved)
        reset_connections()


@contextlib.contextmanager
def silent_port() -> Iterator[int]:
    """A local port that never answers: its listen backlog is full, so a new connection
    waits unanswered (a Redis host that is down or cut off, not one refusing at once)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(0)
    port = server.getsockname()[1]
    waiting = []
    for _ in range(3):
        sock = socket.socket()
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            sock.connect(("127.0.0.1", port))
        waiting.append(sock)
    try:
        yield port
    finally:
        for sock in (*waiting, server):
            sock.close()
