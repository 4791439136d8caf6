"""Every way one person might try to confirm their own deal, each on its own table, through
the services (run on SQLite and again on PostgreSQL): each ends refused or flagged, never
confirmed unnoticed. The table page asks the same rule before it shows *Confirm*."""

from __future__ import annotations

import contextlib

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from rules import RuleViolation
from scoring.confirmation import (
    GUESS_ODDS,
    HOLD_OFF,
    HOLD_OFF_MAX,
    PIN_TRIES,
    hold_off,
    locked_pins,
    pin_states,
    seat_budget,
)
from scoring.models import ConfirmFlag, Deal, DealStatus, DealVersion, PinAttempt, SeatClaim
from scoring.selectors import flagged_confirmations
from scoring.services import (
    Actor,
    deal_confirm,
    deal_confirm_verdict,
    deal_record,
    seat_claim,
    seat_pin_unlock,
    seat_release,
)
from tests.support.events import new_request_id, seated_event
from tests.support.factories import MembershipFactory
from tournaments.models import Role

pytestmark = pytest.mark.django_db

HANDS = ("", "AS KD", "7H 7C 2D", "QS")


def entry(hands=HANDS):
    return {"out": 0, "players": [{"cards": h or None, "points": None, "buys": 0} for h in hands]}


def sit(table, position: int, device: str, *, pin: str | None = None, user=None) -> Actor:
    """A phone takes seat `position` (with `pin`), as the table page does: the Actor it then
    acts as, read back from its claim."""
    seat_claim(
        table=table, position=position, device=device, pin=pin, by=Actor(device=device, user=user)
    )
    claim = SeatClaim.objects.get(table=table, device=device)
    return Actor(
        device=device,
        seat=claim.position,
        user=user,
        claimed_at=claim.claimed_at,
        pin_given=claim.pin_given,
    )


def enter(table, by: Actor, *, hands=HANDS, number=1) -> Deal:
    current = Deal.objects.filter(table=table, number=number).first()
    return deal_record(
        table=table,
        number=number,
        entry=entry(hands),
        by=by,
        expected_version=current.version if current else 0,
        request_id=new_request_id(),
    )


def confirm(deal: Deal, by: Actor, pin: str | None = None) -> Deal:
    deal.refresh_from_db()
    return deal_confirm(
        deal=deal, by=by, expected_version=deal.version, request_id=new_request_id(), pin=pin
    )


def confirmation(deal: Deal) -> DealVersion:
    return DealVersion.objects.get(deal=deal, action="confirm")


def refused(deal: Deal, by: Actor, code: str, pin: str | None = None) -> None:
    # The page shows no Confirm button for what the service refuses.
    deal.refresh_from_db()
    verdict = deal_confirm_verdict(deal=deal, table=deal.table, by=by)
    if pin is None:
        assert verdict.refusal is not None and verdict.refusal.code == code
    with pytest.raises(RuleViolation) as info:
        confirm(deal, by, pin)
    assert info.value.code == code
    deal.refresh_from_db()
    assert deal.status == DealStatus.SUBMITTED


def table(pins: bool = False):
    event, (only,) = seated_event(variant_id="rutupeli", players=4)
    if pins:
        event.confirm_needs_pin = True
        event.save()
    return only


def pin_of(table, position: int) -> str:
    return table.seats.get(position=position).pin


def wrong_pin(table, position: int) -> str:
    return "0000" if pin_of(table, position) != "0000" else "1111"


# -- the paths that used to end confirmed and unflagged ----------------------------------------


def test_1_a_late_seat_corrects_and_the_first_phone_confirms_refused():
    t = table()
    a = sit(t, 0, "phone-a")
    deal = enter(t, a)
    late = sit(t, 1, "browser-2")  # taken after the deal existed
    enter(t, late, hands=("", "AS KD", "7H 7C", "QS"))
    refused(deal, a, "confirm_same_seat")  # seat 0 made the first version
    # A third, early seat may confirm, but the correction by the late seat is pointed out.
    c = Actor(device="phone-c", seat=2)
    confirm(deal, c)
    assert confirmation(deal).flag == ConfirmFlag.LATE_SEAT
    correction = DealVersion.objects.get(deal=deal, action="correct")
    assert correction.flag == ConfirmFlag.LATE_SEAT


