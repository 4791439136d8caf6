"""gunicorn's settings beside its command line (the Dockerfile's CMD loads this module with
`--config python:clubsite.gunicorn`): each worker tells core.load which sockets it takes
connections from, so a spectator's poll can see how many requests wait behind it."""

from __future__ import annotations

from typing import Any

from core.load import listen_on


def post_worker_init(worker: Any) -> None:
    listen_on(worker.sockets)
