"""Whatever a director's browser posts, the event pages answer without a server error."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role

pytestmark = pytest.mark.django_db

junk = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", "0", "1", "-1", "99999999999999999999", "withdrawn", "checked_in", "x"]),
)
posts = st.dictionaries(
    st.sampled_from(["player", "name", "status", "first", "second", "seat"]), junk, max_size=4
)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=posts)
def test_director_endpoints_never_fail(db, data):
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    client = Client(raise_request_exception=True)
    client.force_login(director)
    registration = event.registrations.first()
    args = [event.club.slug, event.pk]
    for name, extra in [
        ("registration_create", []),
        ("registration_update", [registration.pk]),
        ("seats_swap", []),
        ("table_revoke", [table.pk]),
        ("draw", []),  # a redraw replaces the tables, so it comes after the table's own page
        ("draw_confirm", []),
    ]:
        response = client.post(reverse(name, args=[*args, *extra]), data)
        # A NUL byte anywhere is refused whole (400) before any view reads it.
        nul = any("\x00" in key + value for key, value in data.items())
        # A withdrawal is asked on a page of its own first (200).
        assert response.status_code in ({400} if nul else {200, 302}), (name, data)
    assert client.get(reverse("event_manage", args=args)).status_code == 200
    new = client.post(
        reverse("event_new", args=[event.club.slug]), {**data, "date": data.get("name", "")}
    )
    assert new.status_code in ({400} if nul else {200, 302})