def test_2_a_re_save_does_not_move_the_moment_a_late_seat_is_judged_by_flagged():
    t = table()
    a = sit(t, 0, "phone-a")
    deal = enter(t, a)
    late = sit(t, 1, "browser-2")
    enter(t, a)  # re-saved unchanged: a new version, the deal's first moment stays
    confirm(deal, late)
    assert Deal.objects.get(pk=deal.pk).status == DealStatus.CONFIRMED
    assert confirmation(deal).flag == ConfirmFlag.LATE_SEAT
    assert [v.deal_id for v in flagged_confirmations(event=t.stage.event)] == [deal.pk]


def test_3_with_pins_a_free_seat_is_not_taken_without_its_pin():
    t = table(pins=True)
    with pytest.raises(RuleViolation) as info:
        sit(t, 1, "browser-2")  # no PIN
    assert info.value.code == "wrong_pin"
    with pytest.raises(RuleViolation):
        sit(t, 1, "browser-2", pin=wrong_pin(t, 1))
    assert not SeatClaim.objects.filter(table=t).exists()
    # Both tries were counted, though each was refused.
    assert pin_states(table=t)[1].wrong == 2
    # With its PIN it is taken; the owner of seat 0 cannot then enter for seat 1's phone.
    owner = sit(t, 0, "phone-a", pin=pin_of(t, 0))
    assert owner.pin_given


def test_3b_with_pins_a_late_correction_then_the_owners_pin_confirmation_refused():
    t = table(pins=True)
    a = sit(t, 0, "phone-a", pin=pin_of(t, 0))
    deal = enter(t, a)
    late = sit(t, 1, "browser-2", pin=pin_of(t, 1))
    enter(t, late, hands=("", "AS KD", "7H 7C", "QS"))
    refused(deal, a, "confirm_same_seat", pin=pin_of(t, 0))


def test_3c_with_pins_a_seat_taken_before_pins_were_asked_enters_and_confirms_nothing():
    t = table()
    a = sit(t, 0, "phone-a")
    b = sit(t, 1, "phone-b")
    deal = enter(t, a)
    event = t.stage.event
    event.confirm_needs_pin = True
    event.save()
    refused(deal, b, "confirm_seat_without_pin")
    with pytest.raises(RuleViolation) as info:
        enter(t, b, number=1)
    assert info.value.code == "seat_without_pin"


def test_4_a_director_alone_on_one_phone_is_recorded_and_listed():
    t = table()
    director = MembershipFactory(club=t.stage.event.club, role=Role.DIRECTOR).user
    desk = Actor(device="desk", user=director)
    deal = enter(t, desk)
    confirm(deal, desk)
    assert Deal.objects.get(pk=deal.pk).status == DealStatus.CONFIRMED
    assert confirmation(deal).flag == ConfirmFlag.SAME_PERSON
    assert flagged_confirmations(event=t.stage.event)[0].flag == ConfirmFlag.SAME_PERSON


def test_4b_a_director_alone_is_refused_where_the_club_says_so():
    t = table()
    club = t.stage.event.club
    club.directors_confirm_alone = False
    club.save()
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    deal = enter(t, Actor(device="desk", user=director))
    # Signed in on another device, still the same person.
    refused(deal, Actor(device="laptop", user=director), "confirm_same_person")
    # A player confirms it as usual; a director confirming the table's deal is not flagged.
    confirm(deal, Actor(device="phone-b", seat=1))
    other = enter(t, Actor(device="phone-c", seat=2), number=2)
    confirm(other, Actor(device="laptop", user=director))
    assert confirmation(other).flag == ConfirmFlag.NONE


def test_4c_a_scorer_confirming_their_own_entry_is_listed_or_refused_as_the_club_says():
    t = table()
    club = t.stage.event.club
    scorer = MembershipFactory(club=club, role=Role.SCORER).user
    deal = enter(t, Actor(device="tablet-1", seat=0, user=scorer))
    confirm(deal, Actor(device="tablet-2", seat=1, user=scorer))
    assert confirmation(deal).flag == ConfirmFlag.SAME_PERSON
    club.directors_confirm_alone = False
    club.save()
    other = enter(t, Actor(device="tablet-1", seat=0, user=scorer), number=2)
    refused(other, Actor(device="tablet-2", seat=1, user=scorer), "confirm_same_person")


def test_4d_a_member_signed_in_on_two_devices_is_refused():
    t = table()
    member = MembershipFactory(club=t.stage.event.club, role=Role.MEMBER).user
    deal = enter(t, Actor(device="phone-1", seat=0, user=member))
    refused(deal, Actor(device="phone-2", seat=1, user=member), "confirm_same_person")


# -- the paths that were already refused or flagged, kept so ----------------------------------


