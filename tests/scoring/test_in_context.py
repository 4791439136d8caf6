"""A save is judged with the whole table: nothing a table saves can stop its sheet from being
scored, and a table whose stored deals cannot be scored never takes a page down."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from rules import RuleViolation
from scoring.models import Deal, DealStatus
from scoring.selectors import event_sheets, table_sheet
from scoring.services import Actor, deal_void
from standings.selectors import event_ranking
from tests.support.deals import SEAT0, gin, record, tiz
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role

pytestmark = pytest.mark.django_db


def director_of(table) -> Actor:
    """The club's director at the desk: the services read the rights from the user."""
    club = table.stage.event.club
    return Actor(device="desk", user=MembershipFactory(club=club, role=Role.DIRECTOR).user)


@pytest.fixture
def tizlapos():
    _event, (table,) = seated_event(
        variant_id="tizlapos_romi", players=4, options={"allow_points_entry": True}
    )
    return table


@pytest.fixture
def gin_table():
    _event, (table, *_rest) = seated_event(
        variant_id="gin_romi", players=4, options={"allow_points_entry": True}
    )
    return table


def test_a_reentry_of_a_player_still_in_is_refused_at_its_field(tizlapos):
    with pytest.raises(RuleViolation) as info:
        record(tizlapos, 1, tiz(reenter=(2,)))
    assert info.value.field == "players.2.reenter"
    assert info.value.code == "not_out"
    assert not Deal.objects.exists()


def test_points_for_an_eliminated_player_are_refused(tizlapos):
    record(tizlapos, 1, tiz(points=(None, 17, 100, 8)))  # seat 2 reaches 100: out
    with pytest.raises(RuleViolation) as info:
        record(tizlapos, 2, tiz(points=(None, 5, 5, 5)))
    assert info.value.code == "seat_out"
    assert info.value.params["number"] == 2
    assert Deal.objects.count() == 1
    assert table_sheet(table=tizlapos).problem is None


def test_a_correction_that_breaks_a_later_deal_names_it(gin_table):
    record(gin_table, 1, gin(deadwood=(5, 65)))  # 60
    record(gin_table, 2, gin(deadwood=(5, 65)))  # 120
    record(gin_table, 3, gin(deadwood=(5, 25)))  # 140: the game goes on
    second = Deal.objects.get(table=gin_table, number=2)
    with pytest.raises(RuleViolation) as info:
        # 155 after deal 2 ends the game there: deal 3 could no longer be scored.
        record(
            gin_table, 2, gin(deadwood=(5, 100)), by=director_of(gin_table), expected=second.version
        )
    assert info.value.code == "breaks_later_deal"
    assert info.value.params["number"] == 3
    second.refresh_from_db()
    assert second.points == [60, 0]


def test_the_live_check_refuses_what_the_save_would(tizlapos, client):
    client.post(reverse("table_seat", args=[tizlapos.entry_key]), {"seat": "0"})
    post = {
        "number": "1",
        "winner": "0",
        "p1_points": "17",
        "p2_points": "30",
        "p3_points": "8",
        "p2_reenter": "on",
    }
    check = client.post(reverse("table_check", args=[tizlapos.entry_key]), post)
    assert check.status_code == 200
    assert "still in the buli" in check.content.decode()
    save = client.post(reverse("deal_save", args=[tizlapos.entry_key, 1]), post)
    assert save.status_code == 422
    assert "still in the buli" in save.content.decode()
    assert not Deal.objects.exists()


def _break(table, number, points, flags):
    """Store a deal the engine cannot place, as old data or a rule change might leave it."""
    return Deal.objects.create(
        table=table, number=number, entry={}, points=points, flags=flags, version=1
    )


def _pages(table, director_client, anonymous):
    event = table.stage.event
    args = [event.club.slug, event.pk]
    key = table.entry_key
    return {
        "entry": director_client.get(reverse("table_entry", args=[key])),
        "live": director_client.get(reverse("table_live", args=[key])),
        "edit": director_client.get(reverse("deal_edit", args=[key, 1])),
        "public": anonymous.get(reverse("event_public", args=args)),
        "public live": anonymous.get(reverse("event_live", args=args)),
        "manage": director_client.get(reverse("event_manage", args=args)),
        "history": director_client.get(reverse("table_history", args=[*args, table.pk])),
    }


