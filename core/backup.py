"""A whole site in one file, and back: the database as Django's fixtures plus the media files
(print jobs' PDFs), in a .tar.gz. Works the same on SQLite and PostgreSQL, so a trial's
data can move to a real server.

Serialised through each model's *base* manager (`dumpdata --all`): a default manager may
hide rows (`Table.objects` leaves out play-off tables, which `stage.tables` must not count),
and a backup made through it lost those tables and could not be loaded again (their seats
pointed at nothing). Natural keys for content types and users, so the file loads into a
database that `migrate` has just made.
"""

from __future__ import annotations

import io
import tarfile
import tempfile
from pathlib import Path
from typing import BinaryIO

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction

# XML, not JSON: Django's JSON encoder cuts times to milliseconds, and a restored site must
# read exactly as the old one (the order of two changes in one millisecond included).
DATA = "data.xml"
MEDIA = "media"
# Remade by `migrate` itself (content types, permissions), or nobody's to keep (sessions).
LEFT_OUT = ("contenttypes", "auth.permission", "sessions")


class RestoreRefused(Exception):
    """The database to restore into is not empty: a restore never mixes two sites."""


def site_backup(*, out: BinaryIO) -> int:
    """Write the site's data and media files to `out` (a file, or standard output: written
    as a stream); returns the number of media files."""
    media_root = Path(settings.MEDIA_ROOT)
    with tempfile.TemporaryDirectory() as work:
        data = Path(work) / DATA
        call_command(
            "dumpdata",
            "--all",
            "--natural-foreign",
            "--natural-primary",
            "--format=xml",
            *(f"--exclude={label}" for label in LEFT_OUT),
            output=str(data),
            verbosity=0,
        )
        files = 0
        with tarfile.open(fileobj=out, mode="w|gz") as archive:
            archive.add(data, arcname=DATA)
            if media_root.is_dir():
                for file in sorted(p for p in media_root.rglob("*") if p.is_file()):
                    archive.add(file, arcname=f"{MEDIA}/{file.relative_to(media_root)}")
                    files += 1
    return files


def _empty() -> bool:
    tables = set(connection.introspection.table_names())
    for model in apps.get_models():
        if model._meta.label_lower in {"contenttypes.contenttype", "auth.permission"}:
            continue
        if model._meta.db_table in tables and model._base_manager.exists():
            return False
    return True


def site_restore(*, source: BinaryIO) -> int:
    """Load a backup into this (migrated, empty) database and its media folder; returns the
    number of objects loaded. All or nothing: a file that fails to load leaves no rows."""
    if not _empty():
        raise RestoreRefused
    media_root = Path(settings.MEDIA_ROOT)
    with (
        tarfile.open(fileobj=source, mode="r|gz") as archive,
        tempfile.TemporaryDirectory() as work,
    ):
        archive.extractall(work, filter="data")
        out = io.StringIO()
        with transaction.atomic():
            call_command("loaddata", str(Path(work) / DATA), stdout=out, verbosity=1)
        media = Path(work) / MEDIA
        if media.is_dir():
            for file in media.rglob("*"):
                if file.is_file():
                    target = media_root / file.relative_to(media)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(file.read_bytes())
    # "Installed 1234 object(s) from 1 fixture(s)"
    words = out.getvalue().split()
    return int(words[1]) if len(words) > 1 and words[1].isdigit() else 0
