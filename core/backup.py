"""A whole site in one file, and back: the database as Django's fixtures plus the files its
rows name (print jobs' PDFs), in a .tar.gz. Works the same on SQLite and PostgreSQL, so a
trial's data can move to a real server.

The files are read and written through each file field's storage, as the site itself does:
a shared disk or an object store (a django-storages backend) is backed up alike.

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
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from django.apps import apps
from django.core.files import File
from django.core.files.storage import Storage
from django.core.management import call_command
from django.db import connection, models, transaction

# XML, not JSON: Django's JSON encoder cuts times to milliseconds, and a restored site must
# read exactly as the old one (the order of two changes in one millisecond included).
DATA = "data.xml"
MEDIA = "media"
# Remade by `migrate` itself (content types, permissions), or nobody's to keep (sessions).
LEFT_OUT = ("contenttypes", "auth.permission", "sessions")


class RestoreRefused(Exception):
    """The database to restore into is not empty: a restore never mixes two sites."""


def _stored_files() -> Iterator[tuple[Storage, str]]:
    """Every file a row names, with the storage it is kept in (each model's file fields,
    read through the base manager as the rows are)."""
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if not isinstance(field, models.FileField):
                continue
            names = (
                model._base_manager.exclude(**{field.name: ""})
                .exclude(**{f"{field.name}__isnull": True})
                .order_by(field.name)
                .values_list(field.name, flat=True)
            )
            for name in names:
                yield field.storage, name


def site_backup(*, out: BinaryIO) -> int:
    """Write the site's data and the files its rows name to `out` (a file, or standard
    output: written as a stream); returns the number of files. A file its storage no
    longer has (a print file deleted by hand) is left out: its job makes it again."""
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
            for storage, name in _stored_files():
                if not storage.exists(name):
                    continue
                with storage.open(name, "rb") as stored:
                    content = stored.read()
                entry = tarfile.TarInfo(f"{MEDIA}/{name}")
                entry.size = len(content)
                archive.addfile(entry, io.BytesIO(content))
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
    """Load a backup into this (migrated, empty) database, and the files its rows name into
    their storage; returns the number of objects loaded. All or nothing: a file that fails
    to load leaves no rows."""
    if not _empty():
        raise RestoreRefused
    with (
        tarfile.open(fileobj=source, mode="r|gz") as archive,
        tempfile.TemporaryDirectory() as work,
    ):
        archive.extractall(work, filter="data")
        out = io.StringIO()
        with transaction.atomic():
            call_command("loaddata", str(Path(work) / DATA), stdout=out, verbosity=1)
        media = (Path(work) / MEDIA).resolve()
        for storage, name in _stored_files():
            kept = (media / name).resolve()
            if not kept.is_file() or not kept.is_relative_to(media):
                continue
            if storage.exists(name):  # a file left behind by the site this one replaces
                storage.delete(name)
            with kept.open("rb") as content:
                saved = storage.save(name, File(content))
            if saved != name:  # the row would name a file that is not there
                raise OSError(f"The storage kept {name} as {saved}.")
    # "Installed 1234 object(s) from 1 fixture(s)"
    words = out.getvalue().split()
    return int(words[1]) if len(words) > 1 and words[1].isdigit() else 0
