"""A bench's throw-away test database: Django set up, the database created, the measuring
done, the database dropped again (even when the measuring fails)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def on_test_database(measure: Callable[[], T]) -> T:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    # Imported here: DATABASE_URL may have been set by the caller just before.
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        return measure()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
