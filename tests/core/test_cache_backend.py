"""The site's Redis cache keeps one client per connection pool (Django's builds one per
call), and behaves as Django's otherwise: values kept, a Redis that is down an error the
callers already handle (core.conditional)."""

from __future__ import annotations

import socket
import threading

import pytest
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from redis.exceptions import ConnectionError as RedisConnectionError

from core.cache import RedisCache


def _redis_up() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
        return True
    except OSError:
        return False


def _cache(location: str) -> RedisCache:
    return RedisCache(location, {"OPTIONS": {"socket_connect_timeout": 0.2}})


def test_one_client_is_kept_where_djangos_backend_makes_one_per_call():
    cache = _cache("redis://127.0.0.1:6379/15")
    assert cache._cache.get_client() is cache._cache.get_client(write=True)
    django = DjangoRedisCache("redis://127.0.0.1:6379/15", {})
    assert django._cache.get_client() is not django._cache.get_client()


@pytest.mark.skipif(not _redis_up(), reason="needs Redis on 127.0.0.1:6379")
def test_the_kept_client_serves_threads_alike():
    cache = _cache("redis://127.0.0.1:6379/15")
    seen: list[object] = []

    def work(index: int) -> None:
        cache.set(f"lappu-test-kept-{index}", index, 30)
        seen.append(cache.get_many([f"lappu-test-kept-{index}"]))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(seen, key=str) == sorted(({f"lappu-test-kept-{i}": i} for i in range(8)), key=str)
    cache.delete_many([f"lappu-test-kept-{i}" for i in range(8)])


def test_a_redis_that_is_down_is_an_error_as_with_djangos():
    cache = _cache("redis://127.0.0.1:1/0")
    with pytest.raises(RedisConnectionError):
        cache.get("anything")
    with pytest.raises(RedisConnectionError):  # and again: nothing broken is kept
        cache.get("anything")


@pytest.mark.skipif(not _redis_up(), reason="needs Redis on 127.0.0.1:6379")
def test_every_kind_of_value_reads_back_as_djangos_backend_stored_it():
    """Values written by Django's own backend (the two share Redis) read back alike, numbers
    kept as numbers (incr works) and everything else unpickled without a failed int()."""
    ours, django = (
        _cache("redis://127.0.0.1:6379/15"),
        DjangoRedisCache("redis://127.0.0.1:6379/15", {}),
    )
    values = {"int": 7, "negative": -3, "zero": 0, "text": "12", "bool": True, "none": None,
              "bytes": b"\x80x", "float": 1.5, "dict": {"a": [1, 2]}}  # fmt: skip
    django.set_many({f"lappu-test-kind-{k}": v for k, v in values.items()}, 30)
    read = ours.get_many([f"lappu-test-kind-{k}" for k in values])
    assert read == {f"lappu-test-kind-{k}": v for k, v in values.items()}
    assert type(read["lappu-test-kind-bool"]) is bool and type(read["lappu-test-kind-text"]) is str
    assert ours.incr("lappu-test-kind-int") == 8
    ours.delete_many([f"lappu-test-kind-{k}" for k in values])


@pytest.mark.skipif(not _redis_up(), reason="needs Redis on 127.0.0.1:6379")
def test_a_key_memcached_would_refuse_is_kept_without_a_warning(recwarn):
    cache = _cache("redis://127.0.0.1:6379/15")
    key = "a key with spaces " + "x" * 300
    cache.set(key, 1, 30)
    assert cache.get(key) == 1
    assert not [w for w in recwarn if "memcached" in str(w.message).lower()]
    cache.delete(key)