def test_the_same_phone_is_refused():
    t = table()
    a = sit(t, 0, "phone-a")
    deal = enter(t, a)
    refused(deal, a, "confirm_same_seat")


def test_not_you_then_another_seat_on_the_same_phone_is_refused():
    t = table()
    deal = enter(t, sit(t, 0, "phone-a"))
    seat_release(table=t, device="phone-a")
    refused(deal, sit(t, 1, "phone-a"), "confirm_same_device")


def test_a_second_browser_with_the_same_device_is_refused():
    t = table()
    deal = enter(t, sit(t, 0, "phone-a"))
    refused(deal, Actor(device="phone-a", seat=1), "confirm_same_device")


def test_cookies_cleared_and_a_free_seat_taken_is_flagged():
    t = table()
    deal = enter(t, sit(t, 0, "phone-a"))
    confirm(deal, sit(t, 1, "phone-a-after-clearing"))
    assert confirmation(deal).flag == ConfirmFlag.LATE_SEAT


def test_a_seat_let_go_and_claimed_again_is_flagged():
    t = table()
    b = sit(t, 1, "phone-b")
    deal = enter(t, sit(t, 0, "phone-a"))
    seat_release(table=t, device=b.device)
    confirm(deal, sit(t, 1, "phone-b"))  # the same seat again, claimed anew
    assert confirmation(deal).flag == ConfirmFlag.LATE_SEAT


def test_two_seats_claimed_before_the_deal_confirm_unflagged():
    """What only the PIN can tell apart from one person with two browsers (the directors' guide, /help/: what a confirmation proves)."""
    t = table()
    a, b = sit(t, 0, "phone-a"), sit(t, 1, "phone-b")
    deal = enter(t, a)
    confirm(deal, b)
    assert confirmation(deal).flag == ConfirmFlag.NONE


# -- PINs that cannot be guessed ---------------------------------------------------------------


def test_a_stranger_guessing_waits_and_the_seats_player_sits_at_once():
    """The probe: one phone seated elsewhere posted wrong PINs for three free seats, five
    each (15 in 8.5 s), and locked them against their players. Now the guessing phone waits
    and the seats stay open to their right PINs."""
    t = table(pins=True)
    free = [1, 2, 3]
    for position in free:
        for attempt in range(PIN_TRIES):
            cache.clear()  # counted in the database, not in the cache
            with pytest.raises(RuleViolation) as info:
                sit(t, position, "stranger", pin=wrong_pin(t, position))
            assert info.value.code == ("pin_wait" if attempt == PIN_TRIES - 1 else "wrong_pin")
        # While it waits, nothing it types is looked at, the right PIN included.
        with pytest.raises(RuleViolation) as info:
            sit(t, position, "stranger", pin=pin_of(t, position))
        assert info.value.code == "pin_wait"
    for position in free:
        player = sit(t, position, f"player-{position}", pin=pin_of(t, position))
        assert player.pin_given
    assert PinAttempt.objects.filter(table=t, device="stranger").count() == 3 * PIN_TRIES
    listed = locked_pins(event=t.stage.event)
    assert [(table.pk, state.position) for table, state in listed] == [(t.pk, p) for p in free]
    assert all(not state.locked and set(state.held_off) == {"stranger"} for _t, state in listed)
    # The minutes pass: the director still sees the seats until an unlock clears them.
    PinAttempt.objects.filter(table=t).update(at=timezone.now() - HOLD_OFF_MAX)
    assert len(locked_pins(event=t.stage.event)) == 3
    director = MembershipFactory(club=t.stage.event.club, role=Role.DIRECTOR).user
    for position in free:
        seat_pin_unlock(table=t, position=position, by=director)
    assert locked_pins(event=t.stage.event) == []


def test_a_guessing_phone_waits_longer_after_each_wrong_pin():
    t = table(pins=True)
    for _try in range(PIN_TRIES):
        with contextlib.suppress(RuleViolation):
            sit(t, 1, "stranger", pin=wrong_pin(t, 1))
    assert pin_states(table=t)[1].held_off["stranger"] - timezone.now() <= HOLD_OFF
    # The minute passes; the next wrong PIN makes it wait two.
    PinAttempt.objects.filter(table=t).update(at=timezone.now() - HOLD_OFF)
    with pytest.raises(RuleViolation) as info:
        sit(t, 1, "stranger", pin=wrong_pin(t, 1))
    assert (info.value.code, info.value.params["minutes"]) == ("pin_wait", 2)
    assert hold_off(PIN_TRIES + 10) == HOLD_OFF_MAX


