"""A NUL byte anywhere a browser can put one: in every cookie the site reads, in every
header, on every kind of page. Never a server error (PostgreSQL cannot store a NUL, and
used to raise wherever one reached a query: the session's key, the user agent a failed
sign-in stores). Runs on SQLite and again on PostgreSQL."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tests.support.events import seated_event

pytestmark = pytest.mark.django_db

NUL_VALUE = "\x00abcdefgh"
COOKIES = [
    settings.SESSION_COOKIE_NAME,
    settings.CSRF_COOKIE_NAME,
    settings.LANGUAGE_COOKIE_NAME,
    "lappu_device",
    "messages",
    "somebody_elses",
]
HEADERS = [
    "HTTP_USER_AGENT", "HTTP_REFERER", "HTTP_ACCEPT_LANGUAGE", "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO", "HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE", "HTTP_HX_REQUEST",
    "HTTP_ORIGIN", "HTTP_AUTHORIZATION", "HTTP_X_CSRFTOKEN", "HTTP_ACCEPT", "HTTP_HOST",
    "REMOTE_ADDR", "CONTENT_TYPE",
]  # fmt: skip


@pytest.fixture
def pages():
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    return [
        ("get", "/"),
        ("get", event.club.get_absolute_url()),
        ("get", event.get_absolute_url()),
        ("get", f"/clubs/{event.club.slug}/events/{event.pk}/live/"),
        ("get", table.get_entry_url()),
        ("get", f"/t/{table.entry_key}/live/"),
        ("post", f"/t/{table.entry_key}/seat/"),
        ("post", "/accounts/login/"),
        ("get", "/healthz"),
    ]


@pytest.mark.parametrize("cookie", COOKIES)
def test_a_nul_in_any_cookie_is_forgotten_and_the_page_works(pages, cookie):
    for method, path in pages:
        client = Client(raise_request_exception=False)
        client.cookies[cookie] = NUL_VALUE
        data = {"username": "someone", "password": "x", "seat": "0"} if method == "post" else {}
        response = getattr(client, method)(path, data)
        assert response.status_code < 500, (cookie, path, response.status_code)
        if method == "get" and path != "/healthz":
            assert response.status_code in (200, 302), (cookie, path, response.status_code)
            # The browser is told to forget it, so its next page does not carry it again.
            assert response.cookies[cookie]["max-age"] == 0, (cookie, path)


@pytest.mark.parametrize("header", HEADERS)
def test_a_nul_in_any_header_is_a_bad_request(pages, header):
    for method, path in pages:
        client = Client(raise_request_exception=False)
        data = {"username": "someone", "password": "x"} if method == "post" else {}
        response = getattr(client, method)(path, data, **{header: "x" + NUL_VALUE})
        assert response.status_code < 500, (header, path, response.status_code)
        if path != "/healthz":  # the probe reads no header
            assert response.status_code == 400, (header, path, response.status_code)


def test_a_nul_session_cookie_on_a_signed_in_browser_signs_it_out_cleanly(client, owner):
    client.force_login(owner)
    client.cookies[settings.SESSION_COOKIE_NAME] = NUL_VALUE
    response = client.get("/")
    assert response.status_code == 200
    assert b'href="/accounts/login/' in response.content
