"""What the production lane's tests share: the stack's URLs and the crawl's answers."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from tests.production.browser import Answer

SERVER_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/lappu")


REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def reachable(url: str, port: int) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or port), 2):
            return True
    except OSError:
        return False


@dataclass
class Crawled:
    anonymous: list[Answer]
    director: list[Answer]
    tables: list[Answer]
    admin: list[Answer]
    table_links: list[str]

    @property
    def answers(self) -> list[Answer]:
        return [*self.anonymous, *self.director, *self.tables, *self.admin]
