"""A bench's throw-away test database: Django set up, the database created, the measuring
done, the database dropped again (even when the measuring fails)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

T = TypeVar("T")


def on_test_database(measure: Callable[[], T]) -> T:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    # Imported here: DATABASE_URL may have been set by the caller just before.
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    # Torn down again: `make bench` runs several in-process benches one after another, and
    # Django refuses a second set-up while one is in place.
    setup_test_environment()
    try:
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            return measure()
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
    finally:
        teardown_test_environment()


def reachable(url: str, port: int) -> bool:
    """Whether the server of `url` (host and port; `port` when it names none) answers."""
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or port), 1):
            return True
    except OSError:
        return False


def stack_services() -> tuple[str, str] | None:
    """The PostgreSQL and Redis addresses a bench that builds the whole stack uses (from
    DATABASE_URL and REDIS_URL, else this machine's), or None when either does not answer."""
    database = os.environ.get("DATABASE_URL") or "postgresql://127.0.0.1:5432/"
    redis = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    if reachable(database, 5432) and reachable(redis, 6379):
        return database, redis
    return None


def use_postgres_if_reachable(url: str) -> str:
    """Point DATABASE_URL at `url` when its PostgreSQL answers (before Django is set up); the
    backend's name, as the bench prints it."""
    if not reachable(url, 5432):
        return "SQLite (PostgreSQL unreachable)"
    os.environ["DATABASE_URL"] = url
    return "PostgreSQL"


def run_in_child(script: str) -> list[tuple[str, float, str]]:
    """The rows a bench script prints with --json, measured in a child process: Django's
    settings are the process's, and each bench chooses its own database."""
    path = Path(script).resolve()
    done = subprocess.run(
        [sys.executable, str(path), "--json"],
        cwd=path.parents[2],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{path.stem} failed:\n{done.stderr}")
    return [
        (label, median, target)
        for label, median, target in json.loads(done.stdout.splitlines()[-1])
    ]
