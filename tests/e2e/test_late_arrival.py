"""A player who arrives after the draw, on the director's phone: found in the picker, checked
in, proposed a seat, seated; the table's own phone page then lists them."""

from __future__ import annotations

import datetime

from playwright.sync_api import expect

from tests.support.browser import director_event, director_of, shoot, sign_in
from tests.support.factories import ClubFactory
from tournaments.models import Player, Seat
from tournaments.services import (
    event_create,
    registration_guest_add,
    stage_confirm,
    stage_draw,
)


def test_a_late_arrival_is_seated_before_the_first_deal(live_server, phone, browser):
    event, _players = director_event(
        names=["Aino", "Eero", "Helmi", "Jussi", "Kaisa", "Mikko", "Noora", "Olli"],
        name="Friday Rutupeli",
        date=datetime.date(2026, 11, 27),
        variant_id="rutupeli",
    )
    club = event.club
    Player.objects.create(club=club, name="Lauri Myöhä")  # a club player with no account
    stage_confirm(stage=stage_draw(event=event, seed=11))

    # The director finds Lauri by typing part of the name, and checks him in.
    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/manage/")
    phone.get_by_label("Find a player").fill("lau")
    picker = phone.locator("#add-player")
    expect(picker.locator("option")).to_have_count(2)  # the guest line and Lauri
    expect(picker).to_have_value(str(Player.objects.get(name="Lauri Myöhä").pk))
    expect(picker.locator("option:checked")).to_have_text("Lauri Myöhä")  # not "(guest)"
    phone.get_by_role("button", name="Check in").click()

    # The page proposes a seat at a table that has not played yet.
    late = phone.locator("#late")
    expect(late).to_contain_text("1 player checked in after the draw and waits for a seat.")
    expect(late.locator("ol.tables li")).to_have_count(1)
    expect(late.locator("ol.tables li")).to_contain_text("Lauri Myöhä")
    proposed = late.get_by_label("Lauri Myöhä")
    expect(proposed).to_have_value(proposed.locator("option:checked").get_attribute("value"))
    late.scroll_into_view_if_needed()
    shoot(phone, "late-arrival-proposal")

    # The director sends him to table 2 instead, and confirms.
    proposed.select_option(label="Table 2 (4 players)")
    phone.get_by_role("button", name="Seat the late arrivals").click()
    expect(phone.get_by_text("1 late arrival seated.")).to_be_visible()
    expect(phone.locator("#late")).to_have_count(0)
    card = phone.locator("li.table-card", has=phone.get_by_role("heading", name="Table 2"))
    expect(card).to_contain_text("Lauri Myöhä")
    shoot(phone, "late-arrival-seated")
    seat = Seat.objects.select_related("table").get(player__name="Lauri Myöhä")
    assert (seat.table.number, seat.position, seat.is_first_dealer) == (2, 4, False)

    # Table 2's own phone lists five seats, Lauri last.
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    table_phone = context.new_page()
    table_phone.set_default_timeout(15_000)
    table_phone.goto(f"{live_server.url}{seat.table.get_entry_url()}")
    seats = table_phone.locator("button[name=seat]")
    expect(seats).to_have_count(5)
    expect(seats.nth(4)).to_contain_text("Lauri Myöhä")
    shoot(table_phone, "late-arrival-table-phone")
    first_dealer = seat.table.seats.get(is_first_dealer=True)
    assert first_dealer.position == 0
    seats.nth(4).click()
    expect(table_phone.get_by_text(f"{first_dealer.player.name} deals")).to_be_visible()
    expect(table_phone.locator("fieldset.seat")).to_have_count(5)
    expect(table_phone.locator("fieldset.seat").nth(4)).to_contain_text("Lauri Myöhä")
    shoot(table_phone, "late-arrival-table-entry")


def test_a_guest_of_a_past_event_is_offered_when_asked(live_server, phone):
    club = ClubFactory(language="en")
    director_of(club)
    last_week = event_create(
        published=True,
        club=club,
        name="Last week",
        date=datetime.date(2026, 11, 20),
        variant_id="rutupeli",
    )
    registration_guest_add(event=last_week, name="Vera Vieras")
    Player.objects.create(club=club, name="Pekka")
    event = event_create(
        published=True,
        club=club,
        name="Tonight",
        date=datetime.date(2026, 11, 27),
        variant_id="rutupeli",
    )
    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/manage/")
    picker = phone.locator("#add-player")
    expect(picker).not_to_contain_text("Vera Vieras")
    expect(picker.locator("optgroup").first).to_have_attribute("label", "Club players")
    # Ticking it reloads the page with them: click, then wait for the new page, rather than
    # check(), which looks for the tick on a page that is going away (flaky when slow).
    phone.get_by_label("Show guests of past events (1)").click()
    phone.wait_for_url("**guests=**")
    expect(picker.locator("optgroup[label=Guests] option")).to_have_text(["Vera Vieras (guest)"])
    shoot(phone, "player-picker-past-guests")
    picker.select_option(label="Vera Vieras (guest)")
    phone.get_by_role("button", name="Check in").click()
    # (The registration, check-in and mail parts sit between the heading and this line.)
    checked_in = phone.locator("#registration ~ p", has_text="player checked in").first
    expect(checked_in).to_contain_text("1 player checked in")
    assert event.registrations.get().player.name == "Vera Vieras"
