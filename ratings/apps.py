"""The ratings app: each player's strength in each game of a club, from every table played."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # Receivers of tournaments.changes' signals, and the event page's rating changes
        # (a section standings.sections shows), connected once the apps load.
        from ratings import receivers, sections  # noqa: F401
