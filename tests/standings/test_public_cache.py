"""Public pages are cheap to serve: a poll that finds nothing new is a 304 from one cache
read (no query), the rendered live part is cached until a result changes, and a cache that
cannot be reached costs nothing but speed."""

from __future__ import annotations

import gzip
import html
import math
import re
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core import conditional
from scoring import public_cache
from scoring.models import SeatClaim
from scoring.public_cache import stamp_key
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Event, Role
from tournaments.services import event_publish

pytestmark = pytest.mark.django_db

CLOSED_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


@pytest.fixture(autouse=True)
def _trusted_cache(settings):
    # One test process is the only reader of its local-memory cache: it may be trusted as
    # Redis is (a test below turns that off to see the check against the database).
    # Not emptied: under Redis it is shared with whatever else runs (the broker too), and
    # the pages must cope with what is left there anyway (a version of an event of the
    # same id from an earlier run is caught when the event is read).
    settings.PUBLIC_CACHE_SHARED = True
    yield
    conditional._down_until = -math.inf  # the cache-down test leaves it "down" for seconds


def seated_client(table, position: int) -> Client:
    client = Client()
    client.post(reverse("table_seat", args=[table.entry_key]), {"seat": position})
    return client


def save_deal(client: Client, table, *, number=1, request_id="r1") -> None:
    data = {"number": number, "request_id": request_id, "expected_version": 0, "out": "0"}
    for seat, hand in enumerate(("", "AS KD", "7H", "QS")):
        data[f"p{seat}_cards"] = hand
    response = client.post(reverse("deal_save", args=[table.entry_key, number]), data)
    assert response.status_code == 302


@pytest.fixture
def table():
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    event_publish(event=event, published=True)
    return table


def live_url(event: Event) -> str:
    return reverse("event_live", args=[event.club.slug, event.pk])


def test_an_unchanged_event_poll_is_a_304_without_a_query(client, table, django_assert_num_queries):
    event = table.stage.event
    first = client.get(live_url(event))
    assert first.status_code == 200
    tag = first["ETag"]
    assert tag.startswith('W/"')
    assert first["Cache-Control"] == "private, no-cache"
    assert "Last-Modified" in first
    with django_assert_num_queries(0):
        again = client.get(live_url(event), headers={"if-none-match": tag})
    assert again.status_code == 304
    assert again["ETag"] == tag
    assert again.content == b""


def test_a_saved_deal_changes_the_etag_and_the_poll_shows_it(client, table):
    event = table.stage.event
    first = client.get(live_url(event))
    assert "Player 001" in first.content.decode()
    save_deal(seated_client(table, 0), table)
    after = client.get(live_url(event), headers={"if-none-match": first["ETag"]})
    assert after.status_code == 200
    assert after["ETag"] != first["ETag"]
    html = after.content.decode()
    assert "30" in html and 'class="unconfirmed"' in html


def test_the_rendered_part_is_cached_until_a_result_changes(
    client, table, django_assert_num_queries
):
    event = table.stage.event
    answered = client.get(live_url(event))
    first = answered.content
    # A second reader without the page (a spectator polling after a change, that someone
    # else's poll rendered): the part and its tag come from the cache alone, as a 304 does.
    with django_assert_num_queries(0):
        second = client.get(live_url(event))
    assert second.content == first
    assert second["ETag"] == answered["ETag"]
    assert second["Last-Modified"] == answered["Last-Modified"]
    full = client.get(event.get_absolute_url()).content.decode()
    assert first.decode().strip() in full  # the page embeds the same cached part
    save_deal(seated_client(table, 0), table)
    assert client.get(live_url(event)).content != first


