"""A phone's offline queue, as the server meets it: entries sent late, sent twice (the page's
own send and the worker's background sync), in order or not, after another phone changed the
deal, or to a link revoked meanwhile (static/js/offline-queue.js sends them; these tests send
what it sends). The browser's side is tests/e2e/test_offline.py."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.urls import reverse

from rules import RuleViolation
from scoring.models import Deal, DealAction, DealStatus, DealVersion
from scoring.services import Actor, StaleDeal, deal_confirm, deal_record
from tests.support.entry import deal_post, seated_client
from tests.support.events import seated_event
from tournaments.services import table_key_revoke

pytestmark = pytest.mark.django_db

PHONE = Actor(device="phone-a", seat=0)
OTHER = Actor(device="phone-b", seat=1)
QUEUE = [  # (deal, request id, entry) as the phone queued them, oldest first
    (
        1,
        "q1",
        {"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "AS KD", "7H", "QS")]},
    ),
    (2, "q2", {"out": 1, "players": [{"cards": c, "buys": 0} for c in ("2D", None, "KH", "5C")]}),
]


def send(table, queue, by=PHONE):
    """The queue sent as the phone sends it: each entry with its id, as a new deal."""
    return [
        deal_record(
            table=table,
            number=number,
            entry=entry,
            by=by,
            expected_version=0,
            request_id=request_id,
        )
        for number, request_id, entry in queue
    ]


def test_a_queue_sent_twice_records_each_deal_once_in_order():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    first = send(table, QUEUE)
    again = send(table, QUEUE)  # the worker's background sync after the page's own send
    assert [deal.pk for deal in again] == [deal.pk for deal in first]
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    assert [(deal.number, deal.version) for deal in deals] == [(1, 1), (2, 1)]
    saves = DealVersion.objects.filter(deal__table=table).order_by("pk")
    assert [(v.deal.number, v.request_id) for v in saves] == [(1, "q1"), (2, "q2")]


def test_a_later_deal_sent_before_the_earlier_one_is_refused_and_records_nothing():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    with pytest.raises(RuleViolation) as refused:
        send(table, QUEUE[1:])
    assert refused.value.code == "deal_order"
    assert not Deal.objects.filter(table=table).exists()
    # In its order the same queue lands whole.
    send(table, QUEUE)
    assert Deal.objects.filter(table=table).count() == 2


def test_a_deal_another_phone_entered_meanwhile_is_a_conflict_however_often_sent():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    (number, _id, entry), *_rest = QUEUE
    theirs = deal_record(table=table, number=1, entry={**entry, "out": 2, "players": [
        {"cards": c, "buys": 0} for c in ("AS", "7H", None, "QS")]}, by=OTHER,
        expected_version=0, request_id="theirs")  # fmt: skip
    for _attempt in range(2):
        with pytest.raises(StaleDeal) as stale:
            send(table, QUEUE[:1])
        assert stale.value.current.pk == theirs.pk
    assert Deal.objects.get(table=table, number=number).version == 1
    assert not DealVersion.objects.filter(request_id="q1").exists()


def test_a_queued_confirmation_sent_twice_confirms_once():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    (deal,) = send(table, QUEUE[:1])
    # The page's confirm form's id: one per deal, version and phone (_table_live.html).
    request_id = f"confirm-{deal.pk}-{deal.version}-{OTHER.device}"
    for _attempt in range(2):
        confirmed = deal_confirm(deal=deal, by=OTHER, expected_version=1, request_id=request_id)
    assert confirmed.status == DealStatus.CONFIRMED
    assert DealVersion.objects.filter(deal=deal, action=DealAction.CONFIRM).count() == 1


def test_the_page_says_which_of_this_phones_saves_landed(client):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    alice, bob = seated_client(table, 0), seated_client(table, 1)
    url = reverse("deal_save", args=[table.entry_key, 1])
    assert alice.post(url, deal_post(request_id="alice-1")).status_code == 302
    page = alice.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    assert 'data-recorded="alice-1"' in page
    assert 'data-source="network"' in page
    # Another phone's ids are its own.
    page = bob.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    assert 'data-recorded=""' in page


def test_a_replayed_save_is_answered_as_the_first_was(client):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    alice = seated_client(table, 0)
    url = reverse("deal_save", args=[table.entry_key, 1])
    answers = [alice.post(url, deal_post(request_id="once")) for _ in range(2)]
    # The queue reads the redirect as "sent": a replay must not come back as a conflict.
    assert [answer.status_code for answer in answers] == [302, 302]
    assert Deal.objects.get(table=table).version == 1


def test_the_next_deals_headings_ride_along_for_a_phone_offline():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    page = seated_client(table, 0).get(reverse("table_entry", args=[table.entry_key]))
    html = page.content.decode()
    assert page.context["number"] == 1
    ahead = [heading["number"] for heading in page.context["ahead"]]
    # Up to OFFLINE_AHEAD of them, within the game's deals (Rutupeli has seven).
    assert len(table.variant.deals) == 7
    assert ahead == [2, 3, 4, 5, 6, 7]
    assert '<template data-deal="2"><h2 class="deal-title">Deal 2</h2>' in html


def test_a_revoked_link_refuses_a_queued_deal_and_its_page_lists_it():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    alice = seated_client(table, 0)
    old = table.entry_key
    table_key_revoke(table=table)
    answer = alice.post(reverse("deal_save", args=[old, 1]), deal_post(request_id="late"))
    assert answer.status_code == 404  # LappuQueue: "gone"
    html = answer.content.decode()
    assert "This link no longer works" in html
    assert f'data-key="{old}"' in html and 'data-kind="gone"' in html
    assert not Deal.objects.filter(table=table).exists()


def test_the_worker_keeps_this_tables_page_and_the_sites_files_only(client):
    _event, tables = seated_event(variant_id="rutupeli", players=8)
    mine, other = tables
    answer = client.get(reverse("table_worker", args=[mine.entry_key]))
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["X-Robots-Tag"].startswith("noindex")
    script = answer.content.decode()
    assert f'"page": "{mine.get_entry_url()}"' in script
    assert f'"cache": "lappu-{mine.entry_key}-' in script
    assert other.entry_key not in script
    # Its default scope is the table's link (the script sits under it).
    assert reverse("table_worker", args=[mine.entry_key]).startswith(mine.get_entry_url())
    old = mine.entry_key
    table_key_revoke(table=mine)
    assert client.get(reverse("table_worker", args=[old])).status_code == 404


def test_the_offline_words_are_in_the_pages_language():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    alice = seated_client(table, 0)
    alice.cookies["django_language"] = "fi"
    html = alice.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    assert 'data-t-synced="Viimeksi synkronoitu klo %(time)s."' in html
    assert 'data-t-deal="Jako %(number)s"' in html
    assert "Lähetä nyt" in html


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_page_and_its_worker_sending_one_queue_at_once_record_it_once():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: run with DATABASE_URL (make test does)")
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    barrier = threading.Barrier(2)
    problems: list[BaseException] = []

    def sender():
        try:
            barrier.wait()
            send(table, QUEUE)
        except BaseException as error:  # reported by the test
            problems.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=sender) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert problems == []
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    assert [(deal.number, deal.version) for deal in deals] == [(1, 1), (2, 1)]
    assert DealVersion.objects.filter(deal__table=table).count() == 2


def test_a_changed_replay_is_a_conflict_with_both_versions_never_saved(client):
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    alice = seated_client(table, 0)
    url = reverse("deal_save", args=[table.entry_key, 1])
    first = alice.post(url, deal_post(request_id="same", hands=("", "AS KD", "7H", "QS")))
    assert first.status_code == 302
    changed = alice.post(url, deal_post(request_id="same", hands=("", "AS KD", "7H", "QS KS")))
    # offline-queue.js promises a conflict for this: the first entry stays, and the phone
    # sees both versions to choose from.
    assert changed.status_code == 409
    deal = Deal.objects.get(table=table)
    assert deal.version == 1 and deal.entry["players"][3]["cards"] == "QS"
    assert changed.context["current"].pk == deal.pk
    assert [points for _seat, points in changed.context["attempted_rows"]] != list(deal.points)
    assert DealVersion.objects.filter(deal=deal).count() == 1


def test_a_changed_replay_of_the_service_raises_stale_and_keeps_the_first():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    (number, request_id, entry), _second = QUEUE
    (deal,) = send(table, [(number, request_id, entry)])
    other = {**entry, "players": [*entry["players"][:3], {"cards": "QS KS", "buys": 0}]}
    with pytest.raises(StaleDeal):
        send(table, [(number, request_id, other)])
    # The same entry again is still a replay: answered with the first save.
    assert send(table, [(number, request_id, entry)])[0].pk == deal.pk
    deal.refresh_from_db()
    assert deal.version == 1 and deal.entry == entry
