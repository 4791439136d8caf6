"""The big screen: standings and the tables still playing, for a projector at the venue."""

from __future__ import annotations

import datetime
import html as html_module
import re

import pytest
from django.test import Client
from django.urls import reverse

from standings.standings import event_standings
from tests.support.events import seated_event
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.headtohead import h2h_event, pair_and_confirm, pairs_of, play
from tournaments.models import EventFormat, Role
from tournaments.services import event_create, event_publish

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _trusted_cache(settings):
    settings.PUBLIC_CACHE_SHARED = True  # this process is the cache's only reader


def screen_urls(event) -> tuple[str, str]:
    args = [event.club.slug, event.pk]
    return reverse("event_screen", args=args), reverse("event_screen_live", args=args)


def save_deal(table, *, seat=0) -> None:
    phone = Client()
    phone.post(reverse("table_seat", args=[table.entry_key]), {"seat": seat})
    data = {"number": 1, "request_id": f"s{table.pk}", "expected_version": 0, "out": "0"}
    for position, hand in enumerate(("", "AS KD", "7H", "QS")):
        data[f"p{position}_cards"] = hand
    assert phone.post(reverse("deal_save", args=[table.entry_key, 1]), data).status_code == 302


@pytest.fixture
def big_event():
    event, tables = seated_event(variant_id="rutupeli", players=40)
    event_publish(event=event, published=True)
    return event, tables


def test_the_screen_shows_every_player_and_every_table_still_playing(client, big_event):
    event, tables = big_event
    save_deal(tables[0])
    page, _live = screen_urls(event)
    response = client.get(page)
    assert response.status_code == 200
    html = response.content.decode()
    assert event.name in html
    rows = re.findall(
        r'<li><span class="place">([=\d]+)</span><span class="name">([^<]+)</span>', html
    )
    assert len(rows) == 40  # every row is sent; the script pages them
    assert rows[0][0] == "1"
    assert "10 tables still playing" in html
    assert len(re.findall(r'<span class="number">\d+</span>', html)) == 10
    assert "1 deal" in html and 'class="unconfirmed"' in html


def test_the_screen_runs_on_the_sites_own_files_and_refreshes_itself(client, big_event):
    event, _tables = big_event
    page, live = screen_urls(event)
    html = client.get(page).content.decode()
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []  # no inline script (CSP)
    assert "/static/js/screen.js" in html and "/static/css/screen.css" in html
    assert f'hx-get="{live}"' in html and 'hx-trigger="every 10s"' in html
    assert "data-paged" in html
    assert "site-header" not in html  # nothing but the standings on the wall


def test_the_screens_poll_is_a_304_while_nothing_changes(
    client, big_event, django_assert_num_queries
):
    event, tables = big_event
    _page, live = screen_urls(event)
    first = client.get(live)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        assert client.get(live, headers={"if-none-match": first["ETag"]}).status_code == 304
    save_deal(tables[3])
    after = client.get(live, headers={"if-none-match": first["ETag"]})
    assert after.status_code == 200
    assert "1 deal" in after.content.decode()


def test_the_screen_and_its_poll_work_out_a_version_once(client, big_event, monkeypatch):
    """At 250 tables the standings are most of what either costs: the page takes its part
    from the cache the polls fill (and the reverse), so a version is worked out once."""
    from standings import screen

    worked_out = []
    real = screen.screen_context

    def counted(event):
        worked_out.append(event.pk)
        return real(event)

    monkeypatch.setattr(screen, "screen_context", counted)
    event, tables = big_event
    page, live = screen_urls(event)
    html = client.get(page).content.decode()
    tag = html_module.unescape(re.search(r'data-poll-tag="([^"]+)"', html)[1])
    assert client.get(live, headers={"if-none-match": tag}).status_code == 304
    assert client.get(live).status_code == 200
    assert worked_out == [event.pk]
    save_deal(tables[2])
    assert client.get(live).status_code == 200
    assert "1 deal" in client.get(page).content.decode()
    assert worked_out == [event.pk, event.pk]


def test_a_private_event_has_no_screen_but_for_its_directors(client):
    event, _tables = seated_event(variant_id="rutupeli", players=8)
    event_publish(event=event, published=False)
    page, live = screen_urls(event)
    assert client.get(page).status_code == 404
    assert client.get(live).status_code == 404
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    assert client.get(page).status_code == 200


def test_before_the_draw_the_screen_says_it_fills_in(client):
    event = event_create(
        club=ClubFactory(), name="Later", date=datetime.date(2026, 12, 5), variant_id="rutupeli"
    )
    event_publish(event=event, published=True)
    html = client.get(screen_urls(event)[0]).content.decode()
    assert "This screen fills in as soon as play starts." in html


def test_the_public_page_links_to_the_screen(client, big_event):
    event, _tables = big_event
    html = client.get(event.get_absolute_url()).content.decode()
    assert f'href="{screen_urls(event)[0]}"' in html


def test_a_head_to_head_screen_shows_the_wins_it_ranks_by_and_says_so(client):
    event = h2h_event(players=8, format=EventFormat.SWISS, rounds=3)
    for number in (1, 2):
        stage = pair_and_confirm(event, seed=number)
        for table, pair in zip(stage.tables.order_by("number"), pairs_of(stage), strict=True):
            play(table, min(pair) if number == 1 else max(pair))
    event_publish(event=event, published=True)
    standings = event_standings(event=event)
    html = client.get(screen_urls(event)[1]).content.decode()
    shown = re.findall(
        r'<span class="name">([^<]+)</span>.*?<span class="wins">(\d+)</span>', html, re.S
    )
    assert shown == [(row.player, str(row.wins)) for row in standings.rows]
    # Wins differ down the list, so a lower points figure above a higher one needs the reason.
    assert len({row.wins for row in standings.rows}) > 1
    assert standings.caption in html


def test_when_every_table_has_finished_the_screen_counts_none_still_playing(client):
    # "0 tables still playing" above "Every table has finished." read as a glitch.
    event = h2h_event(players=4, format=EventFormat.SWISS, rounds=3)
    stage = pair_and_confirm(event, seed=1)
    for table, pair in zip(stage.tables.order_by("number"), pairs_of(stage), strict=True):
        play(table, min(pair))
    event_publish(event=event, published=True)
    html = client.get(screen_urls(event)[1]).content.decode()
    assert "Every table has finished." in html
    assert "still playing" not in html
    assert re.search(r'<h2 id="screen-playing-title">\s*Tables\s*</h2>', html)
