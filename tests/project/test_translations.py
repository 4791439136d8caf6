"""Every string the site shows is translated into Finnish and Hungarian in the same change:
the sources' strings are extracted afresh, as `make messages` does, in a copy of the
project (makemessages writes next to the sources it reads), and every one of them must
have a translation there that is not marked fuzzy."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
# What `make messages` does not read, or what is not the site's.
SKIP = shutil.ignore_patterns(
    ".venv", ".git", "tests", "staticfiles", "media", "node_modules", "__pycache__",
    "*.mo", "*.sqlite3", "*.ttf", "*.png", ".*_cache",
)  # fmt: skip


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Path:
    """locale/ as `make messages` would leave it now, in a copy of the project."""
    copy = tmp_path_factory.mktemp("sources") / "project"
    shutil.copytree(ROOT, copy, ignore=SKIP)
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "fi", "-l", "hu", "--no-location",
         "--ignore=.venv/*", "--ignore=tests/*", "-v0"],
        cwd=copy, env=env, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    return copy / "locale"


@pytest.mark.parametrize("language", ["fi", "hu"])
def test_every_string_is_translated(extracted, language):
    po = polib.pofile(str(extracted / language / "LC_MESSAGES" / "django.po"))
    missing = [
        entry.msgid
        for entry in po
        if not entry.obsolete and (not entry.translated() or "fuzzy" in entry.flags)
    ]
    assert not missing, f"translate into {language} (make messages, then locale/): {missing}"
