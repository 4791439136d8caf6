"""The deployment files say what the production lane proves: the image installs exactly the
locked dependencies, keeps secrets and local data out, checks its own health, and compose
runs the image's command with every service's health checked before what needs it starts.
(No Docker engine runs here; the lane runs the image's CMD and health checks themselves.)"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
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
