from __future__ import annotations

from xml.etree import ElementTree

import pytest
from django.urls import reverse

from scoring.models import Deal
from scoring.services import Actor, deal_record
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Event, Player, Registration, Role, Seat, Stage, StageStatus, Table
from tournaments.services import event_create, registration_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(club):
    return MembershipFactory(club=club, role=Role.DIRECTOR).user


@pytest.fixture
def event(club):
    import datetime

    return event_create(
        published=True,
        club=club,
        name="Night",
        date=datetime.date(2026, 11, 28),
        variant_id="rutupeli",
    )


def manage_url(event, name="event_manage", *args):
    return reverse(name, args=[event.club.slug, event.pk, *args])


def test_director_creates_an_event_with_its_rules_stored(client, club, director):
    client.force_login(director)
    response = client.post(
        reverse("event_new", args=[club.slug]),
        {
            "name": "Räväytys Friday",
            "date": "2026-12-04",
            "variant_id": "ravaytys",
            "preferred_table_size": 5,
            "require_laydown": "on",
        },
    )
    event = Event.objects.get(name="Räväytys Friday")
    assert response["Location"] == manage_url(event)
    assert event.variant.require_laydown is True
    assert event.variant_options["id"] == "ravaytys"
    page = client.get(manage_url(event)).content.decode()
    assert "Rules of this event" in page


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("outsider", 403), ("member", 403), ("director", 200)]
)
def test_event_pages_are_for_directors(client, event, who, status, request):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    assert client.get(manage_url(event)).status_code == status
    assert client.get(reverse("event_new", args=[event.club.slug])).status_code == status
    assert client.post(manage_url(event, "draw")).status_code == (302 if status == 200 else status)


def test_registration_check_in_guest_and_withdraw(client, event, director):
    client.force_login(director)
    member_player = Player.objects.get(user=director)
    client.post(manage_url(event, "registration_create"), {"player": member_player.pk})
    client.post(manage_url(event, "registration_create"), {"player": "", "name": "Guest Gustav"})
    registrations = {r.player.name: r for r in Registration.objects.filter(event=event)}
    assert registrations["Guest Gustav"].player.is_guest
    assert registrations["Guest Gustav"].status == "checked_in"
    guest = registrations["Guest Gustav"]
    withdraw = {"status": "withdrawn", "confirm": "yes"}
    client.post(manage_url(event, "registration_update", guest.pk), withdraw)
    guest.refresh_from_db()
    assert guest.status == "withdrawn"
    empty = client.post(
        manage_url(event, "registration_create"), {"player": "", "name": ""}, follow=True
    )
    assert "Pick a player or type a guest" in empty.content.decode()


def test_draw_preview_swap_redraw_confirm(client, event, director):
    for index in range(8):
        registration_add(
            event=event,
            player=Player.objects.create(club=event.club, name=f"P{index}"),
            checked_in=True,
        )
    client.force_login(director)
    client.post(manage_url(event, "draw"))
    stage = Stage.objects.get(event=event)
    assert stage.status == StageStatus.PREVIEW
    assert sorted(stage.tables.values_list("seats__player__name", flat=True)) == [
        f"P{i}" for i in range(8)
    ]
    table_one = stage.tables.get(number=1)
    first, second = table_one.seats.order_by("position")[:2]
    client.post(manage_url(event, "seats_swap"), {"first": first.pk, "second": second.pk})
    assert table_one.seats.get(position=0).player_id == second.player_id
    assert table_one.seats.get(position=1).player_id == first.player_id
    assert table_one.seats.get(position=0).is_first_dealer
    old_seed = stage.seed
    client.post(manage_url(event, "draw"))
    stage.refresh_from_db()
    assert stage.seed != old_seed  # a fresh random seed, stored with the stage
    assert stage.tables.count() == 2
    client.post(manage_url(event, "draw_confirm"))
    stage.refresh_from_db()
    assert stage.status == StageStatus.CONFIRMED
    page = client.get(manage_url(event)).content.decode()
    assert "/t/" in page and "qr.svg" in page


def test_too_few_players_says_why(client, event, director):
    registration_add(
        event=event, player=Player.objects.create(club=event.club, name="Alone"), checked_in=True
    )
    client.force_login(director)
    page = client.post(manage_url(event, "draw"), follow=True).content.decode()
    assert "a table needs at least 3" in page


