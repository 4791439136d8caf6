"""Score sheets for 60 tables in one PDF on one worker (issue 12's budget: under 15 s).

What the print job's Celery task does, in this process: every table of a seated Rutupeli
stage of 240 players (60 tables of 4) as blank, pre-filled score sheets, rendered by
WeasyPrint twenty tables at a time (the job's progress steps), merged with pypdf into one file
and stored under MEDIA_ROOT (a temporary folder here). Printed: the time of a whole job,
median of RUNS, and the pages per second; beside it one WeasyPrint run of all 60 tables
(what the merge and the progress cost on top).

Runs in a child process on a throw-away test database: PostgreSQL when DATABASE_URL is
set, else SQLite. Run ``python tests/bench/bench_print.py``; `make bench` calls :func:`run`.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLES = 60
RUNS = 3


def _measure() -> list[tuple[str, float, str]]:
    from pypdf import PdfReader

    from scoring.models import PrintJob
    from scoring.print_jobs import print_job_run
    from scoring.print_sheets import table_sheets_pdf
    from tests.scoring.conftest import seated_event

    event, tables = seated_event(variant_id="rutupeli", players=TABLES * 4)
    assert len(tables) == TABLES, len(tables)
    params = {"stage": 1, "language": "fi", "paper": "A4"}
    # Once untimed: fonts, templates and WeasyPrint's own caches warm, as in a worker.
    table_sheets_pdf(tables=tables[:1], filled=False, language="fi")

    times: list[float] = []
    pages = 0
    for _ in range(RUNS):
        job = PrintJob.objects.create(event=event, kind="table_sheets", params=params)
        started = time.perf_counter()
        job = print_job_run(job_id=job.pk)
        times.append(time.perf_counter() - started)
        pages = len(PdfReader(job.file.path).pages)
        assert pages == job.pages >= TABLES

    started = time.perf_counter()
    one_run = table_sheets_pdf(tables=tables, filled=False, language="fi")
    single = time.perf_counter() - started
    assert one_run.startswith(b"%PDF-")

    median = statistics.median(times)
    return [
        (
            f"print job: {TABLES} tables' score sheets, one PDF ({pages} pages, "
            f"{pages / median:.1f} pages/s; median of {RUNS}, slowest {max(times):.1f} s)",
            median * 1e6,
            "< 15 s",
        ),
        (
            f"  the same {TABLES} tables in one WeasyPrint run, no merge "
            f"({pages / single:.1f} pages/s)",
            single * 1e6,
            "(for comparison)",
        ),
    ]


def measure() -> list[tuple[str, float, str]]:
    # Imported here: run as a script, this file puts the project on sys.path only below.
    from tests.bench.testdb import on_test_database

    return on_test_database(_measure)


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
