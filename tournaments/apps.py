from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Clubs and tournaments")

    def ready(self) -> None:
        from tournaments import signals  # noqa: F401 - connects the receivers
