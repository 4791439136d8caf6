"""No input, however malformed, gives a server error on the table's entry endpoints."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.events import seated_event

pytestmark = pytest.mark.django_db

FIELDS = [
    "number", "request_id", "expected_version", "out", "laydown", "ravaytys", "ending", "by", "upper",
    "winner", "knock_card", *[f"p{s}_{part}" for s in range(7) for part in ("cards", "points", "buys", "special", "drop_out", "reenter")],
]  # fmt: skip
junk = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "0",
            "1",
            "3",
            "-1",
            "none",
            "99999999999",
            "AS KD",
            "pata-5-8",
            "QQQ",
            "JK JK JK JK JK",
            "♠A",
            "on",
            "1e9",
            "",
            "knock",
            "romi",
            "void",
        ]
    ),
)
posts = st.dictionaries(st.sampled_from(FIELDS), junk, max_size=12)


@pytest.fixture(scope="module", params=["rutupeli", "ravaytys", "gin_romi", "tizlapos_romi"])
def table_key(request, django_db_setup, django_db_blocker):
    # Built once per variant outside the tests' transactions, so removed again by hand.
    with django_db_blocker.unblock():
        players = 2 if request.param == "gin_romi" else 4
        event, tables = seated_event(variant_id=request.param, players=players)
    yield tables[0].entry_key
    with django_db_blocker.unblock():
        event.club.delete()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=posts, number=st.integers(min_value=0, max_value=12))
def test_entry_endpoints_never_fail_with_a_server_error(table_key, data, number):
    client = Client(raise_request_exception=True)
    client.post(reverse("table_seat", args=[table_key]), {"seat": "0"})
    # A NUL byte anywhere is refused whole (400) before any view reads it.
    nul = any("\x00" in key + value for key, value in data.items())
    check = client.post(reverse("table_check", args=[table_key]), data)
    assert check.status_code == (400 if nul else 200)
    save = client.post(reverse("deal_save", args=[table_key, number]), data)
    assert save.status_code in ({400} if nul else {200, 302, 409, 422})
    confirm = client.post(reverse("deal_confirm", args=[table_key, max(number, 1)]), data)
    assert confirm.status_code in ({400} if nul else {302, 404, 409})
