from __future__ import annotations

import pytest


@pytest.fixture
def media(settings, tmp_path):
    """MEDIA_ROOT in a temporary folder of the test's own: the PDFs it makes go there."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT
