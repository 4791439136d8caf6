"""A first-time visitor of a club's pages (a phone that scanned its QR code, naming none of
the site's languages) reads them in the club's language: the event's page, a table's link,
the big screen and a player's record. The phone's own choice (the language cookie), an
Accept-Language naming English, Finnish or Hungarian, and a signed-in person's choice win;
the table's 304 poll still asks no database."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from core.conditional import cache_get
from tests.support.events import seated_event
from tests.support.factories import ClubFactory, UserFactory
from tournaments.club_language import club_key, table_key

pytestmark = pytest.mark.django_db

GERMAN = "de-DE,de;q=0.9"


def _pages(language: str) -> dict[str, str]:
    """Each kind of page of an event of a club whose language is `language`."""
    club = ClubFactory(language=language, publish_guest_pages=True)
    event, (table, *_rest) = seated_event(variant_id="rutupeli", players=4, club=club)
    player = table.seats.select_related("player").first().player
    return {
        "club": reverse("club_detail", args=[club.slug]),
        "event": event.get_absolute_url(),
        "table": reverse("table_entry", args=[table.entry_key]),
        "screen": reverse("event_screen", args=[club.slug, event.pk]),
        "player": reverse("player_record", args=[club.slug, player.pk]),
    }


def _language_of(response) -> str:
    assert response.status_code == 200
    html = response.content.decode()
    language = response["Content-Language"]
    assert f'<html lang="{language}"' in html
    return language


@pytest.mark.parametrize("accept", ["", GERMAN, "*"])
@pytest.mark.parametrize("club_language", ["fi", "hu"])
def test_a_first_time_visitor_reads_every_page_in_the_clubs_language(accept, club_language):
    for kind, url in _pages(club_language).items():
        phone = Client(headers={"accept-language": accept} if accept else {})
        response = phone.get(url)
        assert _language_of(response) == club_language, kind
        # Nothing is pinned: no cookie, and a cache keeps each header's and cookie's copy.
        assert settings.LANGUAGE_COOKIE_NAME not in response.cookies, kind
        assert {"Accept-Language", "Cookie"} <= {
            part.strip() for part in response["Vary"].split(",")
        }, kind


@pytest.mark.parametrize(
    ("accept", "expected"),
    [("en-US,en;q=0.9", "en"), ("de-DE,hu;q=0.8,en;q=0.5", "hu"), ("en-GB,fi;q=0.5", "en")],
)
def test_an_accept_language_naming_a_site_language_wins_over_the_clubs(accept, expected):
    phone = Client(headers={"accept-language": accept})
    for kind, url in _pages("fi").items():
        assert _language_of(phone.get(url)) == expected, kind


def test_the_phones_own_choice_wins_over_the_clubs():
    pages = _pages("fi")
    phone = Client(headers={"accept-language": GERMAN})
    phone.post(reverse("language_set"), {"language": "hu", "next": "/"})
    for kind, url in pages.items():
        assert _language_of(phone.get(url)) == "hu", kind


def test_a_signed_in_person_reads_their_browsers_language_not_the_clubs(client):
    pages = _pages("fi")
    client.force_login(UserFactory())
    assert _language_of(client.get(pages["event"])) == settings.LANGUAGE_CODE


def test_the_same_phone_reads_each_club_in_its_own_language():
    finnish, hungarian = _pages("fi"), _pages("hu")
    phone = Client(headers={"accept-language": GERMAN})
    assert _language_of(phone.get(finnish["table"])) == "fi"
    assert _language_of(phone.get(hungarian["table"])) == "hu"
    assert _language_of(phone.get(finnish["event"])) == "fi"


def test_a_changed_club_language_is_followed_at_once():
    club = ClubFactory(language="fi")
    event, (table, *_rest) = seated_event(variant_id="rutupeli", players=4, club=club)
    phone = Client()
    assert _language_of(phone.get(event.get_absolute_url())) == "fi"
    assert _language_of(phone.get(table.get_entry_url())) == "fi"
    club.language = "hu"
    club.save()
    assert _language_of(phone.get(event.get_absolute_url())) == "hu"
    assert _language_of(phone.get(table.get_entry_url())) == "hu"


def test_a_save_of_other_fields_keeps_the_kept_language():
    club = ClubFactory(language="fi")
    event, _tables = seated_event(variant_id="rutupeli", players=4, club=club)
    Client().get(event.get_absolute_url())
    club.member_count = 3
    club.save(update_fields=["member_count"])
    assert cache_get(club_key(club.slug)) == "fi"
    club.save()
    assert cache_get(club_key(club.slug)) is None


def test_a_german_phones_table_poll_is_a_304_without_a_query(settings, django_assert_num_queries):
    settings.PUBLIC_CACHE_SHARED = True  # this process is its cache's only reader
    club = ClubFactory(language="fi")
    _event, (table, *_rest) = seated_event(variant_id="rutupeli", players=4, club=club)
    phone = Client(headers={"accept-language": GERMAN})
    phone.post(reverse("table_seat", args=[table.entry_key]), {"seat": 0})
    page = phone.get(table.get_entry_url())
    assert _language_of(page) == "fi"
    live = reverse("table_live", args=[table.entry_key])
    first = phone.get(live, headers={"hx-request": "true"})
    assert first.status_code == 200 and "ETag" in first
    with django_assert_num_queries(0):
        again = phone.get(live, headers={"hx-request": "true", "if-none-match": first["ETag"]})
    assert again.status_code == 304
    # The tag names the page's language: an English phone holding it gets the part anew.
    english = phone.get(
        live,
        headers={"hx-request": "true", "if-none-match": first["ETag"], "accept-language": "en"},
    )
    assert english.status_code == 200
    assert english["ETag"] != first["ETag"]


def test_a_feed_is_never_in_the_clubs_language():
    club = ClubFactory(language="fi")
    event, _tables = seated_event(variant_id="rutupeli", players=4, club=club)
    feed = Client().get(reverse("event_standings_feed", args=[club.slug, event.pk]))
    assert feed.status_code == 200
    assert feed.get("Content-Language") == settings.LANGUAGE_CODE


def test_a_made_up_address_gets_the_sites_language_and_fills_no_cache():
    phone = Client(headers={"accept-language": GERMAN})
    made_up = "A" * 22
    gone = phone.get(reverse("table_entry", args=[made_up]))
    assert gone.status_code == 404 and gone["Content-Language"] == settings.LANGUAGE_CODE
    assert phone.get("/clubs/no-such-club/").status_code == 404
    assert cache_get(table_key(made_up)) is None
    assert cache_get(club_key("no-such-club")) is None
