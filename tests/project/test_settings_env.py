from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from clubsite.env import (
    env_addresses,
    env_bool,
    env_int,
    env_list,
    env_str,
    parse_database_url,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "postgresql://lappu:s%40cret@db.example:5433/lappu?sslmode=require",
            {
                "NAME": "lappu",
                "USER": "lappu",
                "PASSWORD": "s@cret",
                "HOST": "db.example",
                "PORT": "5433",
            },
        ),
        ("postgres://postgres@127.0.0.1/test", {"NAME": "test", "USER": "postgres", "PORT": ""}),
        ("sqlite:///db.sqlite3", {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}),
        ("sqlite:////tmp/x.sqlite3", {"NAME": "/tmp/x.sqlite3"}),
    ],
)
def test_database_url_parses(url, expected):
    config = parse_database_url(url)
    assert {key: config[key] for key in expected} == expected


def test_database_url_keeps_options_and_persistent_connections():
    config = parse_database_url("postgresql://u@h/db?sslmode=require")
    assert config["OPTIONS"] == {"sslmode": "require"}
    assert config["CONN_MAX_AGE"] > 0
    assert config["CONN_HEALTH_CHECKS"] is True


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("mysql://root@localhost/x", "unsupported scheme 'mysql'"),
        ("postgresql://u@h:port/db", "port that is not a number"),
        ("postgresql://u@h/", "names no database"),
        ("sqlite://", "names no SQLite file"),
        ("nonsense", "unsupported scheme"),
    ],
)
def test_bad_database_url_fails_clearly(url, fragment):
    with pytest.raises(ImproperlyConfigured) as info:
        parse_database_url(url)
    assert fragment in str(info.value)
    assert "DATABASE_URL" in str(info.value)


@pytest.mark.parametrize(
    ("raw", "value"), [("1", True), ("TRUE", True), ("off", False), ("0", False)]
)
def test_env_bool(raw, value):
    assert env_bool("X", not value, environ={"X": raw}) is value


def test_env_bool_refuses_garbage():
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe' is not a boolean"):
        env_bool("DEBUG", False, environ={"DEBUG": "maybe"})


def test_env_int_and_list_and_str():
    assert env_int("N", 3, environ={}) == 3
    assert env_int("N", 3, environ={"N": "42"}) == 42
    with pytest.raises(ImproperlyConfigured, match="N='4x' is not a whole number"):
        env_int("N", 3, environ={"N": "4x"})
    assert env_list("H", ["a"], environ={"H": "x.fi, y.hu ,"}) == ["x.fi", "y.hu"]
    with pytest.raises(ImproperlyConfigured, match="Set the environment variable SECRET_KEY"):
        env_str("SECRET_KEY", None, environ={})


def _manage(env_extra: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_bad_database_url_stops_the_site_with_the_reason():
    result = _manage({"DATABASE_URL": "mysql://root@localhost/x"}, "check")
    assert result.returncode != 0
    assert "DATABASE_URL='mysql://root@localhost/x': unsupported scheme 'mysql'" in result.stderr


def test_production_without_secret_key_refuses_to_start():
    result = _manage({"DEBUG": "0", "ALLOWED_HOSTS": "lappu.example"}, "check")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_documented_production_settings_pass_check_deploy():
    result = _manage(
        {
            "DEBUG": "0",
            "SECRET_KEY": "k3y-" + "x7Qm9vT2pL8rW4zN6bJ1hF5cD3sA0gE" * 2,
            "ALLOWED_HOSTS": "lappu.example",
            "CSRF_TRUSTED_ORIGINS": "https://lappu.example",
            "SITE_URL": "https://lappu.example",
        },
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_production_without_site_url_refuses_to_start():
    """A printed QR code would otherwise point at 127.0.0.1: found out only at the tables."""
    result = _manage(
        {"DEBUG": "0", "SECRET_KEY": "k" * 60, "ALLOWED_HOSTS": "lappu.example"}, "check"
    )
    assert result.returncode != 0
    assert "Set the environment variable SITE_URL" in result.stderr
    result = _manage({"SITE_URL": "lappu.example"}, "check")
    assert "SITE_URL='lappu.example': write it as https://host[:port]" in result.stderr


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Ann Operator <ann@club.example>, ops@club.example",
         [("Ann Operator", "ann@club.example"), ("ops@club.example", "ops@club.example")]),
        ("", []),
    ],
)  # fmt: skip
def test_admins_are_read_as_names_and_addresses(raw, expected):
    assert env_addresses("ADMINS", [], environ={"ADMINS": raw}) == expected


def test_admins_that_are_not_addresses_stop_the_site():
    with pytest.raises(ImproperlyConfigured, match="ADMINS='ops'"):
        env_addresses("ADMINS", [], environ={"ADMINS": "ops"})


def _variables_read() -> set[str]:
    """Every environment variable the settings read, found in their source."""
    source = (ROOT / "clubsite" / "settings.py").read_text()
    return set(re.findall(r'env_(?:str|bool|int|list|addresses)\(\s*"([A-Z_]+)"', source))


def test_every_variable_the_settings_read_is_in_the_settings_page():
    table = (ROOT / "docs" / "settings.md").read_text()
    documented = set(re.findall(r"`([A-Z][A-Z_]+)`", table))
    read = _variables_read()
    assert len(read) > 20  # the pattern still finds them
    assert read - documented == set()
