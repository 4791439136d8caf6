"""core.ratelimit: a fixed window per client and scope in the cache, failing open."""

from __future__ import annotations

import logging
import math
import uuid

import pytest
from django.core.cache.backends.base import BaseCache
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import path

from clubsite import urls as site_urls
from core import ratelimit
from core.ratelimit import Rate, client_ip, client_ip_and_target, rate_for, rate_limit

WINDOW_START = 1_000_000 * 60.0  # a minute boundary


@rate_limit(scope="rl_check", rate="3/m")
def _check(request: HttpRequest, key: str) -> HttpResponse:
    return HttpResponse("checked")


@rate_limit(scope="rl_posts", rate="1/m", methods=("POST",))
def _posts(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


@rate_limit(scope="rl_address", rate="2/m", key=client_ip)
def _by_address(request: HttpRequest, key: str) -> HttpResponse:
    return HttpResponse("ok")


urlpatterns = [
    *site_urls.urlpatterns,
    path("rl/<str:key>/check/", _check),
    path("rl/posts/", _posts),
    path("rl/<str:key>/address/", _by_address),
]
handler404 = site_urls.handler404
handler500 = site_urls.handler500

pytestmark = [pytest.mark.urls(__name__), pytest.mark.rate_limited]


class Clock:
    def __init__(self) -> None:
        self.now = WINDOW_START + 15

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(ratelimit, "_now", clock)
    monkeypatch.setattr(ratelimit, "_last_warning", -math.inf)
    return clock


def _client(address: str = "10.0.0.1", **headers: str) -> Client:
    return Client(REMOTE_ADDR=address, headers=headers)


def test_the_request_after_the_limit_gets_429_with_retry_after(db):
    client = _client()
    for _ in range(3):
        assert client.get("/rl/table-a/check/").status_code == 200
    response = client.get("/rl/table-a/check/")
    assert response.status_code == 429
    assert response["Retry-After"] == "45"  # 15 s into the minute
    assert "no-cache" in response["Cache-Control"]
    assert "<h1>Too many requests</h1>" in response.content.decode()


def test_the_429_page_is_translated(db):
    client = _client()
    client.cookies["django_language"] = "fi"
    for _ in range(4):
        response = client.get("/rl/table-a/check/")
    assert response.status_code == 429
    html = response.content.decode()
    assert '<html lang="fi">' in html
    assert "Lappu pitää kerhosi pistekirjanpidon." in html


def test_an_htmx_request_gets_a_short_fragment(db):
    client = _client(**{"HX-Request": "true"})
    for _ in range(3):
        client.get("/rl/table-a/check/")
    response = client.get("/rl/table-a/check/")
    assert response.status_code == 429
    assert response["Retry-After"] == "45"
    body = response.content.decode()
    assert body.startswith('<div class="check bad slow-down"')
    assert "<html" not in body
    assert "wait a moment" in body


def test_another_key_is_unaffected(db):
    first = _client("10.0.0.1")
    for _ in range(4):
        first.get("/rl/table-a/check/")
    assert first.get("/rl/table-a/check/").status_code == 429
    # The same address on another table, and another address on the same table.
    assert first.get("/rl/table-b/check/").status_code == 200
    assert _client("10.0.0.2").get("/rl/table-a/check/").status_code == 200


def test_a_key_of_the_address_alone_counts_every_table_together(db):
    client = _client()
    assert client.get("/rl/table-a/address/").status_code == 200
    assert client.get("/rl/table-b/address/").status_code == 200
    assert client.get("/rl/table-c/address/").status_code == 429


def test_the_window_resets(db, clock):
    client = _client()
    for _ in range(4):
        client.get("/rl/table-a/check/")
    clock.now += 44
    assert client.get("/rl/table-a/check/").status_code == 429
    clock.now += 1  # the next minute
    for _ in range(3):
        assert client.get("/rl/table-a/check/").status_code == 200
    assert client.get("/rl/table-a/check/").status_code == 429


def test_the_rate_is_a_setting(db, settings):
    settings.RATE_LIMITS = {"rl_check": "1/m"}
    client = _client()
    assert client.get("/rl/table-a/check/").status_code == 200
    assert client.get("/rl/table-a/check/").status_code == 429
    settings.RATE_LIMITS = {"rl_check": None}  # None: this scope is not limited
    for _ in range(5):
        assert client.get("/rl/table-a/check/").status_code == 200


def test_limits_can_be_switched_off(db, settings):
    settings.RATE_LIMIT_ENABLED = False
    client = _client()
    for _ in range(10):
        assert client.get("/rl/table-a/check/").status_code == 200


def test_only_the_named_methods_are_counted(db):
    client = _client()
    for _ in range(5):
        assert client.get("/rl/posts/").status_code == 200
    assert client.post("/rl/posts/").status_code == 200
    assert client.post("/rl/posts/").status_code == 429


@pytest.mark.parametrize(
    "cache",
    [
        # Redis down: nothing listens on port 1.
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        },
        {"BACKEND": "tests.core.test_ratelimit.RaisingCache"},
    ],
    ids=["redis-down", "raising"],
)
def test_a_cache_that_fails_lets_requests_through_and_warns(db, settings, caplog, cache):
    settings.CACHES = {**settings.CACHES, "ratelimit": cache}
    settings.RATE_LIMIT_CACHE = "ratelimit"
    client = _client()
    with caplog.at_level(logging.WARNING, logger="core.ratelimit"):
        for _ in range(6):
            assert client.get("/rl/table-a/check/").status_code == 200
    warnings = [r for r in caplog.records if r.name == "core.ratelimit"]
    assert len(warnings) == 1  # once, not once a request
    assert "cannot be reached" in warnings[0].getMessage()


