"""The site's settings plus the bare views the public-page bench compares against."""

from __future__ import annotations

from clubsite.settings import *  # noqa: F403

ROOT_URLCONF = "tests.bench.bare_urls"
# The bench measures pages, not static files: no collectstatic manifest to build first.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