def test_while_a_new_version_is_rendered_others_get_the_one_before(client, table):
    event = table.stage.event
    first = client.get(live_url(event))
    before = first.content
    save_deal(seated_client(table, 0), table)
    stamp = public_cache.event_stamp(event.pk, {})
    key = public_cache.part_key("live", event.pk, stamp["token"], "en\x1f")
    cache.add(key + ":rendering", 1, 10)  # another request is rendering it
    meanwhile = client.get(live_url(event), headers={"if-none-match": first["ETag"]})
    assert meanwhile.status_code == 200
    assert meanwhile.content == before
    # It carries the tag of the version it shows: the next poll asks again (a 200 once the
    # new version is there), and a poll shed meanwhile is a 304 keeping this copy.
    assert meanwhile["ETag"] == first["ETag"]
    again = client.get(live_url(event), headers={"if-none-match": meanwhile["ETag"]})
    assert again.status_code == 200 and again.content == before
    cache.delete(key + ":rendering")
    after = client.get(live_url(event), headers={"if-none-match": meanwhile["ETag"]})
    assert after.content != before and after["ETag"] != meanwhile["ETag"]


def test_the_whole_page_answers_304_too_and_keys_by_language(client, table):
    event = table.stage.event
    client.get(event.get_absolute_url())  # sets the CSRF cookie its forms are signed with
    page = client.get(event.get_absolute_url())
    assert page.status_code == 200
    tag = page["ETag"]
    assert client.get(event.get_absolute_url(), headers={"if-none-match": tag}).status_code == 304
    finnish = client.get(live_url(event), headers={"if-none-match": tag, "accept-language": "fi"})
    assert finnish.status_code == 200
    english = client.get(live_url(event))
    assert finnish["ETag"] != english["ETag"]


def test_the_ranking_order_of_the_page_is_part_of_the_key(client, table):
    event = table.stage.event
    save_deal(seated_client(table, 0), table)
    plain = client.get(live_url(event))
    by_name = client.get(
        live_url(event),
        headers={
            "hx-request": "true",
            "hx-current-url": f"http://testserver{event.get_absolute_url()}?sort=-player",
            "if-none-match": plain["ETag"],
        },
    )
    assert by_name.status_code == 200
    assert by_name["ETag"] != plain["ETag"]


def test_renaming_the_event_or_unpublishing_it_ends_the_304s(client, table):
    event = table.stage.event
    tag = client.get(live_url(event))["ETag"]
    event.refresh_from_db()
    event.name = "Renamed night"
    event.save()
    assert client.get(live_url(event), headers={"if-none-match": tag}).status_code == 200
    tag = client.get(live_url(event))["ETag"]
    event_publish(event=event, published=False)
    assert client.get(live_url(event), headers={"if-none-match": tag}).status_code == 404


def test_a_private_preview_is_not_cached_nor_revalidated_for_another_person(client, db):
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    event_publish(event=event, published=False)
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    other = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    assert client.get(live_url(event)).status_code == 404  # private: not for the public
    client.force_login(director)
    with mock.patch("scoring.public_cache.cache_set", wraps=public_cache.cache_set) as stored:
        preview = client.get(live_url(event))
    assert preview.status_code == 200
    assert "Player 001" in preview.content.decode()
    assert not [call for call in stored.call_args_list if "lappu:part" in call.args[0]]
    assert (
        client.get(live_url(event), headers={"if-none-match": preview["ETag"]}).status_code == 304
    )
    client.force_login(other)
    assert (
        client.get(live_url(event), headers={"if-none-match": preview["ETag"]}).status_code == 200
    )
    client.logout()
    assert (
        client.get(live_url(event), headers={"if-none-match": preview["ETag"]}).status_code == 404
    )


def test_a_lost_version_is_read_again_from_the_database(client, table):
    event = table.stage.event
    tag = client.get(live_url(event))["ETag"]
    cache.delete(stamp_key(event.pk))
    # A new nonce: one full answer, then 304s again.
    fresh = client.get(live_url(event), headers={"if-none-match": tag})
    assert fresh.status_code == 200
    assert client.get(live_url(event), headers={"if-none-match": fresh["ETag"]}).status_code == 304