def test_a_table_that_cannot_be_scored_needs_the_director_and_breaks_no_page():
    event, tables = seated_event(variant_id="tizlapos_romi", players=8)
    broken, healthy = tables
    record(healthy, 1, tiz())
    record(broken, 1, tiz())
    # Deal 2 re-enters seat 1, who is still in the buli: no service would save this.
    _break(broken, 2, [0, 5, 5, 5], {"winner": 0, "ending": "romi", "reenter": [1]})
    director = MembershipFactory(club=event.club, role=Role.DIRECTOR).user
    director_client, anonymous = Client(raise_request_exception=True), Client()
    director_client.force_login(director)

    for name, response in _pages(broken, director_client, anonymous).items():
        assert response.status_code == 200, name
    entry = director_client.get(reverse("table_entry", args=[broken.entry_key])).content.decode()
    assert "needs the director" in entry
    assert "Deal 2 cannot be scored" in entry
    public = anonymous.get(reverse("event_public", args=[event.club.slug, event.pk]))
    assert "needs the director" in public.content.decode()

    sheets = {sheet.table.pk: sheet for sheet in event_sheets(event=event)}
    assert sheets[broken.pk].problem.number == 2
    assert sheets[broken.pk].next_number is None  # nothing more is entered until repaired
    assert sheets[healthy.pk].problem is None
    assert sheets[broken.pk].standing.totals == table_sheet(table=broken).standing.totals
    assert len(event_ranking(event=event)) == 8


def test_the_director_voids_the_deal_and_the_table_enters_it_again():
    _event, tables = seated_event(variant_id="tizlapos_romi", players=4)
    (table,) = tables
    record(table, 1, tiz())
    bad = _break(table, 2, [0, 5, 5, 5], {"winner": 0, "ending": "romi", "reenter": [1]})
    deal_void(
        deal=bad, by=director_of(table), note="re-entry of a player still in", request_id="v1"
    )
    bad.refresh_from_db()
    assert bad.status == DealStatus.VOIDED
    sheet = table_sheet(table=table)
    assert sheet.problem is None
    assert sheet.next_number == 2
    assert [v.action for v in bad.versions.all()] == ["void"]
    # The table enters deal 2 afresh, as a new version of the voided deal.
    again = record(table, 2, tiz(points=(None, 5, 5, 5)), expected=bad.version)
    assert again.status == DealStatus.SUBMITTED
    assert table_sheet(table=table).next_number == 3


def test_voiding_a_deal_a_later_one_depends_on_is_refused(tizlapos):
    record(tizlapos, 1, tiz(points=(None, 17, 100, 8)))  # seat 2 out
    record(tizlapos, 2, tiz(points=(None, 5, 5, 5), reenter=(2,)))  # ...and back in
    first = Deal.objects.get(table=tizlapos, number=1)
    with pytest.raises(RuleViolation) as info:
        deal_void(deal=first, by=director_of(tizlapos), note="", request_id="v2")
    assert info.value.code == "breaks_later_deal"
    assert info.value.params["number"] == 2


def test_only_a_director_voids(tizlapos):
    deal = record(tizlapos, 1, tiz())
    with pytest.raises(RuleViolation):
        deal_void(deal=deal, by=SEAT0, note="", request_id="v3")


def test_a_post_longer_than_any_hand_is_refused_before_the_engine(tizlapos, client):
    client.post(reverse("table_seat", args=[tizlapos.entry_key]), {"seat": "0"})
    post = {"number": "1", "winner": "0", "p1_cards": "AS " * 2000}
    check = client.post(reverse("table_check", args=[tizlapos.entry_key]), post)
    assert "at most 400 characters, not 5999" in check.content.decode()
    save = client.post(reverse("deal_save", args=[tizlapos.entry_key, 1]), post)
    assert save.status_code == 422
    assert not Deal.objects.exists()
