"""The ratings app: each player's strength in each game of a club, from every table played."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from ratings import sections  # noqa: F401  # an event's rating changes (standings.sections)

        # Receivers of tournaments.changes' signals, connected once the apps load.
        from ratings import receivers  # noqa: F401
