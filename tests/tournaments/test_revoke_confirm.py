from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(client):
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    client.force_login(director)
    return event, table


def test_revoke_button_leads_to_a_confirmation_page(client, setup):
    event, table = setup
    args = [event.club.slug, event.pk, table.pk]
    manage = client.get(reverse("event_manage", args=args[:2])).content.decode()
    confirm_url = reverse("table_revoke_confirm", args=args)
    assert f'href="{confirm_url}"' in manage
    # The manage page no longer posts straight to the revoke endpoint.
    assert f'action="{reverse("table_revoke", args=args)}"' not in manage

    old = table.entry_key
    page = client.get(confirm_url)
    assert page.status_code == 200
    html = page.content.decode()
    assert (
        f"Replace table {table.number}'s link? Phones on the old link stop working "
        "at their next refresh." in html
    )
    assert f'action="{reverse("table_revoke", args=args)}"' in html
    assert "Confirm" in html and "Cancel" in html
    assert "<script" not in html.split("<main", 1)[-1]
    table.refresh_from_db()
    assert table.entry_key == old  # looking at the question changes nothing

    assert client.post(reverse("table_revoke", args=args)).status_code == 302
    table.refresh_from_db()
    assert table.entry_key != old


def test_revoke_confirmation_is_for_the_director_only(client, setup):
    event, table = setup
    other = MembershipFactory(club=event.club, role=Role.MEMBER).user
    client.force_login(other)
    url = reverse("table_revoke_confirm", args=[event.club.slug, event.pk, table.pk])
    assert client.get(url).status_code in {403, 404}