def test_a_wrong_club_address_is_404_even_with_a_good_etag(client, table):
    event = table.stage.event
    tag = client.get(live_url(event))["ETag"]
    wrong = reverse("event_live", args=["another-club", event.pk])
    assert client.get(wrong, headers={"if-none-match": tag}).status_code == 404


# -- the table page's poll ---------------------------------------------------------------------


def table_live_url(table) -> str:
    return reverse("table_live", args=[table.entry_key])


def test_the_table_poll_is_a_304_without_a_query_while_nothing_changes(
    table, django_assert_num_queries
):
    alice = seated_client(table, 0)
    first = alice.get(table_live_url(table))
    assert first.status_code == 200
    tag = first["ETag"]
    assert tag.startswith(f'W/"t{table.stage.event_id}.{table.stage.number}.{table.pk}.')
    assert "no-store" in first["Cache-Control"]  # a table page is never stored: the
    # page's script sends the tag it holds itself
    with django_assert_num_queries(0):
        again = alice.get(table_live_url(table), headers={"if-none-match": tag})
    assert again.status_code == 304
    assert "no-store" in again["Cache-Control"]


def _page_tag(client: Client, table) -> str:
    page = client.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    found = re.search(r'id="table-live" hx-get="([^"]+)"[^>]* data-poll-tag="([^"]+)"', page)
    assert found, "the table page does not say its live part's tag"
    assert found[1] == table_live_url(table)
    return html.unescape(found[2])


def test_the_table_pages_first_poll_is_a_304_with_the_tag_the_page_carries(
    table, django_assert_num_queries
):
    alice = seated_client(table, 0)
    tag = _page_tag(alice, table)
    with django_assert_num_queries(0):
        assert alice.get(table_live_url(table), headers={"if-none-match": tag}).status_code == 304
    # What the page shows is the poll's own copy: another phone's deal changes both.
    save_deal(seated_client(table, 1), table)
    changed = alice.get(table_live_url(table), headers={"if-none-match": tag})
    assert changed.status_code == 200 and "Confirm deal 1" in changed.content.decode()
    assert _page_tag(alice, table) == changed["ETag"]


def test_the_table_poll_changes_with_a_deal_or_a_seat(table):
    alice = seated_client(table, 0)
    tag = alice.get(table_live_url(table))["ETag"]
    bob = seated_client(table, 1)
    after_seat = alice.get(table_live_url(table), headers={"if-none-match": tag})
    assert after_seat.status_code == 200
    save_deal(bob, table)
    after_deal = alice.get(table_live_url(table), headers={"if-none-match": after_seat["ETag"]})
    assert after_deal.status_code == 200
    assert "Confirm deal 1" in after_deal.content.decode()  # alice confirms bob's deal


def test_a_deal_at_another_table_leaves_this_tables_poll_at_304(client):
    event, (first, second) = seated_event(variant_id="rutupeli", players=8)
    event_publish(event=event, published=True)
    alice = seated_client(first, 0)
    tag = alice.get(table_live_url(first))["ETag"]
    event_tag = client.get(live_url(event))["ETag"]
    save_deal(seated_client(second, 0), second)
    assert alice.get(table_live_url(first), headers={"if-none-match": tag}).status_code == 304
    assert client.get(live_url(event), headers={"if-none-match": event_tag}).status_code == 200
    # What concerns every table (here: the event edited) reaches this one's poll too.
    event.refresh_from_db()
    event.venue = "The hall"
    event.save()
    assert alice.get(table_live_url(first), headers={"if-none-match": tag}).status_code == 200


def test_another_phone_or_a_made_up_tag_gets_the_whole_poll(table):
    alice = seated_client(table, 0)
    bob = seated_client(table, 1)
    tag = alice.get(table_live_url(table))["ETag"]
    assert bob.get(table_live_url(table), headers={"if-none-match": tag}).status_code == 200
    forged = f'W/"t{table.stage.event_id}.{table.stage.number}.{table.pk}.{"0" * 24}"'
    assert alice.get(table_live_url(table), headers={"if-none-match": forged}).status_code == 200