def test_no_redraw_once_scores_exist(client, director):
    event, (table,) = seated_event(
        variant_id="rutupeli", players=4, club=director.memberships.get().club
    )
    deal_record(
        table=table, number=1, entry={"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "A", "K", "Q")]},
        by=Actor(device="d", seat=0), expected_version=0, request_id="r",
    )  # fmt: skip
    from rules import RuleViolation
    from tournaments.services import stage_draw

    with pytest.raises(RuleViolation):
        stage_draw(event=event)
    assert Deal.objects.count() == 1


def test_revoke_gives_a_new_link(client, director):
    event, (table,) = seated_event(
        variant_id="rutupeli", players=4, club=director.memberships.get().club
    )
    client.force_login(director)
    old = table.entry_key
    client.post(reverse("table_revoke", args=[event.club.slug, event.pk, table.pk]))
    table.refresh_from_db()
    assert table.entry_key != old
    assert client.get(reverse("table_entry", args=[old])).status_code == 404
    qr = client.get(reverse("table_qr", args=[table.entry_key]))
    assert qr.headers["Content-Type"] == "image/svg+xml"
    # An SVG file a browser draws as a picture: a document in the SVG namespace (without
    # it, the manage page's <img> of the QR code was a broken picture).
    assert ElementTree.fromstring(qr.content).tag == "{http://www.w3.org/2000/svg}svg"


def test_club_page_lists_events_and_says_what_to_do_when_empty(client, club, director):
    assert "No events yet." in client.get(club.get_absolute_url()).content.decode()
    client.force_login(director)
    assert "New event" in client.get(club.get_absolute_url()).content.decode()


def test_rules_are_described_in_the_readers_language(client, event, director):
    from django.utils import translation

    from rules import describe_options

    with translation.override("fi"):
        finnish = dict(describe_options(event.variant, translation.gettext))
    english = dict(describe_options(event.variant))
    assert len(finnish) == len(english)
    assert set(finnish) != set(english)  # the labels are translated


@pytest.mark.parametrize("who", ["anonymous", "outsider", "member"])
def test_non_directors_change_nothing(client, director, who, request):
    event, (table,) = seated_event(
        variant_id="rutupeli", players=4, club=director.memberships.get().club
    )
    if who != "anonymous":
        user = request.getfixturevalue(who)
        if who == "member":
            user = MembershipFactory(club=event.club, role=Role.MEMBER).user
        client.force_login(user)
    registration = event.registrations.first()
    key = table.entry_key
    seats = list(
        Seat.objects.filter(table=table).order_by("position").values_list("player_id", flat=True)
    )
    args = [event.club.slug, event.pk]
    posts = [
        (
            reverse("event_new", args=[event.club.slug]),
            {
                "name": "X",
                "date": "2026-12-01",
                "variant_id": "rutupeli",
                "preferred_table_size": 4,
            },
        ),
        (reverse("registration_create", args=args), {"name": "Intruder"}),
        (reverse("registration_update", args=[*args, registration.pk]), {"status": "withdrawn"}),
        (reverse("draw", args=args), {}),
        (reverse("draw_confirm", args=args), {}),
        (
            reverse("seats_swap", args=args),
            {"first": table.seats.first().pk, "second": table.seats.last().pk},
        ),
        (reverse("table_revoke", args=[*args, table.pk]), {}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code in {302, 403}, url
    table.refresh_from_db()
    assert Event.objects.filter(club=event.club).count() == 1
    assert not Player.objects.filter(name="Intruder").exists()
    assert event.registrations.get(pk=registration.pk).status == "checked_in"
    assert (
        list(
            Seat.objects.filter(table=table)
            .order_by("position")
            .values_list("player_id", flat=True)
        )
        == seats
    )
    assert Stage.objects.get(event=event).seed == 7
    assert Table.objects.get(pk=table.pk).entry_key == key


def test_redraw_stays_possible_after_confirming_until_the_first_score(client, director):
    event, (table,) = seated_event(
        variant_id="rutupeli", players=4, club=director.memberships.get().club
    )
    client.force_login(director)
    assert "Draw again" in client.get(manage_url(event)).content.decode()
    deal_record(
        table=table, number=1, entry={"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "A", "K", "Q")]},
        by=Actor(device="d", seat=0), expected_version=0, request_id="r",
    )  # fmt: skip
    assert "Draw again" not in client.get(manage_url(event)).content.decode()
