"""A closed championship stage's score corrected by the director: the correction form opens
from the table's history, the manage page flags who would now go on instead of whom, and the
director keeps the stage as closed."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import shoot, sign_in
from tests.support.championship import FLIP, closed_stage, correct, names


def test_the_director_corrects_a_closed_stage_and_keeps_the_decision(live_server, phone):
    event, _stage, director, tables = closed_stage()
    director.set_password("dora")
    director.save()
    first = names(tables[0])
    sign_in(phone, live_server.url, director.username, "dora")
    base = f"{live_server.url}/clubs/{event.club.slug}/events/{event.pk}"

    # The closed stage's table still opens for the director, its deals correctable.
    phone.goto(f"{base}/tables/{tables[0].pk}/history/")
    phone.get_by_role("heading", name="Deal 7").get_by_role("link", name="Correct").click()
    phone.wait_for_url("**/deals/7/edit/")
    expect(phone.get_by_text("Deal 7").first).to_be_visible()
    expect(phone.get_by_text("This table no longer takes scores")).to_have_count(0)
    shoot(phone, "championship-drift-correct")

    correct(tables[0], director, FLIP)
    phone.goto(f"{base}/manage/")
    drift = phone.locator("#drift")
    expect(drift).to_contain_text(
        f"With the corrected scores, {first[1]} would go on instead of {first[0]}."
    )
    drift.scroll_into_view_if_needed()
    shoot(phone, "championship-drift-open")
    drift.get_by_role("button", name="Keep the decision").click()
    expect(phone.get_by_text("Recorded: stage 1 stands as it was closed.")).to_be_visible()
    drift = phone.locator("#drift")
    expect(drift).to_contain_text("Kept as closed by")
    expect(drift.get_by_role("button", name="Keep the decision")).to_have_count(0)
    drift.scroll_into_view_if_needed()
    shoot(phone, "championship-drift-kept")
