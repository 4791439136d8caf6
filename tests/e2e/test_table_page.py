from __future__ import annotations

from playwright.sync_api import expect

from scoring.services import Actor, deal_record
from tests.support.browser import shoot
from tests.support.events import seated_event


def test_not_you_change_seat_is_visible_on_the_page(live_server, phone):
    _event, (table,) = seated_event(variant_id="gin_romi", players=2)
    phone.goto(f"{live_server.url}{table.get_entry_url()}")
    phone.locator("button[name=seat]").first.click()
    button = phone.get_by_role("button", name="Not you? Change seat")
    button.wait_for()
    colours = button.evaluate(
        "b => [getComputedStyle(b).color, getComputedStyle(document.querySelector('main')"
        ").backgroundColor, getComputedStyle(document.body).backgroundColor]"
    )
    shoot(phone, "table-page-change-seat")
    assert colours[0] not in {"rgb(255, 255, 255)"}, colours
    assert colours[0] == "rgb(11, 93, 140)", colours  # the page's link colour (--accent)


def test_the_table_pages_first_poll_is_a_304(live_server, phone):
    # The page says its live part's tag, so its script's first poll asks with it: nothing
    # changed since the page was built, so nothing is built twice.
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    polls: list[int] = []
    phone.on("response", lambda r: polls.append(r.status) if r.url.endswith("/live/") else None)
    phone.clock.install()
    phone.goto(f"{live_server.url}{table.get_entry_url()}")
    phone.locator("button[name=seat]").first.click()
    phone.get_by_role("button", name="Not you? Change seat").wait_for()
    with phone.expect_response(lambda r: r.url.endswith("/live/")):
        phone.clock.run_for(5_500)
    assert polls[:1] == [304], polls


def test_a_phone_confirming_a_deal_saved_elsewhere_has_no_empty_entry_form(live_server, phone):
    # The phone opened its page (deal 1's empty form) before another seat saved deal 1: once
    # the poll shows the deal waiting, the page offers the confirmation alone, as the server
    # would, and after the confirmation the next deal's form.
    _event, (table,) = seated_event(variant_id="rutupeli", players=4)
    phone.goto(f"{live_server.url}{table.get_entry_url()}")
    phone.locator("button[name=seat]").nth(1).click()
    form = phone.locator("form.entry")
    expect(form).to_be_visible()
    entry = {"out": 0, "players": [{"cards": c, "buys": 0} for c in (None, "AS", "7H", "QS")]}
    deal_record(
        table=table, number=1, entry=entry, expected_version=0, request_id="seat-0",
        by=Actor(device="other-phone", seat=0),
    )  # fmt: skip
    confirm = phone.get_by_role("button", name="Confirm deal 1")
    expect(confirm).to_be_visible(timeout=12_000)  # the table's poll, every 5 s
    expect(form).to_be_hidden()
    expect(phone.locator("#deal-heading")).to_be_hidden()
    shoot(phone, "table-page-confirm-without-empty-form")
    confirm.click()
    expect(phone.get_by_text("Deal 1 confirmed.")).to_be_visible()
    expect(form).to_be_visible()
    assert form.locator("input[name=number]").input_value() == "2"
