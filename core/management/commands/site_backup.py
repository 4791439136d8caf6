from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from core.backup import site_backup


class Command(BaseCommand):
    help = "Back up the whole site (database and media files) into one .tar.gz (docs/backup.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the file to write, or - for standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["path"] == "-":  # docker compose exec -T web ... site_backup - > file
            site_backup(out=sys.stdout.buffer)
            return
        with Path(options["path"]).open("wb") as out:
            files = site_backup(out=out)
        self.stdout.write(f"Backed up the database and {files} media files to {options['path']}")
