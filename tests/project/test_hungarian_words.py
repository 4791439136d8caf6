"""Hungarian as a Hungarian club reads it: no "A(z)" placeholder article before a number, a
table always "1. asztal", no English word left on the table page."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse

from tests.support.entry import deal_post, seated_client
from tests.support.events import seated_event

PO = Path(__file__).resolve().parents[2] / "locale" / "hu" / "LC_MESSAGES" / "django.po"


def test_no_hungarian_message_leaves_the_article_to_the_reader():
    # A seat's message is shown with the player's name in the article's place (core.i18n).
    left = [
        entry.msgid
        for entry in polib.pofile(str(PO))
        if not entry.obsolete and "%(seat)d" not in entry.msgid
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        if "a(z)" in text.lower()
    ]
    assert not left, left


@pytest.mark.django_db
def test_the_hungarian_table_and_event_pages_say_one_asztal_and_no_english(client):
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    seated_client(table, 0).post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    phone = seated_client(table, 1)
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    page = phone.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    assert "1. asztal" in page
    assert "1. játszma: megerősítésre vár." in page
    assert "A(z)" not in page
    assert 'data-t-online="Online"' not in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    public = client.get(event.get_absolute_url()).content.decode()
    assert "1. asztal" in public and "Asztal 1" not in public
