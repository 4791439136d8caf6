from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        # Receivers of tournaments.changes.results_changed: the public pages' caches follow
        # every result change.
        from scoring import cache_receivers  # noqa: F401
