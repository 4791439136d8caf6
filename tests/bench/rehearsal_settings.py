"""The production settings with the bench's bare views beside the site's (the ceiling the
load rehearsal measures on the same server): nothing else differs."""

from clubsite.settings import *  # noqa: F403

ROOT_URLCONF = "tests.bench.bare_urls"