def test_a_replaced_link_is_not_kept_alive_by_its_etag(table):
    from tournaments.services import table_key_revoke

    alice = seated_client(table, 0)
    old_url = table_live_url(table)
    tag = alice.get(old_url)["ETag"]
    table_key_revoke(table=table)
    gone = alice.get(old_url, headers={"if-none-match": tag})
    assert gone.status_code == 404


# -- Redis down ---------------------------------------------------------------------------------


def test_with_the_cache_down_every_public_page_is_computed(client, table, settings):
    settings.CACHES = CLOSED_REDIS  # Django drops its cache connections on the change
    event = table.stage.event
    alice = seated_client(table, 0)
    save_deal(alice, table)
    pages = [
        client.get(event.get_absolute_url()),
        client.get(live_url(event), headers={"if-none-match": 'W/"x"'}),
        client.get(reverse("event_screen", args=[event.club.slug, event.pk])),
        client.get(reverse("event_screen_live", args=[event.club.slug, event.pk])),
        alice.get(table_live_url(table), headers={"if-none-match": 'W/"t1.1.000"'}),
    ]
    assert [page.status_code for page in pages] == [200] * 5
    assert not any(page.has_header("ETag") for page in pages)
    assert "30" in pages[0].content.decode()


def test_a_cache_of_one_process_is_checked_against_the_database(
    client, table, settings, django_assert_max_num_queries
):
    """Several processes without Redis: a change saved through another process (whose
    receivers dropped only its own cache) is seen here at once."""
    settings.PUBLIC_CACHE_SHARED = False
    event = table.stage.event
    alice = seated_client(table, 0)
    tag = client.get(live_url(event))["ETag"]
    table_tag = alice.get(table_live_url(table))["ETag"]
    with django_assert_max_num_queries(1):
        assert client.get(live_url(event), headers={"if-none-match": tag}).status_code == 304
    assert alice.get(table_live_url(table), headers={"if-none-match": table_tag}).status_code == 304
    Event.objects.filter(pk=event.pk).update(results_changed_at=timezone.now())  # elsewhere
    SeatClaim.objects.create(table=table, position=1, device="another-process-phone")
    assert client.get(live_url(event), headers={"if-none-match": tag}).status_code == 200
    assert alice.get(table_live_url(table), headers={"if-none-match": table_tag}).status_code == 200


def test_the_clubs_confirmed_only_setting_renews_its_cached_pages(client, table):
    event = table.stage.event
    save_deal(seated_client(table, 0), table)
    first = client.get(live_url(event))
    assert 'class="unconfirmed"' in first.content.decode()
    club = event.club
    club.refresh_from_db()
    club.public_confirmed_only = True
    club.save()
    after = client.get(live_url(event), headers={"if-none-match": first["ETag"]})
    assert after.status_code == 200
    assert 'class="unconfirmed"' not in after.content.decode()  # the deal waits to be confirmed


def _later(seconds: float):
    """The clock of the cache's checks moved on by `seconds`."""
    real = public_cache.time.time
    return mock.patch.object(public_cache.time, "time", lambda: real() + seconds)


def test_an_etag_from_before_a_cache_rollback_is_caught_by_the_database_check(client, table):
    """Redis restarted from a snapshot taken before a change holds the old version again: a
    poll with the old ETag is answered 304 for RECHECK seconds at most, then the version is
    checked against the database and the poll gets the new results."""
    event = table.stage.event
    first = client.get(live_url(event))
    tag = first["ETag"]
    snapshot = cache.get(stamp_key(event.pk))
    save_deal(seated_client(table, 0), table)
    cache.set(stamp_key(event.pk), snapshot)  # the restart from the snapshot brings it back
    assert client.get(live_url(event), headers={"if-none-match": tag}).status_code == 304
    with _later(public_cache.RECHECK + 1):
        after = client.get(live_url(event), headers={"if-none-match": tag})
        assert after.status_code == 200
        assert after["ETag"] != tag and 'class="unconfirmed"' in after.content.decode()
        # Checked once: the stamp now in the cache is the database's, and polls 304 again.
        again = client.get(live_url(event), headers={"if-none-match": after["ETag"]})
        assert again.status_code == 304


