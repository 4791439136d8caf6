"""`make test`: every suite against every real part this machine has.

1. SQLite, the database `make run` serves from: the browser tests (they need Debian's
   chromium and drive the whole site), every printed sheet's layout, and what depends on
   SQLite itself (marker `sqlite`: the demo, a backup restored, SQLite's own concurrency).
2. PostgreSQL: the whole suite but the browser tests and the layouts, with the concurrency
   tests and the tests that talk to a real Celery worker on Redis; a browser test marked
   `postgres` runs here only (a registration confirmed by mail over real SMTP). (Every other
   test ran in both passes once; that doubled CI's time for no test that could tell the two
   apart.)
3. Production: the site as the Docker image runs it (DEBUG=0, collected static files,
   gunicorn with the Dockerfile's options, PostgreSQL, Redis, a worker), crawled from the
   demo (tests/production).
Without CI=true an unreachable service skips its part with a loud banner; with CI=true it fails.

The PostgreSQL pass (one pytest process: about one core) runs beside the SQLite pass and the
production lane, which follow each other: on a machine of two cores or more the whole run
takes about the longest of the two instead of their sum. Neither shares a database, a Redis
database or a port with the other. Its output is kept and printed whole once it is done, so
the passes do not interleave. LAPPU_TEST_SERIAL=1 runs the passes one after another.
"""

from __future__ import annotations

import atexit
import os
import socket
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/lappu")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))


def loud(message: str) -> None:
    bar = "!" * 78
    print(f"\n{bar}\n!!! {message}\n{bar}\n", flush=True)


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


class Pass:
    """One pytest run: started at once, in the foreground (its output as it comes) or in the
    background (its output kept in a file and printed when it is done)."""

    def __init__(
        self, label: str, env_extra: dict[str, str], args: list[str], *, background: bool = False
    ) -> None:
        self.label = label
        self.report = Path(tempfile.mkstemp(prefix="lappu-junit-", suffix=".xml")[1])
        # An empty value means "not set": the settings then fall back to SQLite / eager Celery.
        env = {
            key: value
            for key, value in {**os.environ, **env_extra}.items()
            if value != "" or key not in env_extra
        }
        cmd = [
            sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
            f"--junitxml={self.report}", *args,
        ]  # fmt: skip
        # Kept open until the pass is printed, in wait(): no `with` can span the two.
        self.output = tempfile.TemporaryFile() if background else None  # noqa: SIM115
        if background:
            print(f"\n=== {label}: started beside the others, printed when done ===", flush=True)
        else:
            print(f"\n=== {label} ===", flush=True)
        self.process = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=self.output,
            stderr=subprocess.STDOUT if background else None,
        )
        # A run stopped early (Ctrl-C, a failure in the foreground) leaves no pass behind.
        atexit.register(self._stop)

    def _stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()

    def wait(self) -> tuple[int, dict[str, int]]:
        code = self.process.wait()
        if self.output is not None:
            print(f"\n=== {self.label} ===", flush=True)
            self.output.seek(0)
            sys.stdout.buffer.write(self.output.read())
            sys.stdout.flush()
            self.output.close()
        return _counted(code, self.report)


def run_pytest(
    label: str, env_extra: dict[str, str], args: list[str]
) -> tuple[int, dict[str, int]]:
    return Pass(label, env_extra, args).wait()


def _counted(code: int, report: Path) -> tuple[int, dict[str, int]]:
    if code == 5 and sys.argv[1:]:  # with -k or a path, a pass may hold none of it: fine
        code = 0
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    try:
        suite = ET.parse(report).getroot()
        suite = suite if suite.tag == "testsuite" else suite[0]
        for key in counts:
            counts[key] = int(suite.get(key, 0))
    except (ET.ParseError, IndexError, FileNotFoundError):
        pass
    report.unlink(missing_ok=True)
    return code, counts


def main() -> int:
    extra_args = sys.argv[1:]
    results: list[tuple[str, int, dict[str, int]]] = []
    missing: list[str] = []
    beside = (os.cpu_count() or 1) > 1 and os.environ.get("LAPPU_TEST_SERIAL", "") in {"", "0"}

    if not CHROMIUM.exists():
        message = f"Browser tests need {CHROMIUM} (apt-get install -y chromium)."
        if CI:
            missing.append(message)
        loud(f"SKIPPED browser tests: {message}")

    postgres: Pass | None = None
    redis_up = reachable("127.0.0.1", 6379)
    postgres_up = reachable("127.0.0.1", 5432)
    env: dict[str, str] = {}
    postgres_args: list[str] = []
    if postgres_up:
        env = {"DATABASE_URL": PG_URL, "REDIS_URL": ""}
        marker = "(not e2e or postgres)"
        if redis_up:
            env["REDIS_URL"] = REDIS_URL
        else:
            message = "Redis is not reachable on 127.0.0.1:6379: the real Celery worker tests did not run."
            loud(f"SKIPPED: {message}")
            if CI:
                missing.append(message)
            marker = "(not e2e or postgres) and not celery_worker"
        # The sheets' layout matrix reads the same rows on either database: run once.
        postgres_args = ["-m", f"{marker} and not production and not layout", *extra_args]
        if beside:
            postgres = Pass("PostgreSQL", env, postgres_args, background=True)
    else:
        message = "PostgreSQL is not reachable on 127.0.0.1:5432: the PostgreSQL and worker passes did not run."
        loud(f"SKIPPED: {message}")
        if CI:
            missing.append(message)

    # The worker and PostgreSQL tests run in the PostgreSQL pass; here they would only skip.
    code, counts = run_pytest(
        "SQLite",
        {"DATABASE_URL": "", "REDIS_URL": ""},
        [
            "-m",
            "(e2e or layout or sqlite) and not postgres and not celery_worker and not production",
            *extra_args,
        ],
    )
    results.append(("SQLite", code, counts))

    if postgres_up:
        if postgres is None:
            results.append(("PostgreSQL", *run_pytest("PostgreSQL", env, postgres_args)))
        if redis_up:
            # Its own databases (tests/production/stack.py); the settings come from the stack.
            code, counts = run_pytest(
                "Production",
                {"DATABASE_URL": "", "REDIS_URL": ""},
                ["-m", "production", "tests/production", *extra_args],
            )
            results.append(("Production", code, counts))
            if counts["skipped"] and CI:
                missing.append("The production lane skipped: it must run in CI.")
        else:
            message = "Redis is not reachable: the production lane did not run."
            loud(f"SKIPPED: {message}")
            if CI:
                missing.append(message)
    if postgres is not None:
        results.insert(1, ("PostgreSQL", *postgres.wait()))

    print("\n=== Summary ===")
    passed = failed = skipped = 0
    for label, code, c in results:
        p = c["tests"] - c["failures"] - c["errors"] - c["skipped"]
        print(
            f"{label:<11} {p} passed, {c['failures'] + c['errors']} failed, {c['skipped']} skipped (exit {code})"
        )
        passed += p
        failed += c["failures"] + c["errors"]
        skipped += c["skipped"]
    for message in missing:
        print(f"REQUIRED IN CI: {message}")
    bad = any(code != 0 for _label, code, _c in results) or bool(missing)
    print(f"{passed} passed, {failed + len(missing)} failed, {skipped} skipped")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
