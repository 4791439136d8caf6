"""The live check's answers on a phone whose network is slower than its thumbs: an answer
about the deal as it was before the latest keystroke is dropped, and a hand typed in loses
its error lines at once. Otherwise a late answer puts back an error the hand no longer has,
and the line it adds moves "Next hand" from under the finger about to tap it (a tap that
then lands on nothing, the next hand never opening)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.support.events import seated_event


def _hand(page, seat: int):
    return page.locator(f"fieldset.seat[data-seat='{seat}']")


def _errors(page, seat: int):
    return _hand(page, seat).locator(".field-errors .error")


def _seated(live_server, browser):
    """A phone at a new three-player Rutupeli table, its seat taken. No service worker: what
    the page asks goes straight to the test's routes."""
    _event, (table,) = seated_event(variant_id="rutupeli", players=3)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-GB", service_workers="block"
    )
    page = context.new_page()
    page.goto(f"{live_server.url}{table.get_entry_url()}")
    page.locator("button[name=seat]").first.click()
    return page


class HeldChecks:
    """Every live check the page asks for, held until the test lets it through."""

    def __init__(self, page) -> None:
        self.page = page
        self.routes: list = []
        page.route(re.compile(r"/check/$"), self.hold)

    def hold(self, route) -> None:
        self.routes.append(route)

    def asked(self, count: int) -> None:
        """Waits until the page has asked `count` checks in all."""
        for _ in range(200):
            if len(self.routes) >= count:
                return
            self.page.wait_for_timeout(25)
        raise AssertionError(f"{len(self.routes)} checks asked, not {count}")


def test_an_answer_to_the_hand_as_it_was_is_dropped(live_server, browser):
    page = _seated(live_server, browser)
    checks = HeldChecks(page)

    # Who went out is picked: the answer says the first hand left needs its cards or points.
    page.locator("input[name=out][value='0']").check()
    checks.asked(1)
    checks.routes[0].continue_()
    expect(_hand(page, 1)).to_have_class(re.compile(r"\bopen\b"))
    expect(_errors(page, 1)).to_have_count(1)

    # A card mistyped: the hand's error line goes with the keystroke, before any answer.
    _hand(page, 1).locator("input[name$=_cards]").fill("QX")
    expect(_errors(page, 1)).to_have_count(0)
    expect(_hand(page, 1)).not_to_have_class(re.compile(r"has-error"))
    checks.asked(2)  # asked about "QX", and held

    # Put right before that answer comes: the answer about "QX" is dropped when it comes,
    # and the check asked about the hand as it now is goes out after it.
    _hand(page, 1).locator("input[name$=_cards]").fill("")
    _hand(page, 1).get_by_label("…or points").fill("10")
    checks.routes[1].continue_()
    checks.asked(3)
    expect(_errors(page, 1)).to_have_count(0)
    expect(_hand(page, 1)).not_to_have_class(re.compile(r"has-error"))

    # The answer about the hand as typed: the hand still empty is the one wrong.
    checks.routes[2].continue_()
    expect(page.locator("#check")).to_contain_text("Not yet right")
    expect(_errors(page, 2)).to_have_count(1)
    expect(_errors(page, 1)).to_have_count(0)
    _hand(page, 1).get_by_role("button", name="Next hand").click()
    expect(_hand(page, 2)).to_have_class(re.compile(r"\bopen\b"))
    page.context.close()


def test_an_answer_about_a_queued_deal_stays_off_the_next(live_server, browser):
    """Submit tapped while the check of a half-typed deal is on its way, and the server too
    busy to take the save: the deal joins the phone's queue and the form, emptied, becomes
    the next deal's. The answer about the queued deal does not mark the empty form."""
    page = _seated(live_server, browser)
    checks = HeldChecks(page)
    page.route(re.compile(r"/deals/1/$"), lambda route: route.fulfill(status=503, body="busy"))
    page.locator("input[name=out][value='0']").check()
    checks.asked(1)
    _hand(page, 1).get_by_label("…or points").fill("10")
    checks.routes[0].continue_()
    checks.asked(2)  # about the deal with its last hand still empty: held
    page.get_by_role("button", name="Submit").click()
    expect(page.locator("h2.deal-title")).to_have_text("Deal 2")
    expect(page.locator("form.entry input[name=number]")).to_have_value("2")

    with page.expect_event("requestfinished"):
        checks.routes[1].continue_()
    page.evaluate("new Promise((done) => setTimeout(done, 200))")  # its answer handled
    expect(page.locator("form.entry .field-errors .error")).to_have_count(0)
    expect(page.locator("form.entry .fold.has-error")).to_have_count(0)
    page.context.close()
