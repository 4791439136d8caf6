"""The table page: what Gin Römi posts for a void or römi deal, the Tízlapos hand's label,
no new entry form while a deal waits for confirmation, and the director's correction."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Deal
from tests.support.entry import deal_post, seated_client
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role

pytestmark = pytest.mark.django_db


def _gin_table():
    _event, (table,) = seated_event(variant_id="gin_romi", players=2)
    return table


def _gin_post(**fields):
    data = {"number": 1, "request_id": "g1", "expected_version": 0}
    data.update({"p0_cards": "", "p1_cards": "", "p0_points": "", "p1_points": ""})
    data.update(fields)
    return data


def test_a_void_gin_deal_needs_nothing_but_its_ending():
    table = _gin_table()
    alice = seated_client(table, 0)
    response = alice.post(reverse("deal_save", args=[table.entry_key, 1]), _gin_post(ending="void"))
    assert response.status_code == 302, response.content.decode()
    deal = Deal.objects.get()
    assert deal.points == [0, 0]
    assert deal.entry["hands"] is None and deal.entry["deadwood"] is None


def test_a_gin_romi_needs_no_typed_zero_for_the_romi_player():
    table = _gin_table()
    alice = seated_client(table, 0)
    response = alice.post(
        reverse("deal_save", args=[table.entry_key, 1]),
        _gin_post(ending="romi", by="0", upper="7D", p1_points="23"),
    )
    assert response.status_code == 302, response.content.decode()
    deal = Deal.objects.get()
    assert deal.entry["deadwood"] == [0, 23]
    assert deal.points[0] > deal.points[1]


def test_a_gin_romi_takes_the_other_hand_alone():
    table = _gin_table()
    alice = seated_client(table, 0)
    response = alice.post(
        reverse("deal_save", args=[table.entry_key, 1]),
        _gin_post(ending="romi", by="1", upper="7D", p0_cards="AS 2S 3S 4H 5H 6H 7D 8D 9C KC"),
    )
    assert response.status_code == 302, response.content.decode()
    deal = Deal.objects.get()
    assert deal.entry["deadwood"][1] == 0
    assert deal.entry["deadwood"][0] == 34  # 7D 8D 9C KC left over


def test_a_gin_romi_with_a_short_other_hand_says_so_on_that_hand():
    table = _gin_table()
    alice = seated_client(table, 0)
    response = alice.post(
        reverse("deal_save", args=[table.entry_key, 1]),
        _gin_post(ending="romi", by="1", upper="7D", p0_cards="AS 2S 3S"),
    )
    assert response.status_code == 422
    assert "has 3 cards" in response.content.decode()
    assert not Deal.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Enter {name}'s ten cards or deadwood points."),
        ("fi", "Syötä pelaajan {name} kymmenen korttia tai irtokorttien pisteet."),
        ("hu", "Add meg {name} játékos tíz lapját vagy különálló lapjainak értékét."),
    ],
)
def test_a_gin_hand_not_entered_yet_is_asked_for_by_name(language, words):
    # The live check runs while the first hand is typed: the other is asked for, never
    # checked as '"None" is not a number of points'.
    table = _gin_table()
    alice = seated_client(table, 0)
    html = alice.post(
        reverse("table_check", args=[table.entry_key]),
        _gin_post(ending="knock", by="0", upper="7D", p0_points="4"),
        headers={"accept-language": language},
    ).content.decode()
    name = table.seats.get(position=1).player.name
    assert words.format(name=name).replace("'", "&#x27;") in html
    assert "None" not in html


def test_the_tizlapos_hand_field_asks_for_the_whole_hand():
    _event, (table,) = seated_event(variant_id="tizlapos_romi", players=4)
    html = seated_client(table, 0).get(reverse("table_entry", args=[table.entry_key])).content
    html = html.decode()
    assert "Hand (10 cards)" in html
    assert "Cards left in hand" not in html


@pytest.fixture
def rutupeli():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    return table


def test_a_waiting_deal_is_not_offered_as_a_new_entry_form(rutupeli):
    table = rutupeli
    alice, bob = seated_client(table, 0), seated_client(table, 1)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    html = bob.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    assert "Confirm deal 1" in html
    assert "Correct it" in html
    assert "Deal 2</h2>" not in html
    assert reverse("deal_save", args=[table.entry_key, 2]) not in html
    assert "The game is over" not in html
    # The phone correcting the deal still has its form.
    edit = bob.get(reverse("deal_edit", args=[table.entry_key, 1])).content.decode()
    assert reverse("deal_save", args=[table.entry_key, 1]) in edit
    # Once confirmed, the next deal is offered.
    bob.post(
        reverse("deal_confirm", args=[table.entry_key, 1]),
        {"expected_version": 1, "request_id": "c1"},
    )
    html = bob.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    assert reverse("deal_save", args=[table.entry_key, 2]) in html


def test_a_finished_rutupeli_table_offers_no_deal_8(rutupeli):
    table = rutupeli
    alice, bob = seated_client(table, 0), seated_client(table, 1)
    deals = len(table.stage.event.variant.deals)
    for number in range(1, deals + 1):
        saved = alice.post(
            reverse("deal_save", args=[table.entry_key, number]),
            deal_post(number=number, request_id=f"s{number}"),
        )
        assert saved.status_code == 302
        if number < deals:
            bob.post(
                reverse("deal_confirm", args=[table.entry_key, number]),
                {"expected_version": 1, "request_id": f"c{number}"},
            )
    assert Deal.objects.filter(table=table).count() == deals
    html = bob.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    assert f"Confirm deal {deals}" in html
    assert f"Deal {deals + 1}" not in html
    bob.post(
        reverse("deal_confirm", args=[table.entry_key, deals]),
        {"expected_version": 1, "request_id": "last"},
    )
    html = bob.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    assert f"Deal {deals + 1}" not in html
    assert "The game is over" in html


def test_a_directors_correction_of_a_confirmed_deal_says_what_happened(client, rutupeli):
    table = rutupeli
    alice, bob = seated_client(table, 0), seated_client(table, 1)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    bob.post(
        reverse("deal_confirm", args=[table.entry_key, 1]),
        {"expected_version": 1, "request_id": "c1"},
    )
    client.force_login(MembershipFactory(club=table.stage.event.club, role=Role.DIRECTOR).user)
    deal = Deal.objects.get()
    response = client.post(
        reverse("deal_save", args=[table.entry_key, 1]),
        deal_post(hands=("", "AS", "7H", "QS"), request_id="d1", expected=deal.version),
        follow=True,
    )
    html = response.content.decode()
    assert Deal.objects.get().is_confirmed
    assert "Someone at another seat confirms it" not in html
    assert "stays confirmed" in html
