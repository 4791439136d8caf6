from __future__ import annotations

import pytest

from tests.support.events import seated_event


@pytest.fixture
def seated():
    return seated_event
