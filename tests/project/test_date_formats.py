"""Dates and times read one unambiguous way in each language, on pages and PDFs alike: an EU
club's English says "6 Dec 2026" and "15:14", never "12/06/2026", "Dec. 6, 2026" or "3:14 a.m."."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import formats, translation

from tests.support.factories import ClubFactory
from tournaments.services import event_create, event_publish

DAY = datetime.date(2026, 12, 6)
MOMENT = datetime.datetime(2026, 12, 6, 15, 14)

EXPECTED = {
    # language: DATE_FORMAT, SHORT_DATE_FORMAT, TIME_FORMAT, SHORT_DATETIME_FORMAT
    "en": ("6 Dec 2026", "6 Dec 2026", "15:14", "6 Dec 2026, 15:14"),
    "fi": ("6. joulukuuta 2026", "6.12.2026", "15.14", "6.12.2026 15.14"),
    "hu": ("2026. december 6.", "2026.12.06.", "15:14", "2026.12.06. 15:14"),
}


@pytest.mark.parametrize("language", sorted(EXPECTED))
def test_each_language_has_one_style_of_date_and_24_hour_time(language):
    with translation.override(language):
        shown = (
            formats.date_format(DAY, "DATE_FORMAT"),
            formats.date_format(DAY, "SHORT_DATE_FORMAT"),
            formats.time_format(MOMENT.time(), "TIME_FORMAT"),
            formats.date_format(MOMENT, "SHORT_DATETIME_FORMAT"),
        )
    assert shown == EXPECTED[language]
    # A timestamp never says am/pm: the same hour reads the same on every page and PDF.
    with translation.override(language):
        assert formats.date_format(MOMENT, "DATETIME_FORMAT").endswith(EXPECTED[language][2])


@pytest.mark.django_db
def test_an_english_public_page_shows_the_one_date_style(client):
    event = event_create(
        club=ClubFactory(language="en"), name="Joulu", date=DAY, variant_id="rutupeli"
    )
    event_publish(event=event, published=True)
    html = client.get(event.get_absolute_url(), headers={"accept-language": "en"}).content.decode()
    assert "6 Dec 2026" in html
    assert "Dec. 6" not in html
    screen = reverse("event_screen", args=[event.club.slug, event.pk])
    assert "6 Dec 2026" in client.get(screen).content.decode()
