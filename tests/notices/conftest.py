from __future__ import annotations

import pytest


@pytest.fixture
def broken_smtp(settings):
    """A mail server that refuses every connection: the SMTP backend at a closed port."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = 9  # discard: nothing listens there
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = 2
