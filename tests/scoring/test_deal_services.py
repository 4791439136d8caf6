from __future__ import annotations

import pytest

from rules import RuleViolation
from scoring.models import Deal, DealStatus, DealVersion
from scoring.selectors import table_sheet
from scoring.services import Actor, StaleDeal, deal_confirm, deal_record
from standings.selectors import event_ranking
from tests.support.events import new_request_id, seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role

pytestmark = pytest.mark.django_db

SEAT0 = Actor(device="phone-a", seat=0)
SEAT1 = Actor(device="phone-b", seat=1)


def director_actor(table) -> Actor:
    """The club's director at the desk: the services read the rights from the user."""
    club = table.stage.event.club
    return Actor(device="desk", user=MembershipFactory(club=club, role=Role.DIRECTOR).user)


def rutupeli_entry(out=0, hands=("", "AS KD", "7H 7C 2D", "QS")):
    return {
        "out": out,
        "players": [{"cards": hand or None, "points": None, "buys": 0} for hand in hands],
    }


def record(table, number, entry, by=SEAT0, expected=0, request_id=None):
    return deal_record(
        table=table,
        number=number,
        entry=entry,
        by=by,
        expected_version=expected,
        request_id=request_id or new_request_id(),
    )


def test_submit_prices_the_hands_and_keeps_a_version():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    deal = record(table, 1, rutupeli_entry())
    assert deal.points == [0, 30, 15, 10]  # A=20+K=10; 7+7+2 = 5 each; Q=10
    assert deal.contract == {"sets": 2, "runs": 0}
    assert deal.status == DealStatus.SUBMITTED
    (version,) = DealVersion.objects.filter(deal=deal)
    assert (version.version, version.action, version.by_seat, version.device) == (
        1,
        "submit",
        0,
        "phone-a",
    )


def test_a_mistyped_card_is_refused_naming_the_token_and_nothing_is_saved():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    with pytest.raises(RuleViolation) as info:
        record(table, 1, rutupeli_entry(hands=("", "AS KZ", "7H", "QS")))
    assert info.value.token == "KZ"
    assert info.value.field == "players.1.cards"
    assert not Deal.objects.exists()


def test_three_queens_of_spades_in_a_two_deck_game_is_impossible():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    with pytest.raises(RuleViolation) as info:
        record(table, 1, rutupeli_entry(hands=("", "QS QS", "QS", "2H")))
    assert "Q" in info.value.message and "2" in info.value.message
    assert not Deal.objects.exists()


def test_confirmation_needs_another_seat_and_another_device():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    deal = record(table, 1, rutupeli_entry())
    with pytest.raises(RuleViolation) as same_seat:
        deal_confirm(
            deal=deal, by=Actor(device="phone-c", seat=0), expected_version=1, request_id="c1"
        )
    assert same_seat.value.code == "confirm_same_seat"
    with pytest.raises(RuleViolation) as same_device:
        deal_confirm(
            deal=deal, by=Actor(device="phone-a", seat=2), expected_version=1, request_id="c2"
        )
    assert same_device.value.code == "confirm_same_device"
    confirmed = deal_confirm(deal=deal, by=SEAT1, expected_version=1, request_id="c3")
    assert confirmed.status == DealStatus.CONFIRMED
    assert confirmed.version == 2


def test_director_may_confirm_their_own_entry():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    director = director_actor(table)
    deal = record(table, 1, rutupeli_entry(), by=director)
    assert deal_confirm(deal=deal, by=director, expected_version=1, request_id="d").is_confirmed


def test_stale_save_is_refused_and_keeps_the_first():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    first = record(table, 1, rutupeli_entry())
    with pytest.raises(StaleDeal) as info:
        record(table, 1, rutupeli_entry(hands=("", "AS", "2H", "3H")), by=SEAT1, expected=0)
    assert info.value.current.pk == first.pk
    assert Deal.objects.get().points == [0, 30, 15, 10]


