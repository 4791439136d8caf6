"""Django's Redis cache, made cheap for the reads every poll makes.

- One Redis client per connection pool: Django's backend builds a new `redis.Redis` around
  its pool for every call, and redis-py fills some 170 response callbacks into each new
  one: about a third of what a table's poll answered from the cache cost
  (tests/bench/bench_table_poll.py). A client is safe to share between threads (each
  command takes a connection from the pool), so one is kept.
- No memcached key check: Django walks every character of every key looking for what
  memcached refuses (spaces, control characters, 250 characters); Redis takes any key.
- A value read is unpickled without first failing to read it as a number: Django tries
  int() on every value, and a pickled one (all but plain integers) raises and catches a
  ValueError each time.
"""

from __future__ import annotations

import pickle
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient, RedisSerializer

_PICKLE = pickle.PROTO  # a pickle of protocol 2 or later starts with this byte


class _Serializer(RedisSerializer):
    def loads(self, data: Any) -> Any:
        if data[:1] == _PICKLE:
            return pickle.loads(data)
        return int(data)


class _KeptClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._serializer = _Serializer()

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

    def validate_key(self, key: str) -> None:
        """Redis takes any key: nothing to check."""
