"""The site as the Docker image runs it, built on this machine for the production lane.

`build_stack` does what the Dockerfile and compose.yaml do, in their order: a fresh
database, `migrate`, `collectstatic` into a fresh STATIC_ROOT with the production storage
(DEBUG=0), the demo, a Celery worker as compose starts it and gunicorn with the options of
the Dockerfile's CMD (read from the Dockerfile, so the two cannot drift apart), on
PostgreSQL and Redis. Only the bind address changes: a free port on 127.0.0.1. The lane puts
Caddy in front with the shipped deploy/Caddyfile, as compose does (`proxied`).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import redis
import yaml

from tests.support.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DATABASE = "lappu_production_lane"
# A Redis database of its own: the PostgreSQL pass's worker tests use 15, the benches 13.
REDIS_DB = 12


@dataclass
class Stack:
    base: str  # what a visitor asks: the proxy (https) when proxied, else gunicorn
    port: int  # gunicorn's own port
    env: dict[str, str]
    home: Path
    logs: dict[str, Path] = field(default_factory=dict)
    upstream: str = ""  # gunicorn itself, over plain HTTP, as the proxy reaches it
    ca: Path | None = None  # the proxy's local certificate authority, when proxied
    # The processes it started, by name ("gunicorn": the master; "worker": Celery's main
    # process; "proxy"): what a measurement of the stack's own CPU starts from.
    pids: dict[str, int] = field(default_factory=dict)

    @property
    def media(self) -> Path:
        return Path(self.env["MEDIA_ROOT"])

    @property
    def mail(self) -> Path:
        return Path(self.env["EMAIL_FILE_PATH"])

    def log(self, name: str) -> str:
        return self.logs[name].read_text(errors="replace")

    def manage(self, *args: str) -> str:
        return _run([str(BIN / "python"), "manage.py", *args], self.env)


def dockerfile_command(port: int) -> list[str]:
    """The Dockerfile's CMD, bound to 127.0.0.1:`port` instead of the container's 0.0.0.0:$PORT."""
    text = (ROOT / "Dockerfile").read_text()
    found = re.search(r"^CMD (\[.*\])\s*$", text, re.MULTILINE)
    assert found, "the Dockerfile has no CMD [...] line"
    command: list[str] = json.loads(found[1])
    assert command[0] == "gunicorn", command
    # The image binds 0.0.0.0:$PORT (clubsite/gunicorn.py); the lane, loopback only.
    assert "--bind" not in command, "the address is clubsite/gunicorn.py's, from $PORT"
    return [str(BIN / "gunicorn"), *command[1:], "--bind", f"127.0.0.1:{port}"]


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def worker_command() -> list[str]:
    """compose.yaml's worker command, run from this venv."""
    words = compose()["services"]["worker"]["command"].split()
    assert words[:4] == ["celery", "-A", "clubsite", "worker"], words
    return [str(BIN / "celery"), *words[1:]]


