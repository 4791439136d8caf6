from __future__ import annotations

import pytest

# The helpers live in tests/support; their names still answer here for tests written
# before they moved (new tests import them from tests.support).
from tests.support.events import drawn_event  # noqa: F401


@pytest.fixture
def broken_smtp(settings):
    """A mail server that refuses every connection: the SMTP backend at a closed port."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = 9  # discard: nothing listens there
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = 2
