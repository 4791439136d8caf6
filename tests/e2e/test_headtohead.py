"""A head-to-head Gin Römi round robin on the director's phone: round 1 played, the director
pairs round 2, looks at its pairs and bye, confirms; the public page shows the match grid."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.browser import director_of, shoot, sign_in
from tests.support.factories import ClubFactory
from tests.support.headtohead import h2h_event, pair_and_confirm, pairs_of, play
from tournaments.models import EventFormat, Player, Stage, StageStatus


def test_the_director_pairs_round_two_and_the_public_sees_the_grid(live_server, phone):
    club = ClubFactory(language="en")
    director_of(club)
    event = h2h_event(players=5, format=EventFormat.ROUND_ROBIN, club=club)
    first = pair_and_confirm(event, seed=4)
    for table, pair in zip(first.tables.order_by("number"), pairs_of(first), strict=True):
        play(table, pair[1], extra=table.number * 10)

    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/manage/")
    rounds = phone.locator("#rounds")
    rounds.get_by_role("button", name="Pair round 2").click()
    expect(
        phone.get_by_text("Round 2 is paired: look at the pairs, then confirm them.")
    ).to_be_visible()
    second = Stage.objects.get(event=event, number=2)
    expect(rounds.locator("ol.h2h-pairs li")).to_have_count(2)
    bye = Player.objects.get(pk=second.format["bye"]).name
    expect(rounds.locator(".h2h-bye")).to_have_text(f"Bye: {bye} sits out this round.")
    rounds.scroll_into_view_if_needed()
    shoot(phone, "h2h-round-2-preview")
    rounds.get_by_role("button", name="Confirm round 2").click()
    expect(
        phone.get_by_text("Tables confirmed: hand each table its link or QR code.")
    ).to_be_visible()
    second.refresh_from_db()
    assert second.status == StageStatus.CONFIRMED

    phone.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/")
    grid = phone.locator("table.h2h-grid")
    expect(grid.locator("tbody tr")).to_have_count(5)
    expect(grid.locator("strong.ok")).to_have_count(2)  # round 1's two winners, W
    expect(grid.locator(".h2h-cell .badge")).to_have_count(4)  # round 2's two matches, both ways
    first_bye = Player.objects.get(pk=first.format["bye"]).name
    expect(grid.get_by_role("rowheader", name=first_bye)).to_contain_text("bye R1")
    standings = phone.locator("table.ranking-table")
    # Level on wins, table 2's winner scored more: 150 + 20, two deals, game and shutout.
    expect(standings.locator("tbody tr").first.locator("td").first).to_have_text("1")
    expect(standings.locator("tbody tr").first).to_contain_text("520")
    # The grid scrolls sideways inside its box on a phone; the page itself does not.
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    shoot(phone, "h2h-public-grid")
