"""The event's format in plain words, on its public page and its manage page."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.support.championship import championship
from tests.support.series import series_event
from tournaments.selectors import event_format_rows

pytestmark = pytest.mark.django_db


def test_a_championship_says_who_goes_on_on_its_pages(client):
    event, _stage, director = championship(9, top_k=2)
    page = client.get(reverse("event_public", args=[event.club.slug, event.pk])).content.decode()
    assert "Format: table-winner championship" in page
    assert "the top 2 of each table" in page and "Lucky losers" in page
    client.force_login(director)
    manage = client.get(reverse("event_manage", args=[event.club.slug, event.pk])).content.decode()
    assert "the top 2 of each table" in manage


def test_the_format_is_told_in_the_readers_language():
    event, _tables = series_event(8, rounds=3, series_ranking="placement")
    with translation.override("en"):
        english = dict(event_format_rows(event=event))
    with translation.override("fi"):
        finnish = dict(event_format_rows(event=event))
    assert english["Rounds"] == "3"
    assert english["Ranking"].startswith("by placement points")
    assert set(finnish) != set(english)  # the labels are translated too
    assert "3" in finnish.values()
