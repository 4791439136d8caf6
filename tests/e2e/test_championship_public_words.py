"""What the public sees of a championship says what happened: a no-show after a close is
marked on the bracket and the standings, and a championship of one table says why its
first stage is the final. At a phone's width and a laptop's, with the longest names."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import shoot
from tests.support.championship import championship, closed_stage, seated
from tournaments.models import Player
from tournaments.services import registration_status_set

LONG = "Kristiina Väisänen-Lindqvist"


@pytest.mark.parametrize("width", [390, 1280])
def test_a_no_show_and_a_single_table_final_are_said_in_words(live_server, browser, width):
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    event, _stage, _director, tables = closed_stage()
    absent = seated(tables[1])[0]
    Player.objects.filter(pk=absent).update(name=LONG)
    registration_status_set(
        registration=event.registrations.get(player_id=absent), status="withdrawn", confirmed=True
    )
    page.goto(f"{live_server.url}{event.get_absolute_url()}")
    bracket = page.locator("#bracket")
    expect(bracket.locator("li.advances", has_text=LONG)).to_contain_text("no-show")
    shoot(page, f"championship-no-show-{width}")
    # The ranking names the player as they are called now, not as the close stored them.
    expect(page.locator("table.ranking-table tr", has_text=LONG)).to_contain_text("no-show")

    single, _stage, _director = championship(6, preferred=6)
    page.goto(f"{live_server.url}{single.get_absolute_url()}")
    expect(page.locator("#bracket")).to_contain_text(
        "6 players fit at one table of up to 6: this stage is the final."
    )
    shoot(page, f"championship-single-table-{width}")