def dockerfile_healthcheck(port: int) -> list[str]:
    """The Dockerfile's HEALTHCHECK command, asking 127.0.0.1:`port` (its $PORT)."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    found = re.search(r"^HEALTHCHECK .*?CMD (\[.*\])\s*$", text, re.MULTILINE)
    assert found, "the Dockerfile has no HEALTHCHECK ... CMD [...]"
    command: list[str] = json.loads(found[1])
    assert command[0] == "python", command
    # It asks $PORT, as a platform sets it; the lane's environment carries the port too.
    return ["env", f"PORT={port}", str(BIN / "python"), *command[1:]]


def worker_healthcheck() -> str:
    """compose.yaml's health check of the worker, as the shell line compose runs."""
    test = compose()["services"]["worker"]["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL", test
    # compose writes $$ for a $ the container's shell expands.
    return test[1].replace("$$", "$").replace("celery ", f"{BIN / 'celery'} ", 1)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(command: list[str], env: dict[str, str]) -> str:
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode:
        raise AssertionError(
            f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        )
    return done.stdout + done.stderr


def _database_urls(server_url: str, database: str) -> tuple[str, str]:
    """(the lane's database, the server's maintenance database) on the PostgreSQL server
    that `server_url` names."""
    parts = urlsplit(server_url)
    return (
        urlunsplit(parts._replace(path="/" + database)),
        urlunsplit(parts._replace(path="/postgres")),
    )


def _fresh_database(maintenance_url: str, database: str) -> None:
    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{database}"')


def _drop_database(maintenance_url: str, database: str) -> None:
    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def caddyfile(version: str) -> str:
    """deploy/Caddyfile as this machine's Caddy reads it. The image compose ships is Caddy
    2.10, whose whole-body buffer is `request_buffers <size>`; Debian's Caddy 2.6 calls the
    same buffer `buffer_requests` (the whole body, no size) and knows no other name. That one
    line is translated for a Caddy older than 2.7, nothing else."""
    text = (ROOT / "deploy" / "Caddyfile").read_text()
    found = re.match(r"v?(\d+)\.(\d+)", version.strip())
    assert found, f"an unknown Caddy version: {version!r}"
    if (int(found[1]), int(found[2])) < (2, 7):
        text, count = re.subn(r"request_buffers \S+", "buffer_requests", text)
        assert count == 1, "deploy/Caddyfile has no request_buffers line to translate"
    return text


def _start_proxy(stack: Stack, *, port: int, upstream_port: int) -> subprocess.Popen[bytes]:
    """Caddy with the shipped Caddyfile in front of gunicorn: HTTPS on `port` with a
    certificate from its own local authority (as for a trial on localhost), requests read
    whole before gunicorn sees them. Its state lives in the stack's home."""
    version = subprocess.run(["caddy", "version"], capture_output=True, text=True, check=True)
    config = stack.home / "Caddyfile"
    config.write_text(caddyfile(version.stdout))
    env = {
        **os.environ,
        "SITE_HOST": f"127.0.0.1:{port}",
        "UPSTREAM": f"127.0.0.1:{upstream_port}",
        "HTTP_PORT": str(_free_port()),
        "XDG_DATA_HOME": str(stack.home / "caddy-data"),
        "XDG_CONFIG_HOME": str(stack.home / "caddy-config"),
    }
    stack.logs["proxy"] = stack.home / "proxy.log"
    with stack.logs["proxy"].open("wb") as log:
        proxy = subprocess.Popen(
            ["caddy", "run", "--adapter", "caddyfile", "--config", str(config)],
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    stack.ca = stack.home / "caddy-data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    return proxy


def tls_context(stack: Stack) -> ssl.SSLContext | None:
    """What a visitor trusts: the proxy's local authority (None: plain HTTP to gunicorn)."""
    return ssl.create_default_context(cafile=str(stack.ca)) if stack.ca else None


def _flush_redis(url: str) -> None:
    redis.Redis.from_url(url).flushdb()


def _wait_healthy(base: str, procs: dict[str, subprocess.Popen[bytes]], stack: Stack) -> None:
    def healthy() -> bool:
        for name, proc in procs.items():
            if proc.poll() is not None:
                raise AssertionError(f"{name} stopped at start:\n{stack.log(name)}")
        try:
            context = tls_context(stack) if base.startswith("https:") else None
            if context is None and base.startswith("https:"):
                return False  # the proxy has made no certificate yet
            with urllib.request.urlopen(base + "/healthz", timeout=5, context=context) as response:
                return response.status == 200
        except (urllib.error.URLError, OSError):
            return False

    wait_until(
        healthy,
        timeout=60,
        what=f"{base}/healthz to answer 200",
        interval=0.3,
        detail=lambda: stack.log("gunicorn"),
    )


def _wait_worker(stack: Stack, proc: subprocess.Popen[bytes]) -> None:
    def ready() -> bool:
        if proc.poll() is not None:
            raise AssertionError(f"the worker stopped at start:\n{stack.log('worker')}")
        return " ready." in stack.log("worker")

    wait_until(
        ready, timeout=60, what="the worker to be ready", interval=0.3,
        detail=lambda: stack.log("worker"),
    )  # fmt: skip


def _with_threads(command: list[str], threads: int) -> list[str]:
    """gunicorn's `command` with threaded workers of `threads` threads, whatever worker class
    and thread count it named."""
    kept: list[str] = []
    skip = False
    for part in command:
        if skip:
            skip = False
        elif part in ("--worker-class", "-k", "--threads"):
            skip = True
        else:
            kept.append(part)
    return [*kept, "--worker-class", "gthread", "--threads", str(threads)]


def _stop_stale(database: str) -> Path:
    """Stop what an earlier run on `database` left running (a run killed before its clean-up:
    its worker would take this run's jobs from the same Redis and write their files into
    the old run's folder), and return the file this run's processes are noted in."""
    noted = Path(tempfile.gettempdir()) / f"lappu-stack-{database}.pids"
    if noted.exists():
        for pid in map(int, noted.read_text().split()):
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue  # gone already
            if b"clubsite" in command or b"caddy" in command:  # the pid is still ours
                with suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)
        noted.unlink()
    return noted


def _remember(noted: Path, pid: int) -> None:
    with noted.open("a") as file:
        file.write(f"{pid}\n")


@contextmanager
def build_stack(
    home: Path,
    *,
    server_url: str,
    redis_url: str,
    load: Callable[[Stack], None] | None = None,
    workers: int | None = None,
    threads: int | None = None,
    settings_module: str = "clubsite.settings",
    database: str = DATABASE,
    redis_db: int = REDIS_DB,
    proxied: bool = False,
    access_log_format: str | None = None,
) -> Iterator[Stack]:
    """The stack, its database loaded with the demo (or by `load`, e.g. the load
    rehearsal's event); `workers`: gunicorn's processes instead of the Dockerfile's;
    `proxied`: behind Caddy with the shipped Caddyfile, as compose runs it (the lane);
    `access_log_format`: gunicorn's access log lines in that format (e.g. with each
    request's time) instead of its default."""
    database_url, maintenance_url = _database_urls(server_url, database)
    redis_url = urlunsplit(urlsplit(redis_url)._replace(path=f"/{redis_db}"))
    port = _free_port()
    proxy_port = _free_port() if proxied else None
    upstream = f"http://127.0.0.1:{port}"
    base = f"https://127.0.0.1:{proxy_port}" if proxy_port else upstream
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PYTEST_", "CELERY_", "DATABASE_", "REDIS_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE=settings_module,
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        # The proxy in front speaks HTTPS (Caddy, when proxied; otherwise the lane's visitors
        # send X-Forwarded-Proto as it would), so the secure defaults stay on.
        SITE_URL=f"https://127.0.0.1:{proxy_port or port}",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        STATIC_ROOT=str(home / "static"),
        MEDIA_ROOT=str(home / "media"),
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        EMAIL_FILE_PATH=str(home / "mail"),
        ADMINS="Lane Operator <operator@lane.invalid>",
        PYTHONUNBUFFERED="1",
        # Behind the proxy, as compose sets it: the rate limits read the address it saw.
        TRUSTED_PROXY_COUNT="1" if proxied else "0",
    )
    stack = Stack(base=base, env=env, home=home, port=port, upstream=upstream)
    pids = _stop_stale(database)
    _fresh_database(maintenance_url, database)
    _flush_redis(redis_url)
    procs: dict[str, subprocess.Popen[bytes]] = {}
    try:
        stack.manage("migrate", "--noinput")
        # docs/install.md's claim about the production settings, held to on every run.
        stack.manage("check", "--deploy", "--fail-level", "WARNING")
        stack.manage("collectstatic", "--noinput")
        if load is None:
            stack.manage("demo_load")
        else:
            load(stack)
        web = dockerfile_command(port)
        if workers is not None:
            web[web.index("--workers") + 1] = str(workers)
        if threads is not None:
            web = _with_threads(web, threads)
        if access_log_format is not None:
            web += ["--access-logformat", access_log_format]
        for name, command in (("worker", worker_command()), ("gunicorn", web)):
            stack.logs[name] = home / f"{name}.log"
            with stack.logs[name].open("wb") as log:
                procs[name] = subprocess.Popen(
                    command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                    start_new_session=True,
                )  # fmt: skip
            stack.pids[name] = procs[name].pid
            _remember(pids, procs[name].pid)
        _wait_worker(stack, procs["worker"])
        _wait_healthy(upstream, procs, stack)
        if proxy_port:
            procs["proxy"] = _start_proxy(stack, port=proxy_port, upstream_port=port)
            stack.pids["proxy"] = procs["proxy"].pid
            _remember(pids, procs["proxy"].pid)
            _wait_healthy(base, procs, stack)
        yield stack
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs.values():
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        pids.unlink(missing_ok=True)
        _flush_redis(redis_url)
        _drop_database(maintenance_url, database)