def test_a_table_polls_etag_from_before_a_cache_rollback_is_caught_too(table):
    event = table.stage.event
    phone = seated_client(table, 1)
    poll = reverse("table_live", args=[table.entry_key])
    tag = phone.get(poll)["ETag"]
    keys = public_cache.table_keys(event.pk, table.pk)
    snapshot = cache.get_many(keys)
    save_deal(seated_client(table, 0), table)
    cache.set_many(snapshot)
    with _later(public_cache.RECHECK + 1):
        after = phone.get(poll, headers={"if-none-match": tag})
    assert after.status_code == 200
    assert "Confirm deal 1" in after.content.decode()


# -- coalesced versions ----------------------------------------------------------------------


@pytest.mark.coalesced
def test_deals_saved_within_the_window_keep_the_spectators_polls_at_304(client, table, settings):
    """At 250 tables a result changes every second: the event's public version follows the
    tables at most every PUBLIC_COALESCE_SECONDS, so a poll in between is a 304, and the
    first poll after it gets the new results (one request builds them)."""
    settings.PUBLIC_COALESCE_SECONDS = 5
    event = table.stage.event
    first = client.get(live_url(event))
    save_deal(seated_client(table, 0), table)
    soon = client.get(live_url(event), headers={"if-none-match": first["ETag"]})
    assert soon.status_code == 304  # the deal waits for the window
    with _later(settings.PUBLIC_COALESCE_SECONDS + 0.5):
        after = client.get(live_url(event), headers={"if-none-match": first["ETag"]})
        assert after.status_code == 200 and 'class="unconfirmed"' in after.content.decode()
        # Renewed once: the next poll holds the new version.
        again = client.get(live_url(event), headers={"if-none-match": after["ETag"]})
        assert again.status_code == 304


@pytest.mark.coalesced
def test_a_change_that_concerns_every_table_is_public_at_once(client, table, settings):
    settings.PUBLIC_COALESCE_SECONDS = 5
    event = table.stage.event
    first = client.get(live_url(event))
    Event.objects.get(pk=event.pk).save()  # the event's own row: a name, a setting
    after = client.get(live_url(event), headers={"if-none-match": first["ETag"]})
    assert after.status_code == 200


@pytest.mark.coalesced
def test_a_table_poll_sees_its_own_deal_at_once(table, settings):
    settings.PUBLIC_COALESCE_SECONDS = 5
    phone = seated_client(table, 1)
    first = phone.get(table_live_url(table))
    save_deal(seated_client(table, 0), table)
    after = phone.get(table_live_url(table), headers={"if-none-match": first["ETag"]})
    assert after.status_code == 200


@pytest.mark.parametrize("name", ["event_live", "event_screen_live"])
def test_a_public_part_goes_out_gzipped_once_compressed(client, table, name):
    event = table.stage.event
    url = reverse(name, args=[event.club.slug, event.pk])
    with mock.patch("scoring.public_cache.gzip.compress", wraps=gzip.compress) as compress:
        plain = client.get(url)
        packed = client.get(url, headers={"accept-encoding": "br, gzip;q=0.8"})
        again = client.get(url, headers={"accept-encoding": "gzip"})
    assert compress.call_count == 1  # when the part was cached, not at each poll
    assert "Content-Encoding" not in plain and "Accept-Encoding" in plain["Vary"]
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    html = plain.content.decode()
    assert table.seats.first().player.name in html  # the part itself, not an error page
    assert (
        gzip.decompress(packed.content).decode() == html == gzip.decompress(again.content).decode()
    )
    assert len(packed.content) < len(plain.content)
    assert packed["ETag"] == plain["ETag"]  # a weak tag: the same part in either coding
