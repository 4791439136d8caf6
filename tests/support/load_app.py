"""A bare WSGI app for tests/core/test_load_shedding.py, served by gunicorn with the Dockerfile's
config: /waiting answers how many connections core.load sees queued, /sleep holds the one
worker for a moment so others queue."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from core.load import waiting


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if environ["PATH_INFO"] == "/sleep":
        # Real time on purpose: a request that holds the one worker while others queue
        # behind it (the test polls /waiting for them, never this sleep).
        time.sleep(1.5)
    body = str(waiting()).encode()
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