class RaisingCache(BaseCache):
    """A cache whose every read and write fails, as a client does with its server gone."""

    def __init__(self, location: str = "", params: dict | None = None) -> None:
        super().__init__(params or {})

    def _fail(self, *args, **kwargs):
        raise ConnectionError("cache unreachable")

    add = get = set = incr = delete = touch = clear = _fail


def test_the_default_key_is_the_address_and_what_the_view_is_about(club):
    request = RequestFactory(REMOTE_ADDR="10.1.1.1").get("/")
    # A decorator inside another that already looked the table up gets the model itself.
    assert client_ip_and_target(request, club) == f"10.1.1.1|tournaments.club:{club.pk}"
    assert client_ip_and_target(request, key="abc", number=3) == "10.1.1.1|abc"
    assert client_ip_and_target(request) == "10.1.1.1"


def test_behind_trusted_proxies_the_address_comes_from_x_forwarded_for(settings):
    request = RequestFactory(
        REMOTE_ADDR="172.16.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7"
    ).get("/")
    assert client_ip(request) == "172.16.0.2"  # no proxy configured: the header is ignored
    settings.RATE_LIMIT_PROXY_COUNT = 1
    assert client_ip(request) == "198.51.100.7"  # never the client-written left end
    settings.RATE_LIMIT_PROXY_COUNT = 3  # fewer entries than proxies: not to be trusted
    assert client_ip(request) == "172.16.0.2"


@pytest.mark.parametrize(
    ("text", "rate"),
    [
        ("120/m", Rate(120, 60)),
        ("5/s", Rate(5, 1)),
        ("20/10s", Rate(20, 10)),
        ("1000/h", Rate(1000, 3600)),
        ("100/day", Rate(100, 86400)),
        (" 60 / min ", Rate(60, 60)),
    ],
)
def test_rates_are_read(text, rate):
    assert Rate.parse(text, name="x") == rate


@pytest.mark.parametrize("text", ["", "120", "0/m", "12/w", "/m", "m/12", "5/0s", 120])
def test_a_bad_rate_names_the_setting(text, settings):
    settings.RATE_LIMITS = {"rl_bad": text}
    with pytest.raises(ImproperlyConfigured, match=r"RATE_LIMITS\['rl_bad'\]"):
        rate_for("rl_bad")


def test_a_scope_without_a_rate_fails_at_start_up():
    with pytest.raises(ImproperlyConfigured, match="has no rate"):
        rate_limit(scope="rl_nowhere")


def test_the_table_scopes_have_default_rates():
    for scope in ("table_check", "table_live", "table_write"):
        assert rate_for(scope) is not None


def test_the_live_check_of_a_table_is_limited_per_table(db, settings):
    from tests.support.events import seated_event

    settings.RATE_LIMITS = {"table_check": "2/m"}
    _event, (first, second) = seated_event(variant_id="rutupeli", players=8)
    client = _client(**{"HX-Request": "true"})
    check = f"{first.get_entry_url()}check/"
    assert [client.post(check).status_code for _ in range(3)] == [200, 200, 429]
    assert client.post(f"{second.get_entry_url()}check/").status_code == 200


def test_on_redis_concurrent_requests_are_counted_exactly(settings):
    """Every worker shares one count: add + incr are atomic on Redis, so of 40 requests at
    once exactly the limit get through."""
    if not settings.REDIS_URL:
        pytest.skip("needs REDIS_URL: make test runs this in its PostgreSQL + Redis pass")
    from concurrent.futures import ThreadPoolExecutor

    settings.CACHES = {
        **settings.CACHES,
        "ratelimit": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": settings.REDIS_URL,
        },
    }
    settings.RATE_LIMIT_CACHE = "ratelimit"
    rate = Rate(10, 60)
    key = f"concurrency-{uuid.uuid4()}"
    with ThreadPoolExecutor(max_workers=8) as pool:
        verdicts = list(pool.map(lambda _: ratelimit.hit("rl_redis", key, rate), range(40)))
    assert sorted(v.count for v in verdicts) == list(range(1, 41))
    assert sum(v.allowed for v in verdicts) == 10
