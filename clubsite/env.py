"""Typed readers for settings taken from the environment.

Each helper fails loudly (ImproperlyConfigured naming the variable) on a value it cannot
use, because a silently ignored typo in production settings is worse than a crash at start.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from email.utils import getaddresses
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(
    name: str, default: str | None = None, *, environ: Mapping[str, str] = os.environ
) -> str:
    value = environ.get(name, default)
    if value is None:
        raise ImproperlyConfigured(f"Set the environment variable {name}.")
    return value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] = os.environ) -> bool:
    raw = environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean: use one of 1/0, true/false, yes/no, on/off."
    )


def env_int(name: str, default: int, *, environ: Mapping[str, str] = os.environ) -> int:
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None


def env_list(
    name: str, default: list[str], *, environ: Mapping[str, str] = os.environ
) -> list[str]:
    raw = environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_addresses(
    name: str, default: list[tuple[str, str]], *, environ: Mapping[str, str] = os.environ
) -> list[tuple[str, str]]:
    """`Ann <ann@x.example>, ops@x.example` as Django's ADMINS: (name, address) pairs."""
    raw = environ.get(name)
    if raw is None or not raw.strip():
        return default
    pairs = getaddresses([raw])
    if not pairs or any("@" not in address for _name, address in pairs):
        raise ImproperlyConfigured(
            f"{name}={raw!r}: write addresses as 'Name <a@example.org>, b@example.org'."
        )
    return [(person or address, address) for person, address in pairs]


def parse_database_url(url: str, *, name: str = "DATABASE_URL") -> dict[str, Any]:
    """Turn `postgresql://user:pass@host:port/db?opt=v` or `sqlite:///path` into DATABASES['default']."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        path = unquote(parts.path)
        # sqlite:////abs/path has path "//abs/path"; sqlite:///rel has "/rel".
        path = path[1:] if path.startswith("//") else path.lstrip("/")
        if not path:
            raise ImproperlyConfigured(
                f"{name}={url!r} names no SQLite file (sqlite:///path/db.sqlite3)."
            )
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": path,
            # A club night on the default install is forty phones saving at once: wait for
            # the write lock (busy timeout) instead of failing, take it when a transaction
            # begins (no deadlock between two readers upgrading), and let readers read
            # while one writes (WAL).
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    if scheme not in {"postgres", "postgresql", "pgsql"}:
        raise ImproperlyConfigured(
            f"{name}={url!r}: unsupported scheme {parts.scheme!r}; "
            "use postgresql://user:password@host:5432/dbname or sqlite:///path."
        )
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname:
        raise ImproperlyConfigured(f"{name}={url!r} names no database (…/dbname at the end).")
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured(f"{name}={url!r} has a port that is not a number.") from None
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": dbname,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(port or ""),
        "OPTIONS": dict(parse_qsl(parts.query)),
        # Persistent connections: a Saturday of forty tables saves a connect per request.
        "CONN_MAX_AGE": 600,
        "CONN_HEALTH_CHECKS": True,
    }
