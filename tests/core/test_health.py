"""`/healthz`: answered first, for any host, over plain HTTP, with no cookie; 503 naming the
part that fails."""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings

from core import health

pytestmark = pytest.mark.django_db


def test_a_healthy_site_says_so_in_one_query_and_sets_no_cookie(client, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-store"
    assert not response.cookies
    body = json.loads(response.content)
    assert body["status"] == "ok"
    assert {name: check["status"] for name, check in body["checks"].items()} == {
        "database": "ok",
        "cache": "ok",
    }


@override_settings(DEBUG=False, SECURE_SSL_REDIRECT=True, ALLOWED_HOSTS=["lappu.example"])
def test_the_probe_needs_no_allowed_host_and_no_https():
    # Docker's probe asks http://127.0.0.1:8000 inside the container.
    response = Client().get("/healthz", HTTP_HOST="127.0.0.1:8000")
    assert response.status_code == 200
    assert Client().get("/", HTTP_HOST="127.0.0.1:8000").status_code == 400  # the rest checks


def test_a_failing_part_is_a_503_that_names_it(client, monkeypatch):
    def broken() -> None:
        raise ConnectionError("refused")

    monkeypatch.setitem(health.CHECKS, "cache", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["status"] == "failing"
    assert body["checks"]["cache"]["status"] == "failing: ConnectionError"
    assert body["checks"]["database"]["status"] == "ok"


@override_settings(
    CACHES={
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
)
def test_an_unreachable_redis_is_reported_not_raised(client):
    response = client.get("/healthz")
    assert response.status_code == 503
    assert json.loads(response.content)["checks"]["cache"]["status"].startswith("failing")


def test_only_get_and_head(client):
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405