def test_a_seat_locks_only_when_every_phone_together_could_have_guessed_one_in_2000():
    assert (seat_budget("123456"), seat_budget("1234")) == (500, 5)
    for pin in ("123456", "1234"):
        assert seat_budget(pin) / 10 ** len(pin) <= 1 / GUESS_ODDS
    t = table(pins=True)
    seat = t.seats.get(position=1)
    seat.pin = "4321"  # an event made before PINs had six digits: five wrong lock it
    seat.save()
    deal = enter(t, sit(t, 0, "phone-a", pin=pin_of(t, 0)))
    for phone in range(seat_budget("4321")):
        with pytest.raises(RuleViolation) as info:
            sit(t, 1, f"guesser-{phone}", pin="0000")
    assert info.value.code == "pin_locked"
    with pytest.raises(RuleViolation) as info:
        sit(t, 1, "phone-b", pin="4321")  # even the right one, now
    assert info.value.code == "pin_locked"
    ((locked_table, state),) = locked_pins(event=t.stage.event)
    assert (locked_table, state.position, state.wrong, state.locked) == (t, 1, 5, True)
    director = MembershipFactory(club=t.stage.event.club, role=Role.DIRECTOR).user
    seat_pin_unlock(table=t, position=1, by=director)
    assert locked_pins(event=t.stage.event) == []
    b = sit(t, 1, "phone-b", pin="4321")
    confirm(deal, b, pin="4321")
    assert Deal.objects.get(pk=deal.pk).status == DealStatus.CONFIRMED


def test_the_table_page_lets_the_player_sit_after_a_strangers_fifteen_posts():
    t = table(pins=True)
    url = reverse("table_seat", args=[t.entry_key])
    stranger = Client()
    stranger.get(reverse("table_entry", args=[t.entry_key]))
    answers = [
        stranger.post(url, {"seat": position, "pin": wrong_pin(t, position)}, follow=True)
        for position in (1, 2, 3)
        for _try in range(PIN_TRIES)
    ]
    assert len(answers) == 15 and not SeatClaim.objects.filter(table=t).exists()
    assert "it may try again in 1 minute" in answers[-1].content.decode()
    for position in (1, 2, 3):
        player = Client()
        answer = player.post(url, {"seat": position, "pin": pin_of(t, position)})
        assert answer.status_code == 302, answer.content.decode()[:500]
        assert SeatClaim.objects.get(table=t, position=position).pin_given


def test_the_director_sees_the_strangers_tries_on_the_pages_they_use():
    t = table(pins=True)
    event = t.stage.event
    stranger = Client()
    stranger.get(reverse("table_entry", args=[t.entry_key]))
    for _try in range(PIN_TRIES):
        stranger.post(
            reverse("table_seat", args=[t.entry_key]), {"seat": 1, "pin": wrong_pin(t, 1)}
        )
    director = Client()
    director.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    manage = director.get(reverse("event_manage", args=[event.club.slug, event.pk]))
    assert f"seat 2: {PIN_TRIES} wrong PINs" in manage.content.decode()
    history = director.get(reverse("table_history", args=[event.club.slug, event.pk, t.pk]))
    page = history.content.decode()
    assert f"{PIN_TRIES} wrong PINs since the last unlock (the PIN locks at 500)" in page
    assert page.count("waiting before its next try") == PIN_TRIES
    assert "Unlock the PIN" in page


def test_only_a_director_unlocks_a_pin():
    t = table(pins=True)
    member = MembershipFactory(club=t.stage.event.club, role=Role.MEMBER).user
    with pytest.raises(RuleViolation):
        seat_pin_unlock(table=t, position=0, by=member)


def test_a_right_pin_resets_the_phones_count_not_the_seats():
    t = table(pins=True)
    for _try in range(PIN_TRIES - 1):
        with pytest.raises(RuleViolation):
            sit(t, 1, "phone-b", pin=wrong_pin(t, 1))
    sit(t, 1, "phone-b", pin=pin_of(t, 1))
    state = pin_states(table=t)[1]
    # The phone starts over; the seat's count (what bounds a guess) waits for an unlock.
    assert "phone-b" not in state.tries and state.wrong == PIN_TRIES - 1


def test_a_director_seats_a_phone_without_a_pin():
    t = table(pins=True)
    director = MembershipFactory(club=t.stage.event.club, role=Role.DIRECTOR).user
    seated = sit(t, 2, "desk-phone", user=director)
    claim = SeatClaim.objects.get(table=t, position=2)
    assert seated.pin_given and claim.seated_by == director
