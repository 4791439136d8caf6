"""Tasks that exist only for the tests: the real worker loads them with `--include`."""

from __future__ import annotations

import os
import time
from pathlib import Path

from celery import shared_task
from django.db import OperationalError

from core.tasks import TrackedTask


def _attempt(path: str) -> int:
    """Note this attempt's process id in `path`; return which attempt this is (from 1)."""
    log = Path(path)
    with log.open("a") as out:
        out.write(f"{os.getpid()}\n")
    return len(log.read_text().split())


@shared_task(base=TrackedTask, bind=True, name="tests.record_attempt")
def record_attempt(self: TrackedTask, path: str, first_sleep: float) -> int:
    """Sleeps on its first attempt, so a test can kill the process running it."""
    attempt = _attempt(path)
    self.progress(0, 1)
    if attempt == 1:
        # Real time on purpose: the process must still be busy when the test kills it (the
        # test waits for the attempt to be noted, never for this sleep).
        time.sleep(first_sleep)
    return attempt


@shared_task(
    base=TrackedTask,
    bind=True,
    name="tests.flaky",
    autoretry_for=(OperationalError,),
    default_retry_delay=0,
    max_retries=2,
)
def flaky(self: TrackedTask, path: str, failures: int) -> int:
    """Fails with a database error on its first `failures` attempts."""
    attempt = _attempt(path)
    if attempt <= failures:
        raise OperationalError("the database went away")
    return attempt
