"""Django's Redis cache, keeping one Redis client per connection pool.

Django's backend builds a new `redis.Redis` around its pool for every call, and redis-py
fills some 170 response callbacks into each new one: about a third of what a table's poll
answered from the cache costs (tests/bench/bench_table_poll.py). A client is safe to share
between threads (each command takes a connection from the pool), so one is kept.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class _KeptClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # (Django's own choice of server, which its type stubs do not list.)
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = super().get_client(key, write=write)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _KeptClient
