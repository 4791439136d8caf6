"""What a deployment gets right by itself (issue 32): no empty key, no frameable page, one
proxy count for every limit, and crawlers kept off the tables' links."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, RequestFactory

from core.ratelimit import client_ip

ROOT = Path(__file__).resolve().parents[2]


def settings_import(**env: str) -> subprocess.CompletedProcess[str]:
    environ = {
        key: value
        for key, value in os.environ.items()
        if key not in {"SECRET_KEY", "DEBUG", "TRUSTED_PROXY_COUNT", "AXES_PROXY_COUNT"}
    }
    environ.update(env, DJANGO_SETTINGS_MODULE="clubsite.settings")
    code = (
        "import django; from django.conf import settings; django.setup();"
        "print(settings.RATE_LIMIT_PROXY_COUNT, settings.AXES_IPWARE_PROXY_COUNT)"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True
    )


@pytest.mark.parametrize("key", ["", "   "])
def test_production_refuses_an_empty_secret_key(key):
    result = settings_import(DEBUG="0", SECRET_KEY=key, ALLOWED_HOSTS="x", SITE_URL="https://x")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_one_proxy_count_sets_the_sign_in_throttle_and_every_rate_limit():
    assert settings_import(TRUSTED_PROXY_COUNT="1").stdout.split() == ["1", "1"]
    assert settings_import().stdout.split() == ["0", "0"]
    # The older name still works for a site that set it.
    assert settings_import(AXES_PROXY_COUNT="2").stdout.split() == ["2", "2"]


def test_behind_one_proxy_two_phones_are_two_addresses(settings):
    settings.RATE_LIMIT_PROXY_COUNT = 1
    factory = RequestFactory()
    one = factory.get("/", REMOTE_ADDR="172.18.0.5", HTTP_X_FORWARDED_FOR="198.51.100.7")
    two = factory.get("/", REMOTE_ADDR="172.18.0.5", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert {client_ip(one), client_ip(two)} == {"198.51.100.7", "203.0.113.9"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "host"),
    [("/?q=%00", "testserver"), ("/", "evil.example"), ("/no-such-page/", "testserver")],
)
def test_every_answer_refuses_framing_even_an_early_400(path, host):
    response = Client().get(path, HTTP_HOST=host)
    assert response.status_code in {400, 404}
    assert response["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
def test_robots_txt_keeps_crawlers_off_table_links():
    response = Client().get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert lines[0] == "User-agent: *"
    assert "Disallow: /t/" in lines and "Disallow: /admin/" in lines


def test_the_project_states_its_licence():
    licence = (ROOT / "LICENSE").read_text()
    assert "Apache License" in licence and "Version 2.0" in licence
    assert "Apache-2.0" in (ROOT / "README.md").read_text()
