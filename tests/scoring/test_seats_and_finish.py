"""A seat belongs to one phone, a confirmation takes a second person, and a finished event's
links stop taking scores."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from formats.finish import event_finish, event_finish_refusal
from rules import RuleViolation
from scoring.models import Deal, DealStatus, DealVersion, SeatClaim
from scoring.services import Actor, deal_confirm, deal_record, seat_release
from tests.support.entry import deal_post, seated_client
from tests.support.events import new_request_id, seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import EventStatus, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    return table


def _director_client(table) -> Client:
    client = Client()
    client.force_login(MembershipFactory(club=table.stage.event.club, role=Role.DIRECTOR).user)
    return client


def _confirm(client, table, number=1, **extra):
    deal = Deal.objects.get(table=table, number=number)
    data = {"expected_version": deal.version, "request_id": new_request_id(), **extra}
    return client.post(reverse("deal_confirm", args=[table.entry_key, number]), data)


def test_a_seat_taken_on_one_phone_cannot_be_taken_on_another(table):
    seated_client(table, 0)
    other = Client()
    response = other.post(reverse("table_seat", args=[table.entry_key]), {"seat": "0"}, follow=True)
    assert "taken on another phone" in response.content.decode()
    assert SeatClaim.objects.filter(table=table).count() == 1
    # The pick page shows the seat as taken.
    assert "disabled" in other.get(reverse("table_entry", args=[table.entry_key])).content.decode()


def test_not_you_lets_the_seat_go_for_another_phone(table):
    alice = seated_client(table, 0)
    alice.post(reverse("table_seat", args=[table.entry_key]), {"seat": ""})
    assert not SeatClaim.objects.filter(table=table).exists()
    seated_client(table, 0)
    assert SeatClaim.objects.filter(table=table, position=0).count() == 1


def test_a_phone_holds_one_seat_per_table(table):
    phone = seated_client(table, 0)
    phone.post(reverse("table_seat", args=[table.entry_key]), {"seat": "1"})
    assert list(SeatClaim.objects.filter(table=table).values_list("position", flat=True)) == [1]


def test_the_director_frees_a_seat_once_confirmed(table):
    seated_client(table, 2)
    director = _director_client(table)
    event = table.stage.event
    url = reverse("seat_free", args=[event.club.slug, event.pk, table.pk])
    with pytest.raises(RuleViolation):
        seat_release(table=table, position=2)
    asked = director.post(url, {"seat": "2"})
    assert asked.status_code == 200
    name = table.seats.get(position=2).player.name
    assert f"Free {name}&#x27;s seat" in asked.content.decode()
    assert 'name="confirm" value="yes"' in asked.content.decode()
    assert SeatClaim.objects.filter(table=table).exists()
    response = director.post(url, {"seat": "2", "confirm": "yes"})
    assert response.status_code == 302
    assert not SeatClaim.objects.filter(table=table).exists()
    # Nobody else may free seats.
    stranger = seated_client(table, 2)
    stranger.post(url, {"seat": "2", "confirm": "yes"})
    assert SeatClaim.objects.filter(table=table).exists()


def test_one_phone_cannot_confirm_its_own_deal_by_dropping_its_cookie(table):
    alice = seated_client(table, 0)
    assert (
        alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post()).status_code == 302
    )
    # Same person, cookie dropped: a "new phone" that cannot take seat 0 back...
    alice.cookies.pop("lappu_device")
    alice.post(reverse("table_seat", args=[table.entry_key]), {"seat": "0"})
    assert (
        SeatClaim.objects.get(table=table, position=0).device != alice.cookies["lappu_device"].value
    )
    # ...and that claims a free seat after the deal was entered is flagged on confirming.
    alice.post(reverse("table_seat", args=[table.entry_key]), {"seat": "1"})
    _confirm(alice, table)
    confirmation = DealVersion.objects.get(action="confirm")
    assert confirmation.flag == "late_seat"
    event = table.stage.event
    director = _director_client(table)
    manage = director.get(reverse("event_manage", args=[event.club.slug, event.pk]))
    assert "Confirmations to look at" in manage.content.decode()
    history = director.get(reverse("table_history", args=[event.club.slug, event.pk, table.pk]))
    assert "a seat taken after the deal was first entered" in history.content.decode()


def test_a_phone_seated_before_the_deal_confirms_unflagged(table):
    alice = seated_client(table, 0)
    bob = seated_client(table, 1)
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    _confirm(bob, table)
    assert DealVersion.objects.get(action="confirm").flag == ""
    assert Deal.objects.get().status == DealStatus.CONFIRMED


def test_the_pin_option_asks_the_confirming_players_pin(table):
    event = table.stage.event
    event.confirm_needs_pin = True
    event.save()
    pins = {seat.position: seat.pin for seat in table.seats.all()}
    alice, bob = seated_client(table, 0, pins[0]), seated_client(table, 1, pins[1])
    alice.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post())
    page = bob.get(reverse("table_entry", args=[table.entry_key])).content.decode()
    assert 'name="pin"' in page
    bob_pin = pins[1]
    wrong = "0000" if bob_pin != "0000" else "1111"
    response = _confirm(bob, table, pin=wrong)
    assert Deal.objects.get().status == DealStatus.SUBMITTED
    assert "That is not this seat&#x27;s PIN" in bob.get(response["Location"]).content.decode()
    _confirm(bob, table, pin="12x4")
    assert Deal.objects.get().status == DealStatus.SUBMITTED
    _confirm(bob, table, pin=bob_pin)
    assert Deal.objects.get().status == DealStatus.CONFIRMED


def _play_out(table, deals=7):
    for number in range(1, deals + 1):
        deal = deal_record(
            table=table,
            number=number,
            entry={
                "out": 0,
                "players": [{"cards": None, "points": None, "buys": 0}]
                + [{"cards": card, "points": None, "buys": 0} for card in ("5H", "5S", "5D")],
            },
            by=Actor(device="a", seat=0),
            expected_version=0,
            request_id=new_request_id(),
        )
        deal_confirm(
            deal=deal,
            by=Actor(device="b", seat=1),
            expected_version=deal.version,
            request_id=new_request_id(),
        )


def test_finishing_is_offered_only_when_every_table_is_done(table):
    event = table.stage.event
    director = _director_client(table)
    manage_url = reverse("event_manage", args=[event.club.slug, event.pk])
    assert event_finish_refusal(event=event).code == "tables_playing"
    assert "Finish the event" not in director.get(manage_url).content.decode()
    finish_url = reverse("event_finish", args=[event.club.slug, event.pk])
    refused = director.post(finish_url, {"confirm": "yes"})
    assert refused.status_code == 302
    event.refresh_from_db()
    assert event.status != EventStatus.FINISHED

    _play_out(table)
    assert event_finish_refusal(event=event) is None
    assert "Finish the event" in director.get(manage_url).content.decode()
    # The manage page's button asks first; the service refuses what was not confirmed.
    with pytest.raises(RuleViolation):
        event_finish(event=event)
    asked = director.post(finish_url)
    assert asked.status_code == 200
    assert f"Finish {event.name}?" in asked.content.decode()
    event.refresh_from_db()
    assert event.status != EventStatus.FINISHED
    director.post(finish_url, {"confirm": "yes"})
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    assert event.finished_at is not None


def test_a_finished_events_table_links_take_no_more_scores(table):
    _play_out(table)
    phone = seated_client(table, 0)
    director = _director_client(table)
    event = table.stage.event
    director.post(reverse("event_finish", args=[event.club.slug, event.pk]), {"confirm": "yes"})
    page = phone.get(reverse("table_entry", args=[table.entry_key]))
    assert page.status_code == 404
    assert "This event is finished" in page.content.decode()
    versions = DealVersion.objects.count()
    save = phone.post(reverse("deal_save", args=[table.entry_key, 1]), deal_post(expected=3))
    assert save.status_code == 404
    assert DealVersion.objects.count() == versions


def test_table_pages_are_never_stored_by_a_browser_or_proxy(table):
    phone = seated_client(table, 0)
    for name in ("table_entry", "table_live"):
        response = phone.get(reverse(name, args=[table.entry_key]))
        assert "no-store" in response["Cache-Control"], name


@pytest.mark.parametrize(("debug", "secure"), [(True, False), (False, True)])
def test_the_device_cookie_is_secure_in_production(table, settings, debug, secure):
    settings.DEVICE_COOKIE_SECURE = secure
    response = Client().get(reverse("table_entry", args=[table.entry_key]))
    assert bool(response.cookies["lappu_device"]["secure"]) is secure


def test_the_pin_option_is_chosen_when_creating_the_event(club):
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    client = Client()
    client.force_login(director)
    form = {
        "name": "PIN night",
        "date": "2026-12-05",
        "variant_id": "rutupeli",
        "preferred_table_size": "4",
        "confirm_needs_pin": "on",
    }
    response = client.post(reverse("event_new", args=[club.slug]), form)
    assert response.status_code == 302
    assert club.events.get(name="PIN night").confirm_needs_pin is True


@pytest.mark.parametrize(
    ("role", "status"),
    [(Role.SCORER, 200), (Role.DIRECTOR, 200), (Role.OWNER, 200), (Role.MEMBER, 403)],
)
def test_scorers_reach_every_tables_entry_link(table, role, status):
    event = table.stage.event
    client = Client()
    client.force_login(MembershipFactory(club=event.club, role=role).user)
    response = client.get(reverse("event_tables", args=[event.club.slug, event.pk]))
    assert response.status_code == status
    if status == 200:
        assert table.get_entry_url() in response.content.decode()
    club_page = client.get(event.club.get_absolute_url()).content.decode()
    assert (reverse("event_tables", args=[event.club.slug, event.pk]) in club_page) is (
        role == Role.SCORER
    )


def test_the_tables_page_asks_anonymous_visitors_to_sign_in(table, client):
    event = table.stage.event
    response = client.get(reverse("event_tables", args=[event.club.slug, event.pk]))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
