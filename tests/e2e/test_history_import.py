"""In a browser: a director imports last season's results (three nights of eight from a
CSV), sees the preview first, confirms, and the season's league table then counts them;
the imported event's page and a player's record say "imported"."""

from __future__ import annotations

import datetime

import pytest

from tests.support.browser import director_of, shoot_widths, sign_in
from tests.support.factories import ClubFactory
from tournaments.models import Event, Player, Season

pytestmark = pytest.mark.django_db(transaction=True)

LONG_NAME = "Väinö Ärjä-Öhman Szőke-Kovácsné"  # 30 characters, accents and all
NAMES = [LONG_NAME, "Aino", "Eero", "Helmi", "Jussi", "Kaisa", "Lauri", "Mervi"]


def last_season_csv() -> bytes:
    lines = ["date,game,event name,player,place,total"]
    for night, day in enumerate((5, 12, 19), start=1):
        order = NAMES[night:] + NAMES[:night]
        for place, name in enumerate(order, start=1):
            lines.append(f"2025-10-{day:02d},Rutupeli,Syysilta {night},{name},{place},{place * 10}")
    return ("\n".join(lines) + "\n").encode()


def test_a_director_imports_last_season_and_the_league_table_counts_it(live_server, phone):
    club = ClubFactory(name="Kotikerho", language="en")
    season = Season.objects.create(
        club=club,
        name="Autumn 2025",
        starts_on=datetime.date(2025, 9, 1),
        ends_on=datetime.date(2025, 12, 31),
    )
    Player.objects.create(club=club, name="Aino")  # the club knows one of them already
    director_of(club)
    sign_in(phone, live_server.url, "dora", "dora")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/")
    phone.get_by_role("link", name="Import past results").click()
    phone.wait_for_url("**/history/import/")
    shoot_widths(phone, "history-import")

    # A file with a mistake first: every problem named by row and column, nothing saved.
    bad = last_season_csv().replace(b"Rutupeli,Syysilta 2", b"Canasta,Syysilta 2", 1)
    phone.set_input_files(
        "#id_file", {"name": "last-season.csv", "mimeType": "text/csv", "buffer": bad}
    )
    phone.get_by_role("button", name="Preview").click()
    phone.wait_for_selector("#problems")
    assert "Row 10, Game" in phone.locator("#problems").inner_text()
    assert not Event.objects.filter(club=club).exists()
    shoot_widths(phone, "history-problems")

    phone.set_input_files(
        "#id_file", {"name": "last-season.csv", "mimeType": "text/csv", "buffer": last_season_csv()}
    )
    phone.get_by_role("button", name="Preview").click()
    phone.wait_for_selector("#preview")
    preview = phone.locator("#preview").inner_text()
    assert "3 events will be imported" in preview
    assert "New club players: 7" in preview and LONG_NAME in preview
    assert not Event.objects.filter(club=club).exists()  # nothing saved before confirming
    shoot_widths(phone, "history-preview")

    phone.get_by_role("button", name="Import these results").click()
    # The club's page itself: the import page's address is under the club's too.
    phone.wait_for_url(f"**/clubs/{club.slug}/#events")
    assert "Events imported: 3. New players: 7." in phone.locator("body").inner_text()
    assert Event.objects.filter(club=club, season=season).count() == 3

    phone.goto(f"{live_server.url}/clubs/{club.slug}/seasons/{season.pk}/")
    heads = phone.locator("table.league thead th.event").all_inner_texts()
    assert len(heads) == 3 and all("(imported)" in head for head in heads)
    rows = phone.locator("table.league tbody tr")
    assert rows.count() == 8
    long_row = phone.locator("table.league tbody tr", has_text=LONG_NAME)
    assert long_row.locator("td").nth(3).inner_text() == "3"  # three events counted

    event = Event.objects.get(club=club, name="Syysilta 1")
    phone.goto(f"{live_server.url}{event.get_absolute_url()}")
    assert "imported" in phone.locator("h1").inner_text()
    assert phone.get_by_role("link", name="Big screen").count() == 0
    shoot_widths(phone, "history-event")

    player = Player.objects.get(club=club, name=LONG_NAME)
    phone.goto(f"{live_server.url}/clubs/{club.slug}/players/{player.pk}/")
    assert phone.locator("text=imported").count() >= 3
    shoot_widths(phone, "history-record")
