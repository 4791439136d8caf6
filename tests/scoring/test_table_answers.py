"""The table page's own script sends its saves, confirmations and seat claims with the
X-Lappu-Part header and is answered the page's main part as it now is (scoring.views
._table_answer), not a redirect to the whole page; a plain form still gets the redirect.
The parts every phone at a table shares are cached per table version: a change is seen."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Deal, DealVersion
from tests.support.entry import deal_post
from tests.support.events import seated_event

pytestmark = pytest.mark.django_db

PART = {"X-Lappu-Part": "1"}


@pytest.fixture
def table():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    return table


def _seated(table, position: int) -> Client:
    phone = Client()
    phone.post(reverse("table_seat", args=[table.entry_key]), {"seat": position})
    return phone


def _is_part(response) -> str:
    """The answer's HTML, after checking that it is the main part and not a whole page."""
    html = response.content.decode()
    assert "<html" not in html and "<head" not in html, html[:200]
    assert html.lstrip().startswith('<div class="table-part"')
    assert "X-Lappu-Part" in response["Vary"]
    return html


def _poll_tag(html: str) -> str:
    found = re.search(r'id="table-live"[^>]*data-poll-tag="([^"]+)"', html)
    assert found, "the part carries its poll's tag"
    return found[1].replace("&quot;", '"')


def test_a_plain_form_still_gets_the_redirect(table):
    phone = Client()
    claimed = phone.post(reverse("table_seat", args=[table.entry_key]), {"seat": 0})
    assert claimed.status_code == 302
    saved = phone.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    assert saved.status_code == 302
    assert saved["Location"] == reverse("table_entry", args=[table.entry_key])


def test_a_seat_claim_is_answered_with_the_entry_part(table):
    phone = Client()
    answer = phone.post(reverse("table_seat", args=[table.entry_key]), {"seat": 0}, headers=PART)
    assert answer.status_code == 200
    assert answer["X-Lappu-Part"] == "sent"
    html = _is_part(answer)
    assert 'data-kind="entry"' in html
    assert "You are Player" in html
    assert 'class="entry"' in html and 'name="number" value="1"' in html
    # Its poll tag is the poll's own: the first poll finds nothing new.
    poll = phone.get(reverse("table_live", args=[table.entry_key]), headers={
        "If-None-Match": _poll_tag(html)})  # fmt: skip
    assert poll.status_code == 304


def test_letting_the_seat_go_is_answered_with_the_seat_pick(table):
    phone = _seated(table, 0)
    answer = phone.post(reverse("table_seat", args=[table.entry_key]), {"seat": ""}, headers=PART)
    assert answer.status_code == 200
    html = _is_part(answer)
    assert 'data-kind="seat"' in html
    assert "Where do you sit?" in html


def test_a_save_is_answered_with_its_message_and_the_new_poll_tag(table):
    alice = _seated(table, 0)
    answer = alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post(), headers=PART)
    assert answer.status_code == 200
    assert answer["X-Lappu-Part"] == "sent"
    html = _is_part(answer)
    assert "Deal 1 saved. Someone at another seat confirms it." in html
    assert 'class="messages"' in html
    assert "Deal 1 waits for confirmation." in html
    assert Deal.objects.get().points == [0, 30, 5, 10]
    assert "r1" in re.search(r'data-recorded="([^"]*)"', html)[1]  # the queue's word
    poll = alice.get(reverse("table_live", args=[table.entry_key]), headers={
        "If-None-Match": _poll_tag(html)})  # fmt: skip
    assert poll.status_code == 304


def test_a_double_tapped_save_records_once_and_answers_twice(table):
    alice = _seated(table, 0)
    url = reverse("deal_save", args=[table.entry_key, 1])
    first = alice.post(url, deal_post(request_id="tap"), headers=PART)
    second = alice.post(url, deal_post(request_id="tap"), headers=PART)
    assert first.status_code == second.status_code == 200
    assert first["X-Lappu-Part"] == second["X-Lappu-Part"] == "sent"
    assert Deal.objects.count() == 1
    assert DealVersion.objects.filter(action="submit").count() == 1


def test_a_confirmation_is_answered_with_the_next_deals_form(table):
    alice = _seated(table, 0)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post(), headers=PART)
    bob = _seated(table, 1)
    confirm = {"expected_version": 1, "request_id": "c1"}
    answer = bob.post(reverse("deal_confirm", args=[table.entry_key, 1]), confirm, headers=PART)
    assert answer.status_code == 200
    assert answer["X-Lappu-Part"] == "sent"
    html = _is_part(answer)
    assert "Deal 1 confirmed." in html
    assert 'name="number" value="2"' in html
    assert Deal.objects.get().is_confirmed


def test_a_refused_confirmation_says_why(table):
    alice = _seated(table, 0)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post(), headers=PART)
    confirm = {"expected_version": 1, "request_id": "c1"}
    answer = alice.post(reverse("deal_confirm", args=[table.entry_key, 1]), confirm, headers=PART)
    assert answer.status_code == 200
    assert 'class="error"' in _is_part(answer)
    assert not Deal.objects.get().is_confirmed


