"""Check-in at the door: the services, the page's permissions and answers, the personal
codes (forged, foreign, reused) and the draw seating exactly the checked-in."""

from __future__ import annotations

import datetime

import pytest
from django.core import signing
from django.urls import reverse

from rules import RuleViolation
from tests.support.factories import MembershipFactory
from tournaments.checkin import (
    checkin_count,
    checkin_registrations,
    checkin_set,
    no_shows_mark,
)
from tournaments.models import (
    Player,
    Registration,
    RegistrationChange,
    RegistrationStatus,
    Role,
    Seat,
)
from tournaments.registration_links import (
    QR_SALT,
    registration_for_token,
    registration_qr_png,
    registration_qr_svg,
    registration_qr_token,
    registration_qr_url,
)
from tournaments.services import event_create, registration_add, stage_draw

pytestmark = pytest.mark.django_db


def night(club, name="Night"):
    return event_create(
        published=True,
        club=club,
        name=name,
        date=datetime.date(2026, 11, 28),
        variant_id="rutupeli",
    )


def register(event, *names, checked_in=False):
    return [
        registration_add(
            event=event,
            player=Player.objects.create(club=event.club, name=name),
            checked_in=checked_in,
        )
        for name in names
    ]


@pytest.fixture
def event(club):
    return night(club)


@pytest.fixture
def scorer(club):
    return MembershipFactory(club=club, role=Role.SCORER).user


@pytest.fixture
def director(club):
    return MembershipFactory(club=club, role=Role.DIRECTOR).user


def url(event, name="checkin", *args):
    return reverse(name, args=[event.club.slug, event.pk, *args])


# Services.


def test_a_check_in_is_recorded_and_undone_and_twice_is_once(event, scorer):
    (anna,) = register(event, "Anna")
    checkin_set(registration=anna, here=True, by=scorer)
    checkin_set(registration=anna, here=True, by=scorer)  # scanned again: nothing more
    anna.refresh_from_db()
    assert anna.status == RegistrationStatus.CHECKED_IN and anna.checked_in_at is not None
    assert not anna.late
    checkin_set(registration=anna, here=False, by=scorer)
    anna.refresh_from_db()
    assert anna.status == RegistrationStatus.REGISTERED
    changes = list(RegistrationChange.objects.filter(registration=anna).order_by("pk"))
    assert [(c.old_status, c.new_status, c.changed_by) for c in changes] == [
        ("", "registered", None),
        ("registered", "checked_in", scorer),
        ("checked_in", "registered", scorer),
    ]


@pytest.mark.parametrize(
    "status",
    [RegistrationStatus.WITHDRAWN, RegistrationStatus.WAITLISTED, RegistrationStatus.PENDING],
)
def test_one_without_a_place_is_not_checked_in(event, scorer, status):
    (anna,) = register(event, "Anna")
    Registration.objects.filter(pk=anna.pk).update(status=status)
    anna.refresh_from_db()
    with pytest.raises(RuleViolation) as refused:
        checkin_set(registration=anna, here=True, by=scorer)
    assert refused.value.code == "not_registered"
    anna.refresh_from_db()
    assert anna.status == status


def test_a_check_in_after_the_draw_is_late(event, scorer):
    register(event, *"ABCD", checked_in=True)
    (eve,) = register(event, "Eve")
    stage_draw(event=event, seed=1)
    checkin_set(registration=eve, here=True, by=scorer)
    eve.refresh_from_db()
    assert eve.late


def test_the_list_the_count_and_the_search(event):
    anna, _bea, _cid = register(event, "Änna Öberg", "Bea", "Cid")
    register(event, "Dan", checked_in=True)
    (gone,) = register(event, "Gone")
    Registration.objects.filter(pk=gone.pk).update(status=RegistrationStatus.WITHDRAWN)
    names = [r.player.name for r in checkin_registrations(event=event)]
    assert names == ["Änna Öberg", "Bea", "Cid", "Dan"]
    assert [r.pk for r in checkin_registrations(event=event, search="  anna  OBE")] == [anna.pk]
    count = checkin_count(event=event)
    assert (count.here, count.expected, count.absent) == (1, 4, 3)


