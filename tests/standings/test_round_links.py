"""Every round of a multi-round event is reachable from its pages, not only the newest: its
standings and seating from the public page, its tables' result sheets from the tables page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.factories import MembershipFactory
from tests.support.standings import series_in_round_two
from tournaments.models import Role, Table
from tournaments.services import event_publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def series():
    event = series_in_round_two()
    event_publish(event=event, published=True)
    return event


def test_the_public_page_links_every_rounds_standings_and_seating(client, series):
    args = [series.club.slug, series.pk]
    html = client.get(series.get_absolute_url()).content.decode()
    for number in (1, 2):
        assert f'href="{reverse("stage_standings", args=[*args, number])}"' in html
        assert f'href="{reverse("print_seating", args=[*args, number])}?' in html


def test_the_tables_page_links_the_earlier_rounds_result_sheets(client, series):
    client.force_login(MembershipFactory(club=series.club, role=Role.DIRECTOR).user)
    html = client.get(reverse("event_tables", args=[series.club.slug, series.pk])).content
    html = html.decode()
    for table in Table.objects.filter(stage__event=series, stage__number=1):
        url = reverse("print_table_result", args=[series.club.slug, series.pk, table.pk])
        assert f'href="{url}?' in html, table
