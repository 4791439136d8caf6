"""A phone's table poll that finds nothing new is answered before the middleware: no session,
authentication, CSRF or locale runs for it, only the headers every answer carries; what it
cannot answer (a change, someone signed in, another language) goes to the view as before."""

from __future__ import annotations

import math

import pytest
from django.test import Client
from django.urls import reverse

from core import conditional
from tests.support.events import seated_event
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.poll_stack import counted_stack
from tournaments.models import Role

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _trusted_cache(settings):
    # The test process is the only reader of its local-memory cache: trusted as Redis is.
    settings.PUBLIC_CACHE_SHARED = True
    yield
    conditional._down_until = -math.inf


@pytest.fixture
def table():
    club = ClubFactory(language="hu")
    _event, (table, *_rest) = seated_event(variant_id="rutupeli", players=4, club=club)
    return table


def _phone(table, headers=None) -> Client:
    phone = Client(headers=headers or {})
    phone.post(reverse("table_seat", args=[table.entry_key]), {"seat": 0})
    return phone


def _live(table) -> str:
    return reverse("table_live", args=[table.entry_key])


@pytest.fixture
def stack():
    """Counts the requests that reach the middleware past the early answer, and the view."""
    with counted_stack() as counted:
        yield counted


def test_an_unchanged_poll_never_reaches_sessions_or_the_view(table, stack, settings):
    sessions, view = stack
    phone = _phone(table)
    tag = phone.get(_live(table))["ETag"]
    sessions.reset_mock()
    view.reset_mock()
    answer = phone.get(_live(table), headers={"if-none-match": tag})
    assert answer.status_code == 304
    assert sessions.call_count == 0 and view.call_count == 0
    # What every answer of the site carries, and what the whole stack would add.
    assert answer["X-Frame-Options"] == "DENY"
    assert "no-store" in answer["Cache-Control"]
    assert {"Accept-Language", "Cookie"} <= {p.strip() for p in answer["Vary"].split(",")}
    assert answer["Content-Language"] == "hu"  # the club's, as the page was shown
    # Without the early answer the view gives the same verdict (one rule, two places).
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if "TablePoll" not in m]
    assert phone.get(_live(table), headers={"if-none-match": tag}).status_code == 304


def test_a_change_goes_through_the_whole_stack(table, stack):
    sessions, view = stack
    phone = _phone(table)
    tag = phone.get(_live(table))["ETag"]
    sessions.reset_mock()
    _phone(table).post(reverse("table_seat", args=[table.entry_key]), {"seat": 1})
    sessions.reset_mock()
    view.reset_mock()
    changed = phone.get(_live(table), headers={"if-none-match": tag})
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert sessions.call_count == 1 and view.call_count == 1


@pytest.mark.parametrize(
    ("headers", "cookie", "expected"),
    [
        ({}, None, "hu"),  # the club's language
        ({"accept-language": "fi-FI,fi;q=0.9"}, None, "fi"),  # the browser's
        ({"accept-language": "de-DE"}, "en", "en"),  # the switch's cookie
    ],
)
def test_the_early_answer_decides_the_language_as_the_middleware_does(
    table, stack, headers, cookie, expected
):
    sessions, view = stack
    phone = _phone(table, headers)
    if cookie:
        phone.cookies["django_language"] = cookie
    first = phone.get(_live(table))
    assert first["Content-Language"] == expected
    sessions.reset_mock()
    view.reset_mock()
    again = phone.get(_live(table), headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304 and again["Content-Language"] == expected
    assert sessions.call_count == 0 and view.call_count == 0


def test_a_phone_that_changed_its_language_gets_the_part_in_the_new_one(table):
    phone = _phone(table)
    tag = phone.get(_live(table))["ETag"]
    phone.cookies["django_language"] = "en"
    after = phone.get(_live(table), headers={"if-none-match": tag})
    assert after.status_code == 200 and after["Content-Language"] == "en"


def test_someone_signed_in_is_answered_by_the_view(table, stack):
    sessions, view = stack
    director = MembershipFactory(club=table.stage.event.club, role=Role.DIRECTOR).user
    phone = _phone(table)
    phone.force_login(director)
    tag = phone.get(_live(table))["ETag"]
    sessions.reset_mock()
    view.reset_mock()
    # Their tag is theirs (it names who asks): the view answers it, after the session.
    assert phone.get(_live(table), headers={"if-none-match": tag}).status_code == 304
    assert sessions.call_count == 1 and view.call_count == 1


def test_with_the_cache_down_the_poll_is_computed(table, settings):
    phone = _phone(table)
    tag = phone.get(_live(table))["ETag"]
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    answer = phone.get(_live(table), headers={"if-none-match": tag})
    assert answer.status_code == 200  # no 304 without the versions, and no server error