def test_a_refused_save_is_the_part_with_the_errors_and_422(table):
    alice = _seated(table, 0)
    answer = alice.post(
        reverse("deal_save", args=[table.entry_key, 1]),
        deal_post(hands=("", "AS KZ", "7H", "QS")),
        headers=PART,
    )
    assert answer.status_code == 422
    assert answer["X-Lappu-Part"] == "refused"
    html = _is_part(answer)
    assert "KZ" in html and 'aria-invalid="true"' in html
    assert not Deal.objects.exists()


def test_a_stale_save_is_the_conflict_page_as_before(table):
    alice, bob = _seated(table, 0), _seated(table, 1)
    url = reverse("deal_save", args=[table.entry_key, 1])
    alice.post(url, deal_post(request_id="a"), headers=PART)
    answer = bob.post(url, deal_post(request_id="b"), headers=PART)
    assert answer.status_code == 409
    assert "X-Lappu-Part" not in answer
    assert "Someone saved this deal first" in answer.content.decode()


def test_the_answer_takes_a_constant_number_of_queries(table, django_assert_max_num_queries):
    # The save and the part it is answered with, in one request: 22 on SQLite, the same at
    # every deal (the POST and the GET of the whole page before it took more, in two).
    alice = _seated(table, 0)
    bob = _seated(table, 1)
    counts = []
    for number in (1, 2, 3):
        url = reverse("deal_save", args=[table.entry_key, number])
        with django_assert_max_num_queries(24) as captured:
            answer = alice.post(url, deal_post(number=number, request_id=f"s{number}"),
                                headers=PART)  # fmt: skip
        assert answer.status_code == 200
        counts.append(len(captured.captured_queries))
        confirm = {"expected_version": 1, "request_id": f"c{number}"}
        bob.post(reverse("deal_confirm", args=[table.entry_key, number]), confirm, headers=PART)
    # (With Redis the first save may read a version the cache does not hold yet.)
    assert counts[1] == counts[2], counts


def _table_reads(captured) -> list[str]:
    return [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].startswith('SELECT "tournaments_table"."id", ')  # the whole row
    ]


def test_a_save_and_a_confirmation_read_their_table_twice_and_its_event_through_it(table):
    # At 250 tables these are most of a night's writes: the link's table (with its stage,
    # event and club) is read once and its row once more under the lock; the sheet, the
    # results receivers (league, rating, play-off) and the confirmation use those, and the
    # poll reads the table once. It read the table five or six times each.
    alice, bob = _seated(table, 0), _seated(table, 1)
    season = '"tournaments_event"."season_id" AS'  # the league's receiver, once its own read
    with CaptureQueriesContext(connection) as saved:
        alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post(), headers=PART)
    with CaptureQueriesContext(connection) as polled:
        bob.get(reverse("table_live", args=[table.entry_key]), headers={"HX-Request": "true"})
    with CaptureQueriesContext(connection) as confirmed:
        bob.post(reverse("deal_confirm", args=[table.entry_key, 1]),
                 {"expected_version": 1, "request_id": "c"}, headers=PART)  # fmt: skip
    assert Deal.objects.get(table=table, number=1).is_confirmed
    for captured in (saved, confirmed):
        assert len(_table_reads(captured)) == 2, _table_reads(captured)
        assert not [q for q in captured.captured_queries if season in q["sql"]]
    assert len(_table_reads(polled)) == 1, _table_reads(polled)


def test_the_shared_parts_change_with_the_table(table):
    # The totals and the blank form are cached per table version and language: the next
    # deal's points and form show at once, on every phone, each with its own seat marked.
    alice, bob = _seated(table, 0), _seated(table, 1)
    page = reverse("table_entry", args=[table.entry_key])
    before = bob.get(page, headers=PART).content.decode()
    assert 'name="number" value="1"' in before
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post(), headers=PART)
    bob.post(reverse("deal_confirm", args=[table.entry_key, 1]),
             {"expected_version": 1, "request_id": "c"}, headers=PART)  # fmt: skip
    marked = []
    for phone in (alice, bob):
        html = phone.get(page, headers=PART).content.decode()
        assert 'name="number" value="2"' in html
        assert ">30<" in html and ">10<" in html  # deal 1's points in the totals
        # The sheet is the same for both (cached once); the part around it marks the seat.
        me = re.search(r'<div id="table-live"[^>]* data-me="(\d)"', html)[1]
        row = re.search(rf'<tr data-seat="{me}"[^>]*><td >\d+</td><td >([^<]*)<', html)
        marked.append(row[1].strip())
    assert marked == [table.seats.get(position=0).player.name,
                      table.seats.get(position=1).player.name], marked  # fmt: skip


def test_a_blank_deals_fields_follow_the_seats(table):
    # Cached for every deal of the table, keyed by who sits there: a player renamed (or
    # replaced) meanwhile shows on the next form.
    alice = _seated(table, 0)
    page = reverse("table_entry", args=[table.entry_key])
    assert "Player 001" in alice.get(page, headers=PART).content.decode()
    seat = table.seats.get(position=0)
    seat.player.name = "Anna Renamed"
    seat.player.save()
    html = alice.get(page, headers=PART).content.decode()
    assert "<legend>Anna Renamed</legend>" in html
    assert html.count("Anna Renamed") >= 2, "the totals name her too"
