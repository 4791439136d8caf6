"""A real Celery worker process on Redis, started and stopped by the tests that need one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from clubsite.celery import app
from tests.support.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


def start_worker(
    *, queue: str, log: Path, pool: str = "prefork", concurrency: int = 1
) -> subprocess.Popen[bytes]:
    """Start a Celery worker process on the test database and Redis, reading only `queue`,
    with the test-only tasks loaded; return once it answers a ping."""
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgresql://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
    }
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "clubsite", "worker", f"--pool={pool}",
             f"--concurrency={concurrency}", "--include=tests.support.celery_tasks", "-Q", queue,
             "--without-gossip", "--without-mingle", "--loglevel=INFO", "-n", f"{queue}@%h"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip

    def answers() -> bool:
        if proc.poll() is not None:
            pytest.fail(f"the Celery worker exited:\n{log.read_text()}")
        return bool(app.control.ping(destination=[f"{queue}@{os.uname().nodename}"], timeout=1))

    try:
        wait_until(answers, timeout=60, what="the Celery worker to answer", detail=log.read_text)
    except AssertionError:
        stop_worker(proc)
        raise
    return proc


def stop_worker(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