def test_no_shows_are_marked_at_once_recorded_and_left_out_of_the_draw(event, director):
    here = register(event, "A", "B", "C", "D", checked_in=True)
    absent = register(event, "E", "F")
    with pytest.raises(RuleViolation):
        no_shows_mark(event=event, by=director)  # not confirmed
    assert no_shows_mark(event=event, by=director, confirmed=True) == 2
    assert set(
        Registration.objects.filter(status=RegistrationStatus.NO_SHOW).values_list("pk", flat=True)
    ) == {r.pk for r in absent}
    assert RegistrationChange.objects.filter(new_status="no_show", changed_by=director).count() == 2
    assert checkin_count(event=event).expected == 4
    stage = stage_draw(event=event, seed=3)
    seated = set(Seat.objects.filter(table__stage=stage).values_list("player_id", flat=True))
    assert seated == {r.player_id for r in here}
    with pytest.raises(RuleViolation) as refused:
        no_shows_mark(event=event, by=director, confirmed=True)
    assert refused.value.code == "drawn"


def test_the_draw_seats_exactly_the_checked_in(event, scorer):
    registrations = register(event, *[f"P{n}" for n in range(11)])
    for registration in registrations[:8]:
        checkin_set(registration=registration, here=True, by=scorer)
    checkin_set(registration=registrations[0], here=False, by=scorer)  # undone: not here
    stage = stage_draw(event=event, seed=5)
    seated = sorted(Seat.objects.filter(table__stage=stage).values_list("player_id", flat=True))
    assert seated == sorted(r.player_id for r in registrations[1:8])


# The personal code.


def test_a_token_opens_its_registration_only(event, club):
    (anna,) = register(event, "Anna")
    token = registration_qr_token(anna)
    assert registration_for_token(token) == anna
    assert registration_for_token(token, event=event) == anna
    other = night(club, "Other night")
    assert registration_for_token(token, event=other) is None  # shown at the wrong door
    assert registration_for_token(token[:-2] + "xx") is None  # forged
    assert registration_for_token("garbage") is None
    # A token of the same ids signed for another purpose opens nothing.
    assert registration_qr_token(anna) == token  # one code, in the mail and on the account
    other_salt = signing.Signer(salt="other").sign_object([anna.pk, event.pk])
    assert registration_for_token(other_salt) is None
    assert registration_for_token(signing.Signer(salt=QR_SALT).sign_object("x")) is None
    assert registration_qr_url(anna).endswith(f"/door/{token}/")
    assert b"<svg" in registration_qr_svg(anna)
    assert registration_qr_png(anna).startswith(b"\x89PNG")


# The pages.


def test_members_strangers_and_visitors_may_not_check_in(client, event, member, outsider):
    (anna,) = register(event, "Anna")
    for user in (member, outsider):
        client.force_login(user)
        assert client.get(url(event)).status_code == 403
        assert client.post(url(event, "checkin_tap", anna.pk), {"here": "in"}).status_code == 403
        code = registration_qr_token(anna)
        assert client.post(url(event, "checkin_scan"), {"code": code}).status_code == 403
        assert client.post(url(event, "checkin_no_shows"), {"confirm": "yes"}).status_code == 403
    client.logout()
    assert client.post(url(event, "checkin_tap", anna.pk), {"here": "in"}).status_code == 302
    anna.refresh_from_db()
    assert anna.status == RegistrationStatus.REGISTERED


def test_a_scorer_checks_in_with_one_tap_and_htmx_gets_the_row_and_count(client, event, scorer):
    anna, _bea = register(event, "Anna", "Bea")
    client.force_login(scorer)
    page = client.get(url(event))
    assert page.status_code == 200
    assert "0 of 2 here" in page.content.decode()
    answer = client.post(url(event, "checkin_tap", anna.pk), {"here": "in"}, HTTP_HX_REQUEST="true")
    body = answer.content.decode()
    assert f'id="checkin-{anna.pk}"' in body and "Undo" in body
    assert 'hx-swap-oob="true"' in body and "1 of 2 here" in body
    absent = body.split('id="absent"')[1]
    assert "<li>Bea</li>" in absent and "<li>Anna</li>" not in absent
    # Without script: back to the page, which says so.
    plain = client.post(url(event, "checkin_tap", anna.pk), {"here": "out"}, follow=True)
    assert "Anna: check-in undone." in plain.content.decode()
    assert client.post(url(event, "checkin_tap", anna.pk), {"here": "maybe"}).status_code == 302
    anna.refresh_from_db()
    assert anna.status == RegistrationStatus.REGISTERED


