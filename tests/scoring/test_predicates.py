"""A rule is written once: each page shows a button exactly when the service behind it would
accept, because both ask the same predicate."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from rules import RuleViolation
from scoring.models import Deal, DealStatus
from scoring.services import Actor, deal_confirm, deal_record
from tests.support.entry import deal_post, seated_client
from tests.support.events import new_request_id, seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role
from tournaments.services import stage_draw

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    return table


def _director(table) -> Client:
    client = Client()
    client.force_login(MembershipFactory(club=table.stage.event.club, role=Role.DIRECTOR).user)
    return client


@pytest.mark.parametrize("scored", [False, True])
def test_draw_again_is_offered_exactly_when_a_redraw_is_allowed(table, scored):
    event = table.stage.event
    if scored:
        seated_client(table, 0).post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    page = _director(table).get(reverse("event_manage", args=[event.club.slug, event.pk]))
    offered = "Draw again" in page.content.decode()
    try:
        stage_draw(event=event, seed=1)
        allowed = True
    except RuleViolation:
        allowed = False
    assert offered is allowed is (not scored)


@pytest.mark.parametrize("who", ["same seat", "other seat", "director"])
def test_confirm_is_offered_exactly_when_the_service_accepts(table, who):
    alice = seated_client(table, 0)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    client = {"same seat": alice, "other seat": seated_client(table, 1)}.get(who) or _director(
        table
    )
    page = client.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    offered = "Confirm deal 1" in page
    deal = Deal.objects.get()
    client.post(
        reverse("deal_confirm", args=[table.entry_key, 1]),
        {"expected_version": deal.version, "request_id": new_request_id()},
    )
    accepted = Deal.objects.get().status == DealStatus.CONFIRMED
    assert offered is accepted is (who != "same seat")


def test_a_director_flag_cannot_be_forged_at_the_service(table):
    """The services read director rights from the user: a stranger is a stranger."""
    deal = deal_record(
        table=table,
        number=1,
        entry={"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "AS", "7H", "QS")]},
        by=Actor(device="a", seat=0),
        expected_version=0,
        request_id=new_request_id(),
    )
    stranger = MembershipFactory(role=Role.OWNER).user  # owns another club
    with pytest.raises(RuleViolation) as info:
        deal_confirm(
            deal=deal,
            by=Actor(device="a", seat=0, user=stranger),
            expected_version=deal.version,
            request_id=new_request_id(),
        )
    assert info.value.code == "confirm_same_seat"


@pytest.mark.parametrize("role", [Role.OWNER, Role.DIRECTOR, Role.SCORER, Role.MEMBER, None])
def test_manage_is_linked_exactly_for_those_the_manage_page_admits(table, role):
    event = table.stage.event
    client = Client()
    if role is not None:
        client.force_login(MembershipFactory(club=event.club, role=role).user)
    manage = reverse("event_manage", args=[event.club.slug, event.pk])
    linked = manage in client.get(event.club.get_absolute_url()).content.decode()
    admitted = client.get(manage).status_code == 200
    assert linked is admitted is (role in {Role.OWNER, Role.DIRECTOR})
