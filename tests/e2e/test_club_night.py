from __future__ import annotations

import datetime
import re

from playwright.sync_api import expect

from tests.support.browser import director_event, shoot, sign_in


def test_a_club_night_from_draw_to_public_totals(live_server, browser):
    event, _players = director_event(
        names=["Aino", "Eero", "Helmi", "Jussi"],
        name="Friday Rutupeli",
        date=datetime.date(2026, 11, 27),
        variant_id="rutupeli",
    )
    club = event.club

    def phone():
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    # The director draws and confirms the tables.
    desk = phone()
    sign_in(desk, live_server.url, "dora", "dora")
    desk.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/manage/")
    # The director's page fits the phone: no form (the tie-break order's long choices)
    # pushes it sideways.
    assert desk.evaluate("document.documentElement.scrollWidth") <= 390
    desk.get_by_role("button", name="Draw the tables").click()
    desk.get_by_role("button", name="Confirm the tables").click()
    desk.get_by_text("Entry link and QR code").click()
    entry_url = desk.locator("a[href^='/t/']").first.get_attribute("href")

    # A scorer at the table enters deal 1 by tapping; a typo is flagged live, then fixed.
    scorer = phone()
    scorer.goto(f"{live_server.url}{entry_url}")
    scorer.locator("button[name=seat]").first.click()
    expect(scorer.get_by_text("2 sets")).to_be_visible()
    scorer.locator("input[name=out]").first.check()
    second = scorer.locator("fieldset.seat").nth(1)
    second.get_by_role("button", name="A", exact=True).click()
    second.get_by_role("button", name="K", exact=True).click()
    second.get_by_role("button", name="Next hand").click()  # one hand open at a time
    scorer.locator("fieldset.seat").nth(2).locator("input[name$=_cards]").fill("7H QX")
    expect(scorer.locator("#check")).to_contain_text("QX")
    scorer.locator("fieldset.seat").nth(2).locator("input[name$=_cards]").fill("7H QS")
    scorer.locator("fieldset.seat").nth(2).get_by_role("button", name="Next hand").click()
    scorer.locator("fieldset.seat").nth(3).get_by_role("button", name="5", exact=True).click()
    expect(scorer.locator("#check")).to_contain_text("Looks right")
    scorer.get_by_role("button", name="Submit").click()
    expect(scorer.get_by_text("Deal 1 saved")).to_be_visible()

    # A second scorer confirms from another phone and seat.
    other = phone()
    other.goto(f"{live_server.url}{entry_url}")
    other.locator("button[name=seat]").nth(1).click()
    other.get_by_role("button", name="Confirm deal 1").click()
    expect(other.get_by_text("Deal 1 confirmed.")).to_be_visible()

    # The public page shows the new totals, confirmed.
    public = phone()
    public.goto(f"{live_server.url}{event.get_absolute_url()}")
    ranking = public.locator("table").first
    expect(ranking).to_contain_text("30")  # A + K
    expect(ranking).to_contain_text("15")  # 7 + Q
    expect(ranking.locator(".unconfirmed")).to_have_count(0)
    assert re.search(r"Deal|Deals", public.content())
    shoot(public, "club-night-public")