def test_the_search_works_without_script(client, event, scorer):
    register(event, "Ödön Kovács", "Bea")
    client.force_login(scorer)
    body = client.get(url(event), {"q": "odon"}).content.decode()
    listed = body.split('id="checkin-list"')[1].split("</ul>")[0]
    assert "Ödön Kovács" in listed and "Bea" not in listed
    body = client.get(url(event), {"q": "zzz"}).content.decode()
    assert "Nobody registered by that name" in body


def test_a_scan_checks_in_and_a_bad_code_says_so_and_changes_nothing(client, event, club, scorer):
    (anna,) = register(event, "Anna")
    other = night(club, "Other")
    (foreign,) = register(other, "Foreign")
    client.force_login(scorer)
    json = {"HTTP_ACCEPT": "application/json"}
    for code in ("nonsense", registration_qr_token(foreign), "https://example.com/t/abc/"):
        answer = client.post(url(event, "checkin_scan"), {"code": code}, **json)
        assert answer.status_code in (400, 404)
        assert answer.json()["ok"] is False and answer.json()["message"]
    foreign.refresh_from_db()
    assert foreign.status == RegistrationStatus.REGISTERED
    answer = client.post(url(event, "checkin_scan"), {"code": registration_qr_url(anna)}, **json)
    assert answer.json()["ok"] is True and answer.json()["message"] == "Anna is here."
    assert "1 of 1 here" in answer.json()["count"]
    anna.refresh_from_db()
    assert anna.status == RegistrationStatus.CHECKED_IN


def test_the_players_code_page(client, event, scorer, member):
    (anna,) = register(event, "Anna")
    token = registration_qr_token(anna)
    page = client.get(reverse("registration_qr", args=[token]))
    assert page.status_code == 200 and page["X-Robots-Tag"].startswith("noindex")
    assert "Show this at the door" in page.content.decode()
    assert "Check in Anna" not in page.content.decode()
    image = client.get(reverse("registration_qr_image", args=[token]))
    assert image["Content-Type"] == "image/svg+xml" and b"<svg" in image.content
    forged = client.get(reverse("registration_qr", args=[token[:-3] + "abc"]))
    assert forged.status_code == 404 and "Nothing was changed" in forged.content.decode()
    assert client.get(reverse("registration_qr_image", args=["nope"])).status_code == 404
    client.force_login(member)
    assert (
        "Check in Anna" not in client.get(reverse("registration_qr", args=[token])).content.decode()
    )
    client.force_login(scorer)
    page = client.get(reverse("registration_qr", args=[token])).content.decode()
    assert "Check in Anna" in page
    client.post(url(event, "checkin_scan"), {"code": token})
    anna.refresh_from_db()
    assert anna.status == RegistrationStatus.CHECKED_IN


def test_a_walk_in_is_checked_in_and_a_lookalike_is_asked_first(client, event, club, scorer):
    Player.objects.create(club=club, name="Olli Uusi")
    client.force_login(scorer)
    client.post(url(event, "checkin_walk_in"), {"name": "Walter Walk"})
    walter = Registration.objects.get(event=event, player__name="Walter Walk")
    assert walter.status == RegistrationStatus.CHECKED_IN and walter.player.guest
    # Recorded as the scorer's, as they came in: one step, from nothing to checked in.
    assert [
        (c.old_status, c.new_status, c.changed_by)
        for c in RegistrationChange.objects.filter(registration=walter)
    ] == [("", "checked_in", scorer)]
    page = client.post(url(event, "checkin_walk_in"), {"name": "olli  uusi"})
    assert "may be a player the club already has" in page.content.decode()
    assert url(event) in page.content.decode()  # the way back is the check-in page
    assert not Registration.objects.filter(event=event, player__name__iexact="olli uusi").exists()
    olli = Player.objects.get(name="Olli Uusi")
    client.post(url(event, "checkin_walk_in"), {"player": olli.pk, "guests": "on"})
    assert (
        Registration.objects.get(event=event, player=olli).status == RegistrationStatus.CHECKED_IN
    )


