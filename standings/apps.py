"""The standings app: standings and publishing: public pages, the big screen, feeds, downloads."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StandingsConfig(AppConfig):
    name = "standings"
    verbose_name = _("Standings")

    def ready(self) -> None:
        # The results mail's receiver of tournaments.changes.results_changed.
        from standings import receivers  # noqa: F401
