from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Deal, DealVersion
from tests.support.entry import GOOD, deal_post, entry_table, seated_client
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    return table


def test_first_visit_asks_for_the_seat(client, table):
    page = client.get(reverse("table_entry", args=[table.entry_key]))
    assert page.status_code == 200
    assert "Where do you sit?" in page.content.decode()
    assert "lappu_device" in page.cookies


def test_unknown_or_revoked_key_is_404(client, table):
    from tournaments.services import table_key_revoke

    old = table.entry_key
    table_key_revoke(table=table)
    gone = client.get(reverse("table_entry", args=[old]))
    assert gone.status_code == 404
    assert "This link no longer works" in gone.content.decode()
    assert "Ask the director for the new link" in gone.content.decode()
    assert client.get("/t/nope/").status_code == 404


def test_submit_then_confirm_from_another_phone(table):
    alice = seated_client(table, 0)
    page = alice.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    assert "2 sets" in page  # deal 1's contract
    response = alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    assert response.status_code == 302
    deal = Deal.objects.get()
    assert deal.points == [0, 30, 5, 10]
    confirm = {"expected_version": 1, "request_id": "c"}
    alice.post(reverse("deal_confirm", args=[table.entry_key, 1]), confirm)
    assert not Deal.objects.get().is_confirmed
    bob = seated_client(table, 1)
    bob.post(reverse("deal_confirm", args=[table.entry_key, 1]), confirm)
    assert Deal.objects.get().is_confirmed


def test_error_is_shown_next_to_the_field_and_nothing_saved(table):
    alice = seated_client(table, 0)
    response = alice.post(
        reverse("deal_save", args=[table.entry_key, 1]), deal_post(hands=("", "AS KZ", "7H", "QS"))
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "KZ" in html
    assert 'value="AS KZ"' in html  # what was typed is kept
    assert not Deal.objects.exists()


def test_live_check_prices_the_deal(table):
    alice = seated_client(table, 0)
    html = alice.post(reverse("table_check", args=[table.entry_key]), deal_post()).content.decode()
    assert "Looks right" in html and ": 30" in html
    bad = alice.post(
        reverse("table_check", args=[table.entry_key]), deal_post(hands=("", "AS", "7H", "Q?"))
    ).content.decode()
    assert "Not yet right" in bad and "Q?" in bad


def test_double_tap_records_once(table):
    alice = seated_client(table, 0)
    for _ in range(2):
        alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post(request_id="same"))
    assert DealVersion.objects.count() == 1