def test_no_shows_are_asked_first(client, event, director):
    register(event, "Anna", "Bea")
    client.force_login(director)
    page = client.get(url(event)).content.decode()
    assert "Mark them as no-shows" in page and "Anna" in page
    asked = client.post(url(event, "checkin_no_shows"))
    assert "2 registered players have not checked in" in asked.content.decode()
    assert not Registration.objects.filter(status=RegistrationStatus.NO_SHOW).exists()
    done = client.post(url(event, "checkin_no_shows"), {"confirm": "yes"}, follow=True)
    assert "2 no-shows marked." in done.content.decode()
    assert Registration.objects.filter(status=RegistrationStatus.NO_SHOW).count() == 2


def test_the_manage_page_shows_the_count_and_the_link(client, event, director):
    register(event, "Anna", "Bea")
    register(event, "Cid", checked_in=True)
    client.force_login(director)
    body = client.get(reverse("event_manage", args=[event.club.slug, event.pk])).content.decode()
    assert url(event) in body and "1 of 3 here" in body


def test_the_check_in_page_takes_as_many_queries_for_many(
    client, event, scorer, django_assert_max_num_queries
):
    client.force_login(scorer)
    register(event, "A0", "A1")
    with django_assert_max_num_queries(14) as few:
        client.get(url(event))
    register(event, *[f"B{n}" for n in range(40)])
    register(event, *[f"C{n}" for n in range(10)], checked_in=True)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(url(event))
    print(f"check-in page: {len(few.captured_queries)} queries for 2 or 52 registrations")


def test_a_tap_takes_as_many_queries_for_many(client, event, scorer, django_assert_max_num_queries):
    client.force_login(scorer)
    first, second = register(event, "A0", "A1")
    hx = {"HTTP_HX_REQUEST": "true"}
    with django_assert_max_num_queries(30) as few:
        client.post(url(event, "checkin_tap", first.pk), {"here": "in"}, **hx)
    register(event, *[f"B{n}" for n in range(40)])
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.post(url(event, "checkin_tap", second.pk), {"here": "in"}, **hx)
    print(f"one tap: {len(few.captured_queries)} queries")


def test_the_account_page_links_the_persons_coming_codes(client, club):
    soon = datetime.date.today() + datetime.timedelta(days=3)
    event = event_create(club=club, name="Night", date=soon, variant_id="rutupeli")
    person = MembershipFactory(club=club, role=Role.MEMBER).user
    anna = registration_add(event=event, player=Player.objects.get(club=club, user=person))
    past = event_create(
        club=club, name="Long ago", date=datetime.date(2020, 1, 1), variant_id="rutupeli"
    )
    registration_add(event=past, player=anna.player)
    client.force_login(person)
    body = client.get(reverse("account")).content.decode()
    assert reverse("registration_qr", args=[registration_qr_token(anna)]) in body
    assert "Night" in body and "Long ago" not in body


@pytest.mark.parametrize(
    "code",
    ["", "\x00", "a\x00b", "x" * 600, "/door/\x00/", "/door/a:b/", "//evil.example/door/x/",
     "/door/WzEsMV0:bad/qr.svg", "https://x/clubs/", "٣"],
)  # fmt: skip
def test_any_scanned_text_is_refused_clearly(client, event, scorer, code):
    register(event, "Anna")
    client.force_login(scorer)
    answer = client.post(url(event, "checkin_scan"), {"code": code}, HTTP_ACCEPT="application/json")
    assert answer.status_code in (400, 404)
    if "\x00" not in code:  # (a NUL the site's middleware refuses before any view)
        assert answer.json()["ok"] is False and answer.json()["message"]
    assert not Registration.objects.filter(status=RegistrationStatus.CHECKED_IN).exists()


def test_a_scorer_finds_the_check_in_on_the_club_page(client, event, scorer):
    client.force_login(scorer)
    body = client.get(event.club.get_absolute_url()).content.decode()
    assert url(event) in body
