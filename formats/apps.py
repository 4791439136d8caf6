"""The formats app: championships, series and head-to-head rounds over tournaments' pure code."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FormatsConfig(AppConfig):
    name = "formats"
    verbose_name = _("Event formats")

    def ready(self) -> None:
        # A play-off's confirmed deal records its tie-break (a results_changed receiver).
        from formats import playoffs  # noqa: F401
