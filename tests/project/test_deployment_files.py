"""The deployment files say what the production lane proves: the image installs exactly the
locked dependencies, keeps secrets and local data out, checks its own health, and compose
runs the image's command with every service's health checked before what needs it starts.
(No Docker engine runs here; the lane runs the image's CMD and health checks themselves.)"""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

from tests.production.stack import caddyfile

ROOT = Path(__file__).resolve().parents[2]
CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_every_base_image_is_pinned_by_version():
    images = re.findall(r"^FROM (\S+)", DOCKERFILE, re.MULTILINE)
    assert images
    for image in images:
        assert re.fullmatch(r"python:3\.11\.\d+-slim-\w+", image), image
    for name, service in COMPOSE["services"].items():
        if "image" in service:
            assert re.fullmatch(r"[\w/]+:\d+\.\d+(\.\d+)?", service["image"]), (name, service)


def test_the_image_installs_the_lock_with_hashes_and_copies_the_whole_project():
    assert "COPY requirements.lock" in DOCKERFILE
    assert re.search(r"pip install .*--require-hashes .*-r /tmp/requirements\.lock", DOCKERFILE)
    # The site's source as a whole: no list of packages to fall behind the project's.
    assert re.search(r"^COPY \. \.$", DOCKERFILE, re.MULTILINE)
    assert "HEALTHCHECK" in DOCKERFILE and "/healthz" in DOCKERFILE


@pytest.mark.parametrize(
    "path", [".env", ".env.production", "db.sqlite3", "media/x.pdf", "tests/artifacts/a.png"]
)
def test_dockerignore_keeps_secrets_and_local_files_out(path):
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]

    def ignored(candidate: str) -> bool:
        for pattern in patterns:
            bare = pattern.rstrip("/")
            if Path(candidate).match(bare) or candidate.startswith(bare + "/"):
                return True
        return False

    assert ignored(path), path


def test_compose_runs_the_images_command_and_checks_every_service():
    services = COMPOSE["services"]
    # The web service keeps the image's CMD (its gunicorn options: --timeout 120 ...).
    assert "command" not in services["web"]
    for name in ("worker", "db", "redis"):
        assert services[name]["healthcheck"]["test"], name
    assert "healthcheck" not in services["web"]  # the image's HEALTHCHECK applies
    for name in ("web", "worker"):
        needs = services[name]["depends_on"]
        assert needs["db"]["condition"] == needs["redis"]["condition"] == "service_healthy"
        assert needs["migrate"]["condition"] == "service_completed_successfully"
    # The print jobs' PDFs: made by the worker, handed out by the web process.
    assert "media:/data/media" in services["web"]["volumes"]
    assert services["web"]["volumes"] == services["worker"]["volumes"]


def test_compose_puts_a_buffering_tls_proxy_in_front_and_only_it_reaches_gunicorn():
    services = COMPOSE["services"]
    # Three half-sent requests froze gunicorn's sync workers when it was published directly.
    assert "ports" not in services["web"]
    assert services["web"]["expose"] == ["8000"]
    proxy = services["proxy"]
    assert proxy["image"].startswith("caddy:")
    assert {"80:80", "443:443"} <= set(proxy["ports"])
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "reverse_proxy {$UPSTREAM:web:8000}" in caddyfile
    assert re.search(r"^\s*request_buffers \d+MB$", caddyfile, re.MULTILINE)
    assert re.search(r"^\s*read_header \d+s$", caddyfile, re.MULTILINE)
    # Behind that one proxy, every limit counts the address it saw.
    assert services["web"]["environment"]["TRUSTED_PROXY_COUNT"] == 1


def test_compose_is_secure_unless_turned_off_and_comes_back_after_a_reboot():
    env = COMPOSE["services"]["web"]["environment"]
    assert env["SECURE_SSL_REDIRECT"] == "${SECURE_SSL_REDIRECT:-1}"
    assert env["SECURE_COOKIES"] == "${SECURE_COOKIES:-1}"
    assert env["SITE_URL"] == env["CSRF_TRUSTED_ORIGINS"] == "https://${SITE_HOST}"
    for name, service in COMPOSE["services"].items():
        expected = "no" if name == "migrate" else "unless-stopped"
        assert service["restart"] == expected, name


def test_every_app_service_reads_the_env_file_readme_fills():
    """Sign-up is mailed: the SMTP server's user and password (and any other setting of
    the settings table, docs/settings.md) must reach the containers, not only the few
    compose names. docs/install.md's Docker section fills .env with them."""
    install = (ROOT / "docs" / "install.md").read_text()
    docker = install[install.index("## Docker") : install.index("## Production settings")]
    for name in ("SECRET_KEY=", "SITE_HOST=", "EMAIL_HOST=", "EMAIL_HOST_PASSWORD="):
        assert name in docker, name
    for name, service in COMPOSE["services"].items():
        if "build" in service:
            assert service["env_file"] == [".env"], name


