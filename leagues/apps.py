"""The leagues app: season league tables."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("League tables")

    def ready(self) -> None:
        # Receivers of tournaments.changes.results_changed, connected once the apps load.
        from leagues import receivers  # noqa: F401
