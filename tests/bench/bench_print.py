"""Score sheets for 60 tables in one PDF on one worker (issue 12's budget: under 15 s).

A print job of every table of a seated Rutupeli stage of 240 players (60 tables of 4) as
blank, pre-filled score sheets: WeasyPrint renders them ten tables a share, pypdf merges the
shares into one file stored under MEDIA_ROOT (a temporary folder here).

- **One worker**: a real Celery worker on Redis with its default pool (a process per CPU),
  the job queued as the site queues it and timed until it is done. The job's task becomes
  a chord of its shares, which the pool's processes make side by side, and a merge. Median
  of RUNS, with the pages per second.
- **One process**: the same job made by the job's task alone (what a pool of one does, and
  the figure without a worker), for comparison.
- **A big standings PDF**: a 1000-player event's standings, made by a print job (the path
  the public address takes above 300 players), in one process.

Runs in a child process on a throw-away test database on PostgreSQL when it answers (the
worker needs it, and Redis); without them only the one-process figure is printed. Run
``python tests/bench/bench_print.py``; `make bench` calls :func:`run`.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLES = 60
RUNS = 3
BIG_STANDINGS = 1000
PG_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/lappu_bench_print"
)
REDIS_URL = os.environ.get("BENCH_PRINT_REDIS_URL", "redis://127.0.0.1:6379/12")
POOL = os.cpu_count() or 1


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


@contextmanager
def _worker(queue: str) -> Iterator[None]:
    """A Celery worker of the default pool size on the bench's own database and queue."""
    from django.db import connection

    db = connection.settings_dict
    env = {**os.environ, "DATABASE_URL": f"postgresql://{db['USER']}@{db['HOST']}:"
           f"{db['PORT'] or 5432}/{db['NAME']}", "CELERY_TASK_DEFAULT_QUEUE": queue}  # fmt: skip
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "clubsite", "worker", f"--concurrency={POOL}",
             "-Q", queue, "--without-gossip", "--without-mingle", "--loglevel=WARNING",
             "-n", f"{queue}@%h"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            from clubsite.celery import app

            deadline = time.monotonic() + 60
            while not app.control.ping(destination=[f"{queue}@{socket.gethostname()}"], timeout=1):
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"the bench's worker did not start:\n{log.read().decode()}")
            yield
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def _timed(make: Callable[[int], None], event, params) -> tuple[float, int]:
    """Seconds to make one new job of `event`'s sheets with `make`, and its pages."""
    from printing.models import PrintJob

    job = PrintJob.objects.create(event=event, kind="table_sheets", params=params)
    started = time.perf_counter()
    make(job.pk)
    elapsed = time.perf_counter() - started
    job.refresh_from_db()
    assert job.file, "the bench's job made no file"
    from pypdf import PdfReader

    pages = len(PdfReader(job.file.path).pages)
    assert pages == job.pages >= TABLES
    return elapsed, pages


def _through_the_worker(job_id: int) -> None:
    from printing.models import PrintJob
    from printing.tasks import print_job_task

    print_job_task.apply_async(args=[job_id])
    deadline = time.monotonic() + 300
    # Sent straight to the worker, with no run of its own: its file made is its end.
    while not PrintJob.objects.filter(pk=job_id).exclude(file="").exists():
        assert time.monotonic() < deadline, "the bench's job never finished"
        time.sleep(0.05)


def _in_this_process(job_id: int) -> None:
    from printing.jobs import print_job_run

    print_job_run(job_id=job_id)


def _row(label: str, times: list[float], pages: int, target: str) -> tuple[str, float, str]:
    median = statistics.median(times)
    spread = f"median of {len(times)}, slowest {max(times):.1f} s; " if len(times) > 1 else ""
    return (f"{label} ({pages} pages, {spread}{pages / median:.1f} pages/s)", median * 1e6,
            target)  # fmt: skip


def _measure(with_worker: bool) -> list[tuple[str, float, str]]:
    from printing.sheets import table_sheets_pdf
    from tests.support.events import seated_event

    event, tables = seated_event(variant_id="rutupeli", players=TABLES * 4)
    assert len(tables) == TABLES, len(tables)
    params = {"stage": 1, "language": "fi", "paper": "A4"}
    # Once untimed: fonts, templates and WeasyPrint's own caches warm, as in a worker.
    table_sheets_pdf(tables=tables[:1], filled=False, language="fi")
    rows = []
    if with_worker:
        from clubsite.celery import app

        queue = f"lappu-bench-print-{uuid.uuid4().hex[:8]}"
        app.conf.task_default_queue = queue
        with _worker(queue):
            _timed(_through_the_worker, event, params)  # the pool's processes warm up
            runs = [_timed(_through_the_worker, event, params) for _ in range(RUNS)]
        label = f"print job: {TABLES} tables' score sheets, one PDF, one worker ({POOL} processes)"
        rows.append(_row(label, [t for t, _p in runs], runs[0][1], "< 15 s"))
    elapsed, pages = _timed(_in_this_process, event, params)
    label = f"  the same job in one process{'' if with_worker else ' (no Redis: no worker)'}"
    rows.append(_row(label, [elapsed], pages, "< 15 s" if not with_worker else "(comparison)"))
    rows.append(_big_standings())
    return rows


def _big_standings() -> tuple[str, float, str]:
    """A 1000-player event's standings PDF, as the print job makes it (one process)."""
    from pypdf import PdfReader

    from printing.jobs import STANDINGS, print_job_run
    from printing.models import PrintJob
    from tests.support.events import seated_event

    event, _tables = seated_event(variant_id="rutupeli", players=BIG_STANDINGS)
    job = PrintJob.objects.create(
        event=event, kind=STANDINGS, params={"stage": None, "language": "fi", "paper": "A4"}
    )
    started = time.perf_counter()
    job = print_job_run(job_id=job.pk)
    elapsed = time.perf_counter() - started
    pages = len(PdfReader(job.file.path).pages)
    label = f"standings PDF of {BIG_STANDINGS} players, a print job in one process"
    return _row(label, [elapsed], pages, "(made in the background)")


def measure() -> list[tuple[str, float, str]]:
    # Imported here: run as a script, this file puts the project on sys.path only below.
    from tests.bench.testdb import on_test_database

    with_worker = _answers(5432) and _answers(6379)
    if with_worker:
        os.environ["DATABASE_URL"] = PG_URL
        os.environ["REDIS_URL"] = REDIS_URL
    return on_test_database(lambda: _measure(with_worker))


def run() -> list[tuple[str, float, str]]:
    """(name, median microseconds, target), measured in a child process."""
    with tempfile.TemporaryDirectory(prefix="lappu-bench-media-") as media:
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--json"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "MEDIA_ROOT": media},
        )
    if done.returncode != 0:
        raise RuntimeError(f"bench_print failed:\n{done.stderr}")
    return [
        (label, median, target)
        for label, median, target in json.loads(done.stdout.splitlines()[-1])
    ]


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if "MEDIA_ROOT" not in os.environ:
        os.environ["MEDIA_ROOT"] = tempfile.mkdtemp(prefix="lappu-bench-media-")
    rows = measure()
    if "--json" in sys.argv:
        print(json.dumps(rows))
    else:
        for label, median_us, target in rows:
            print(f"{label}: {median_us / 1e6:.2f} s ({target})")
