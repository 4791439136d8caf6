from __future__ import annotations

import sys
import tarfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.serializers.base import DeserializationError

from core.backup import RestoreRefused, site_restore


class Command(BaseCommand):
    help = "Restore a site_backup file into a freshly migrated, empty database (docs/backup.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="a file written by site_backup, or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["path"])
        if options["path"] != "-" and not path.is_file():
            raise CommandError(f"No backup at {path}.")
        try:
            if options["path"] == "-":
                count = site_restore(source=sys.stdin.buffer)
            else:
                with path.open("rb") as source:
                    count = site_restore(source=source)
        except RestoreRefused as refused:
            raise CommandError(
                "This database already holds a site: restore into an empty one "
                "(a new database, then `manage.py migrate`)."
            ) from refused
        except (tarfile.TarError, DeserializationError, KeyError) as broken:
            raise CommandError(f"Not a backup this site can read: {broken}") from broken
        self.stdout.write(f"Restored {count} objects from {options['path']}")
