from __future__ import annotations

from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    """What is kept about a person, and what they (or their club's director) can do about
    it: the privacy page, hiding a record, the download of one's data, erasure."""

    name = "privacy"
    verbose_name = "Privacy"