def test_two_phones_saving_the_same_deal_get_the_conflict_screen(table):
    alice, bob = seated_client(table, 0), seated_client(table, 1)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post(request_id="a"))
    response = bob.post(
        reverse("deal_save", args=[table.entry_key, 1]),
        deal_post(out="1", hands=("5H", "", "7H", "QS"), request_id="b"),
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "Someone saved this deal first" in html
    saved, attempted = html.split("What you entered")
    assert ": 30" in saved  # seat 1's A + K as saved
    assert ": 5" in attempted and ": 0" in attempted  # bob's own entry, priced for comparison
    assert Deal.objects.get().points == [0, 30, 5, 10]


def test_correction_starts_from_the_saved_entry(table):
    alice = seated_client(table, 0)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    html = alice.get(reverse("deal_edit", args=[table.entry_key, 1])).content.decode()
    assert 'value="AS KD"' in html
    assert 'name="expected_version" value="1"' in html


def test_public_page_shows_totals_and_unconfirmed_mark(client, table):
    alice = seated_client(table, 0)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    event = table.stage.event
    html = client.get(event.get_absolute_url()).content.decode()
    assert "Ranking" in html and "30" in html and 'class="unconfirmed"' in html
    live = client.get(reverse("event_live", args=[event.club.slug, event.pk]))
    assert live.status_code == 200


def test_history_is_for_the_clubs_directors(client, table):
    event = table.stage.event
    url = reverse("table_history", args=[event.club.slug, event.pk, table.pk])
    assert client.get(url).status_code == 302
    client.force_login(MembershipFactory(club=event.club, role=Role.MEMBER).user)
    assert client.get(url).status_code == 403
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    assert client.get(url).status_code == 200


def test_a_key_works_for_its_own_table_only():
    _event, (one, two) = seated_event(variant_id="rutupeli", players=8)
    alice = seated_client(one, 0)
    # Deal 1 of table two through table one's key changes table one only.
    alice.post(reverse("deal_save", args=[one.entry_key, 1]), deal_post())
    assert Deal.objects.get().table_id == one.pk
    assert not two.deals.exists()


def test_live_check_puts_each_error_next_to_its_field(table):
    alice = seated_client(table, 0)
    html = alice.post(
        reverse("table_check", args=[table.entry_key]), deal_post(hands=("", "AS", "7H", "Q?"))
    ).content.decode()
    start = html.index('id="err-p3_cards" hx-swap-oob="true"')
    assert "Q?" in html[start : html.index("</div>", start)]
    cleared = html.index('id="err-p1_cards" hx-swap-oob="true"')
    assert '<p class="error">' not in html[cleared : html.index("</div>", cleared)]


def test_a_phone_without_a_seat_cannot_confirm(client, table):
    alice = seated_client(table, 0)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    response = client.post(
        reverse("deal_confirm", args=[table.entry_key, 1]),
        {"expected_version": 1, "request_id": "x"},
    )
    assert response.status_code == 302
    assert not Deal.objects.get().is_confirmed


def test_history_names_who_and_shows_old_and_new_of_each_field(client, table):
    alice = seated_client(table, 0)
    alice.post(
        reverse("deal_save", args=[table.entry_key, 1]), deal_post(hands=("", "AS K", "7H", "QS"))
    )
    # A correction that keeps the points (K → Q is 10 either way) must still show what changed.
    alice.post(
        reverse("deal_save", args=[table.entry_key, 1]),
        deal_post(hands=("", "AS Q", "7H", "QS"), request_id="r2", expected=1),
    )
    event = table.stage.event
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    html = client.get(
        reverse("table_history", args=[event.club.slug, event.pk, table.pk])
    ).content.decode()
    seat_one = table.seats.get(position=1).player.name
    seat_zero = table.seats.get(position=0).player.name
    assert f"{seat_one}: cards: AS K → AS Q" in html
    assert f"at {seat_zero}&#x27;s seat" in html or f"at {seat_zero}'s seat" in html


def test_a_failed_correction_stays_a_correction(table):
    alice = seated_client(table, 0)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    response = alice.post(
        reverse("deal_save", args=[table.entry_key, 1]),
        deal_post(hands=("", "AS ZZ", "7H", "QS"), request_id="r2", expected=1),
    )
    assert response.status_code == 422
    assert "Save the correction" in response.content.decode()


def test_the_table_page_refreshes_its_totals_and_pending_deals(table):
    alice, bob = seated_client(table, 0), seated_client(table, 1)
    assert (
        "Confirm deal 1"
        not in bob.get(reverse("table_live", args=[table.entry_key])).content.decode()
    )
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    live = bob.get(reverse("table_live", args=[table.entry_key])).content.decode()
    assert "Confirm deal 1" in live and "30" in live


def test_a_seat_picked_by_mistake_can_be_changed(table):
    alice = seated_client(table, 0)
    alice.post(reverse("table_seat", args=[table.entry_key]), {"seat": ""})
    assert (
        "Where do you sit?"
        in alice.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    )


@pytest.mark.parametrize("value", ["¹", "٣", "9" * 30, "-1"])
def test_odd_digits_and_huge_numbers_are_refused_not_crashed(table, value):
    alice = seated_client(table, 0)
    data = deal_post(number=value, expected=value, out=value)
    assert alice.post(reverse("table_check", args=[table.entry_key]), data).status_code == 200
    assert alice.post(reverse("deal_save", args=[table.entry_key, 1]), data).status_code in {
        302,
        409,
        422,
    }
    assert (
        alice.post(reverse("table_seat", args=[table.entry_key]), {"seat": value}).status_code
        == 302
    )


def test_words_inside_engine_messages_are_translated_too():
    from django.utils import translation

    from rules import RuleViolation, check_contract_text, get_variant
    from scoring.i18n import violation_text

    with pytest.raises(RuleViolation) as info:
        check_contract_text(get_variant("rutupeli"), 2, ["7H 7S 7D"])  # game 2: 1 run + 1 set
    english = violation_text(info.value)
    assert "1 run + 1 set" in english
    with translation.override("fi"):
        finnish = violation_text(info.value)
    assert "1 run + 1 set" not in finnish
    assert "värisuora" in finnish


@pytest.mark.parametrize("variant_id", sorted(GOOD))
def test_history_names_each_player_with_their_points(client, variant_id):
    table = entry_table(variant_id)
    phone = seated_client(table, 0)
    data = {"number": 1, "request_id": "h1", "expected_version": 0, **GOOD[variant_id]}
    assert phone.post(reverse("deal_save", args=[table.entry_key, 1]), data).status_code == 302
    event = table.stage.event
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    html = client.get(
        reverse("table_history", args=[event.club.slug, event.pk, table.pk])
    ).content.decode()
    html = html.replace("\xa0", " ")  # a name and its points are kept on one line
    names = [seat.player.name for seat in table.seats.order_by("position")]
    points = DealVersion.objects.get().points
    assert len(points) == len(names)
    assert ", ".join(f"{name} {value}" for name, value in zip(names, points, strict=True)) in html
