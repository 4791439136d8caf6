"""Django's `dumpdata`, always through the base managers: a default manager may hide rows
(`Table.objects` leaves out play-off tables), and a plain `dumpdata`, Django's usual backup,
then lost them and wrote a file that could not be loaded again (their seats pointed at
nothing). `site_backup` (docs/backup.md) is the backup to use; this keeps the usual one whole."""

from __future__ import annotations

from typing import Any

from django.core.management.commands import dumpdata


class Command(dumpdata.Command):
    def handle(self, *app_labels: str, **options: Any) -> None:
        options["use_base_manager"] = True
        super().handle(*app_labels, **options)
