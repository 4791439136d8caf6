"""The site's settings plus the bare views the public-page bench compares against.

Nothing else differs from production: the static files are the collected, hashed ones.
"""

from __future__ import annotations

from clubsite.settings import *  # noqa: F403

ROOT_URLCONF = "tests.bench.bare_urls"