def test_compose_runs_the_scheduler_with_the_worker_image():
    beat = COMPOSE["services"]["beat"]
    assert beat["command"].split()[:4] == ["celery", "-A", "clubsite", "beat"]
    assert beat["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_every_service_of_the_image_but_web_checks_its_health_its_own_way():
    """The image's HEALTHCHECK asks gunicorn on :8000: a service running something else
    (the worker, the scheduler) would be reported unhealthy forever with it."""
    for name, service in COMPOSE["services"].items():
        if "build" not in service or name in {"web", "migrate"}:
            continue
        check = service.get("healthcheck")
        assert check and (check.get("disable") is True or check.get("test")), name
        assert "/healthz" not in str(check.get("test", "")), name


def _docker_compose() -> list[str] | None:
    for command in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(command[0]) is None:
            continue
        found = subprocess.run([*command, "version"], capture_output=True, check=False)
        if found.returncode == 0:
            return command
    return None


def test_docker_compose_reads_the_compose_file(tmp_path):
    """Where Docker Compose is installed, it reads compose.yaml as a deployment would (the
    parsed checks above hold without it)."""
    command = _docker_compose()
    if command is None:
        pytest.skip("Docker Compose is not installed: the tests above parse compose.yaml")
    # A checkout with docs/install.md's .env beside compose.yaml.
    shutil.copy(ROOT / "compose.yaml", tmp_path / "compose.yaml")
    (tmp_path / ".env").write_text(f"SECRET_KEY={'k' * 50}\nSITE_HOST=lappu.example.org\n")
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "SITE_HOST"}}
    result = subprocess.run(
        [*command, "config", "--format", "json"],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    services = json.loads(result.stdout)["services"]
    assert "ports" not in services["web"] and services["proxy"]["ports"]
    assert services["web"]["environment"]["SECURE_COOKIES"] == "1"
    assert services["web"]["environment"]["TRUSTED_PROXY_COUNT"] == "1"
    assert {"beat", "worker", "db", "redis"} <= set(services)


def test_gunicorn_serves_on_port_or_8000(monkeypatch):
    assert "--bind" not in DOCKERFILE
    for port, expected in (("", "0.0.0.0:8000"), ("5001", "0.0.0.0:5001")):
        monkeypatch.setenv("PORT", port)
        config = importlib.reload(importlib.import_module("clubsite.gunicorn"))
        assert config.bind == [expected]
    assert "os.environ.get('PORT')" in DOCKERFILE  # the image's health check asks it too


def _pins(lock: str) -> dict[str, str]:
    text = (ROOT / lock).read_text()
    pins = dict(re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+)", text, re.MULTILINE))
    # Every pin carries its hashes (pip then refuses anything else).
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])
    assert all("--hash=sha256:" in block for block in blocks if "==" in block)
    return {name.lower().replace("_", "-"): version for name, version in pins.items()}


def _project_requirements(extra: str | None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    if extra:
        wanted += project["optional-dependencies"][extra]
    return [Requirement(line) for line in wanted]


@pytest.mark.parametrize(
    ("lock", "extra"), [("requirements.lock", None), ("requirements-dev.lock", "dev")]
)
def test_the_lock_files_pin_what_pyproject_asks_for(lock, extra):
    """`make lock` after a change to pyproject.toml's dependencies: CI installs the lock."""
    pins = _pins(lock)
    for requirement in _project_requirements(extra):
        name = requirement.name.lower().replace("_", "-")
        assert name in pins, f"{lock} lacks {name}: run make lock"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{lock} pins {name}=={pins[name]}, pyproject asks {requirement.specifier}: run make lock"
        )


def test_the_shipped_caddyfile_is_one_caddy_reads(tmp_path):
    """Validated by the Caddy on this machine (Debian's; .ci/run installs it), read as the
    production lane reads it (tests/production/stack.caddyfile)."""
    if shutil.which("caddy") is None:
        if CI:
            pytest.fail("caddy is missing: .ci/run installs it")
        pytest.skip("caddy is not installed (apt-get install caddy)")
    version = subprocess.run(["caddy", "version"], capture_output=True, text=True, check=True)
    config = tmp_path / "Caddyfile"
    config.write_text(caddyfile(version.stdout))
    env = {**os.environ, "SITE_HOST": "lappu.example.org", "XDG_DATA_HOME": str(tmp_path)}
    result = subprocess.run(
        ["caddy", "validate", "--adapter", "caddyfile", "--config", str(config)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]


def test_the_lane_reads_the_caddyfile_as_shipped_but_for_the_buffers_old_name():
    shipped = (ROOT / "deploy" / "Caddyfile").read_text()
    assert caddyfile("v2.10.2 h1:abc") == shipped
    old = caddyfile("2.6.2")
    assert re.search(r"^\s*buffer_requests$", old, re.MULTILINE)
    assert not re.search(r"^\s*request_buffers", old, re.MULTILINE)
    assert old.replace("buffer_requests", "") == re.sub(r"request_buffers \S+", "", shipped)
