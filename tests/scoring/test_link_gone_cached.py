"""A closed stage's tables: every phone's next poll says the stage is over, and after the
first render that notice comes from the cache (no query) while nothing else changed; a
finished event's, or a replaced link's, says so in its own words."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from formats.championship import championship_stage_close
from tests.support.championship import championship, play, winner_scheme
from tests.support.events import seated_event
from tests.support.poll_stack import counted_stack
from tournaments.changes import results_change
from tournaments.services import stage_confirm

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _shared_cache(settings):
    # One test process is the only reader of its local-memory cache: trusted as Redis is.
    settings.PUBLIC_CACHE_SHARED = True


def _seated_phone(table, seat: int) -> tuple[Client, str]:
    """A phone seated at `table`, and the ETag of the live part it shows."""
    phone = Client()
    phone.post(reverse("table_seat", args=[table.entry_key]), {"seat": seat})
    tag = phone.get(reverse("table_live", args=[table.entry_key]))["ETag"]
    return phone, tag


def _poll(phone: Client, table, tag: str, language: str = "en"):
    url = reverse("table_live", args=[table.entry_key])
    headers = {"if-none-match": tag, "hx-request": "true", "accept-language": language}
    return phone.get(url, headers=headers)


def _closed(commit, players: int = 9):
    """A three-table stage, each phone seated and polling, then played out and closed (its
    commit's callbacks run, as a real close's do: the event's versions renewed)."""
    event, stage, director = championship(players)
    tables = list(stage.tables.order_by("number"))
    phones = [(table, *_seated_phone(table, seat)) for table in tables for seat in (0, 1)]
    for table in tables:
        play(table, winner_scheme(table.seats.count()))
    with commit(execute=True):
        nxt = championship_stage_close(stage=stage, by=director)
    return event, stage, nxt, director, phones


def test_a_closed_stages_phones_are_told_it_is_over_the_second_from_the_cache(
    django_assert_num_queries, django_capture_on_commit_callbacks
):
    event, _stage, _next, _director, phones = _closed(django_capture_on_commit_callbacks)
    (first_table, first, first_tag), *rest = phones
    told = _poll(first, first_table, first_tag)
    assert told.status_code == 404
    text = told.content.decode()
    assert "Stage 1 is over" in text and event.get_absolute_url() in text
    assert told["HX-Retarget"] == "main" and "no-store" in told["Cache-Control"]
    for table, phone, tag in rest:  # the same table's other phone, and the other table's
        with django_assert_num_queries(0):
            again = _poll(phone, table, tag)
        assert again.status_code == 404 and again.content.decode() == text


def test_the_kept_notice_is_answered_before_the_middleware(django_capture_on_commit_callbacks):
    _event, _stage, _next, _director, phones = _closed(django_capture_on_commit_callbacks)
    (first_table, first, first_tag), (fi_table, fi_phone, fi_tag), *rest = phones
    told = _poll(first, first_table, first_tag)
    with counted_stack() as (sessions, view):
        # A Finnish phone's is not kept yet: the view renders it, and keeps it.
        finnish = _poll(fi_phone, fi_table, fi_tag, "fi")
        assert "Vaihe 1 on päättynyt" in finnish.content.decode()
        assert sessions.call_count == 1 and view.call_count == 1
        for table, phone, tag in rest:
            again = _poll(phone, table, tag)
            assert again.status_code == 404 and again.content == told.content
            # As the whole stack marks it.
            assert again["HX-Retarget"] == "main" and "no-store" in again["Cache-Control"]
            assert again["Content-Language"] == "en" and again["X-Frame-Options"] == "DENY"
            assert "Accept-Language" in again["Vary"]
        # Then it is kept, and the next Finnish poll is answered early too.
        assert _poll(fi_phone, fi_table, fi_tag, "fi").content == finnish.content
        assert sessions.call_count == 1 and view.call_count == 1


@pytest.mark.parametrize(
    ("language", "words"), [("fi", "Vaihe 1 on päättynyt"), ("hu", "véget ért")]
)
def test_the_notice_follows_the_language_and_a_later_change(
    django_capture_on_commit_callbacks, language, words
):
    commit = django_capture_on_commit_callbacks
    _event, _stage, nxt, director, phones = _closed(commit)
    (table, phone, tag), (_t2, other, other_tag), *_ = phones
    _poll(phone, table, tag)
    assert words in _poll(other, table, other_tag, language).content.decode()
    # The next stage is seated and played to the end: the event is finished, and the
    # notice kept for stage 1 says so now, not that a stage is over.
    with commit(execute=True):
        stage_confirm(stage=nxt)
    final = nxt.tables.get()
    play(final, winner_scheme(final.seats.count()))
    with commit(execute=True):
        championship_stage_close(stage=nxt, by=director)
    after = _poll(phone, table, tag)
    assert after.status_code == 404
    assert "This event is finished" in after.content.decode()


def test_a_page_load_of_a_closed_stages_link_is_the_whole_page(django_capture_on_commit_callbacks):
    _event, _stage, _next, _director, phones = _closed(django_capture_on_commit_callbacks)
    table, phone, _tag = phones[0]
    page = phone.get(reverse("table_entry", args=[table.entry_key]))
    assert page.status_code == 404
    text = page.content.decode()
    assert "<title>Stage 1 is over" in text and "<html" in text


def test_a_stage_in_play_is_never_answered_from_a_kept_notice(django_capture_on_commit_callbacks):
    # A notice kept for stage 1 is never the answer of stage 2's tables, whose tags say 2.
    commit = django_capture_on_commit_callbacks
    _event, _stage, nxt, _director, phones = _closed(commit)
    table, phone, tag = phones[0]
    _poll(phone, table, tag)
    with commit(execute=True):
        stage_confirm(stage=nxt)
    final = nxt.tables.get()
    later, later_tag = _seated_phone(final, 0)
    assert _poll(later, final, later_tag).status_code == 304


def test_a_director_correcting_the_closed_stage_is_never_answered_the_notice(
    django_capture_on_commit_callbacks,
):
    _event, _stage, _next, director, phones = _closed(django_capture_on_commit_callbacks)
    table, phone, tag = phones[0]
    assert _poll(phone, table, tag).status_code == 404  # the notice is kept now
    desk = Client()
    desk.force_login(director)
    desk.post(reverse("table_seat", args=[table.entry_key]), {"seat": 2})
    held = desk.get(reverse("table_live", args=[table.entry_key]))
    assert held.status_code == 200
    # A correction renews this table's version only: the director's poll is answered
    # from the database (the correction page), never with the phones' notice.
    with django_capture_on_commit_callbacks(execute=True):
        results_change(event_id=table.stage.event_id, table_id=table.pk, reason="deal_saved")
    again = _poll(desk, table, held["ETag"])
    assert again.status_code == 200 and "is over" not in again.content.decode()


def test_a_made_up_tag_gets_no_other_tables_notice(django_capture_on_commit_callbacks):
    event, _stage, _next, _director, phones = _closed(django_capture_on_commit_callbacks)
    table, phone, tag = phones[0]
    assert _poll(phone, table, tag).status_code == 404  # the notice is kept now
    # Another event's open table, asked with a tag naming the closed stage's table: the tag
    # was not given for this link, so its own (open) page answers.
    _other, (mine,) = seated_event(variant_id="rutupeli", players=4)
    stranger, _own = _seated_phone(mine, 0)
    answer = _poll(stranger, mine, tag)  # the closed table's ids and mark, another link
    assert answer.status_code == 200 and event.get_absolute_url() not in answer.content.decode()
