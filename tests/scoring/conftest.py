from __future__ import annotations

import pytest

# The helpers live in tests/support; their names still answer here for tests written
# before they moved (new tests import them from tests.support).
from tests.support.events import new_request_id, seated_event  # noqa: F401


@pytest.fixture
def seated():
    return seated_event