def test_double_tap_records_once():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    one = record(table, 1, rutupeli_entry(), request_id="tap")
    two = record(table, 1, rutupeli_entry(), request_id="tap")
    assert one.pk == two.pk
    assert DealVersion.objects.count() == 1


def test_table_corrects_before_confirmation_only_director_after():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    record(table, 1, rutupeli_entry())
    corrected = record(table, 1, rutupeli_entry(hands=("", "AS", "7H", "QS")), by=SEAT1, expected=1)
    assert corrected.points == [0, 20, 5, 10]
    assert corrected.version == 2
    # Neither the corrector (seat 1) nor the seat that first entered it (seat 0) confirms: a
    # third seat does.
    for made_a_version in (SEAT0, SEAT1):
        with pytest.raises(RuleViolation) as info:
            deal_confirm(deal=corrected, by=made_a_version, expected_version=2, request_id="x")
        assert info.value.code == "confirm_same_seat"
    deal_confirm(
        deal=corrected, by=Actor(device="phone-c", seat=2), expected_version=2, request_id="x"
    )
    with pytest.raises(RuleViolation) as info:
        record(table, 1, rutupeli_entry(), by=SEAT1, expected=3)
    assert info.value.code == "deal_locked"
    director = director_actor(table)
    final = record(table, 1, rutupeli_entry(), by=director, expected=3)
    assert final.is_confirmed and final.points == [0, 30, 15, 10]
    history = list(DealVersion.objects.filter(deal=final).values_list("action", "points"))
    assert history == [
        ("submit", [0, 30, 15, 10]),
        ("correct", [0, 20, 5, 10]),
        ("confirm", [0, 20, 5, 10]),
        ("correct", [0, 30, 15, 10]),
    ]


def test_deals_go_in_order_and_the_game_ends():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    with pytest.raises(RuleViolation) as info:
        record(table, 2, rutupeli_entry())
    assert info.value.code == "deal_order"
    for number in range(1, 8):
        record(table, number, rutupeli_entry())
    sheet = table_sheet(table=table)
    assert sheet.standing.finished
    assert sheet.next_number is None
    with pytest.raises(RuleViolation) as over:
        record(table, 8, rutupeli_entry())
    assert over.value.code in {"game_over", "bad_deal"}


def test_event_ranking_orders_players_and_marks_unconfirmed():
    event, tables = seated_event(variant_id="rutupeli", players=8)
    record(tables[0], 1, rutupeli_entry())
    ranking = event_ranking(event=event)
    assert len(ranking) == 8
    # Table 2 has played no deal: the table that has comes first, by total per deal (the
    # old order by plain total put table 2's zeros above table 1's deal).
    played = [row for row in ranking if row.deals]
    assert ranking[: len(played)] == played and all(row.table == 1 for row in played)
    assert [row.total for row in played] == sorted(row.total for row in played)
    table_one = [row for row in ranking if row.table == 1]
    assert all(row.unconfirmed for row in table_one)
    assert not any(row.unconfirmed for row in ranking if row.table == 2)


def test_confirmation_needs_a_seat_unless_director():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    deal = record(table, 1, rutupeli_entry())
    with pytest.raises(RuleViolation) as info:
        deal_confirm(deal=deal, by=Actor(device="stranger"), expected_version=1, request_id="s")
    assert info.value.code == "confirm_needs_seat"
    assert not Deal.objects.get().is_confirmed


def test_confirming_an_outdated_version_is_told_apart():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    deal = record(table, 1, rutupeli_entry())
    record(table, 1, rutupeli_entry(hands=("", "AS", "7H", "QS")), by=SEAT0, expected=1)
    with pytest.raises(StaleDeal) as info:
        deal_confirm(deal=deal, by=SEAT1, expected_version=1, request_id="late")
    assert info.value.confirming
    assert not Deal.objects.get().is_confirmed
