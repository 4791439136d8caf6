"""Two browsers at one table with PINs on: the phone that entered a deal is shown why it
cannot confirm it, a free seat is not taken without its PIN, and a confirmation from a
seat taken after the deal was entered goes through flagged, listed for the director."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scoring.models import ConfirmFlag, DealVersion, SeatClaim
from scoring.services import Actor, deal_record
from tests.support.browser import director_of, shoot, sign_in
from tests.support.events import seated_event


def _phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _take_seat(page, url: str, position: int, pin: str) -> None:
    page.goto(url)
    page.fill("#seat-pin", pin)
    page.locator("button[name=seat]").nth(position).click()


def test_one_person_with_two_browsers_is_refused_or_flagged(live_server, browser):
    event, (table,) = seated_event(variant_id="rutupeli", players=4)
    event.confirm_needs_pin = True
    event.save()
    director_of(event.club)
    url = f"{live_server.url}/t/{table.entry_key}/"
    pins = {seat.position: seat.pin for seat in table.seats.all()}

    first = _phone(browser)
    _take_seat(first, url, 0, pins[0])
    expect(first.get_by_text(re.compile(r"You are Player \d+\."))).to_be_visible()
    claim = SeatClaim.objects.get(table=table, position=0)
    assert claim.pin_given
    # Deal 1 entered from that phone (its device and seat, as the page would send them).
    entry = {"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "AS", "7H", "QS")]}
    deal_record(
        table=table, number=1, entry=entry, expected_version=0, request_id="first-phone-1",
        by=Actor(device=claim.device, seat=0, claimed_at=claim.claimed_at, pin_given=True),
    )  # fmt: skip
    first.reload()
    pending = first.locator(".pending")
    expect(pending).to_contain_text("this seat entered or corrected the deal")
    expect(first.get_by_role("button", name="Confirm deal 1")).to_have_count(0)
    shoot(first, "confirm-refused-own-deal")

    # A second browser: no free seat without its PIN.
    second = _phone(browser)
    wrong = "0000" if pins[1] != "0000" else "1111"
    _take_seat(second, url, 1, wrong)
    expect(second.get_by_text("That is not this seat's PIN")).to_be_visible()
    expect(second.get_by_text("4 tries left on this phone before it must wait")).to_be_visible()
    shoot(second, "seat-pick-wrong-pin")
    assert not SeatClaim.objects.filter(table=table, position=1).exists()

    # With the PIN it sits down, after the deal was entered: it may confirm, flagged.
    _take_seat(second, url, 1, pins[1])
    confirm = second.get_by_role("button", name="Confirm deal 1")
    expect(confirm).to_be_visible()
    second.locator(".pending input[name=pin]").fill(pins[1])
    confirm.click()
    expect(second.get_by_text("Deal 1 confirmed.")).to_be_visible()
    assert DealVersion.objects.get(action="confirm").flag == ConfirmFlag.LATE_SEAT

    desk = _phone(browser)
    sign_in(desk, live_server.url, "dora", "dora")
    desk.goto(f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}/manage/")
    listed = desk.locator(".pending", has_text="Confirmations to look at")
    expect(listed).to_contain_text("Deal 1")
    expect(listed).to_contain_text("a seat taken after the deal was first entered")
    shoot(desk, "manage-confirmations-to-look-at")
