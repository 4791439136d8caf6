"""Waiting for what a test means, not for a fixed time.

`wait_until` asks a condition again and again (a short pause between two asks) and returns
its first truthy answer; when the time is up it fails, saying what it was waiting for. The
timeout is a bound for a slow machine, never the thing the test measures.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(
    predicate: Callable[[], T],
    *,
    timeout: float = 10.0,
    what: str,
    interval: float = 0.02,
    detail: Callable[[], str] | None = None,
) -> T:
    """`predicate`'s first truthy answer; after `timeout` seconds, an AssertionError naming
    `what` (and `detail()`, say a server's log, when given)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            message = f"waited {timeout:g} s for {what}"
            raise AssertionError(f"{message}:\n{detail()}" if detail else message)
        time.sleep(interval)  # the pause between two asks, not a wait for an outcome
