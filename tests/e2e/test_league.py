"""In a browser: a finished championship on its season's league table, a tap on the
champion's name opens their record, and the table's CSV downloads and reads back; the
embeddable table loads inside another site's iframe."""

from __future__ import annotations

import csv
import functools
import http.server
import io
import threading

import pytest
from django.utils import timezone

from formats.championship import championship_stage_close
from tests.support.browser import shoot
from tests.support.championship import championship, play, winner_scheme
from tests.support.factories import ClubFactory
from tests.support.leagues import season_of
from tournaments.models import Event
from tournaments.services import stage_confirm

pytestmark = pytest.mark.django_db(transaction=True)


def finished_championship():
    club = ClubFactory(name="Kotikerho")
    season = season_of(club)
    event, stage, director = championship(9, club=club)
    Event.objects.filter(pk=event.pk).update(season=season, published_at=timezone.now())
    for table in stage.tables.all():
        play(table, winner_scheme(3, winner=2))
    final = championship_stage_close(stage=stage, by=director, seed=5)
    stage_confirm(stage=final)
    (table,) = final.tables.all()
    play(table, winner_scheme(3, winner=1))
    championship_stage_close(stage=final, by=director)
    champion = table.seats.get(position=1).player
    return season, champion


def test_the_league_table_leads_to_the_champions_record_and_downloads(live_server, phone):
    season, champion = finished_championship()
    phone.goto(f"{live_server.url}/clubs/{season.club.slug}/seasons/{season.pk}/")
    first = phone.locator("table.league tbody tr").first
    assert first.locator("td").nth(0).inner_text() == "1"
    assert first.locator("td").nth(1).inner_text() == champion.name
    assert "Last recomputed" in phone.locator(".computed").inner_text()
    shoot(phone, "league-table")

    with phone.expect_download() as download:
        phone.get_by_role("link", name="Download CSV", exact=True).click()
    content = download.value.path().read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(content)))
    assert rows[0][:2] == ["#", "Player"]
    assert rows[1][:3] == ["1", champion.name, "10"]
    assert len(rows) == 10  # the header and the nine players

    phone.get_by_role("link", name=champion.name).click()
    phone.wait_for_url(f"**/players/{champion.pk}/")
    assert phone.locator("h1").inner_text().startswith(champion.name)


@pytest.fixture
def club_site(tmp_path):
    """Another site: a web server of its own (another origin) serving the club's page."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield tmp_path, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_the_embed_loads_in_another_sites_iframe(live_server, browser, club_site):
    season, champion = finished_championship()
    folder, address = club_site
    embed = f"{live_server.url}/clubs/{season.club.slug}/seasons/{season.pk}/embed/"
    # The club's page is a page as it should be (its language, title, main part, the frame's
    # name), so axe's findings in `shoot` are the embed's own.
    (folder / "index.html").write_text(
        '<!doctype html><html lang="fi"><title>Kotikerho</title><main><h1>Kotikerho</h1>'
        f'<iframe id="league" title="Liigataulukko" src="{embed}"></iframe></main></html>'
    )
    page = browser.new_page()
    page.goto(f"{address}/index.html")
    frame = page.frame_locator("#league")
    assert frame.locator("table.league tbody tr").first.locator("td").nth(1).inner_text() == (
        champion.name
    )
    # The name opens the record in the whole window, not inside the club's frame.
    assert frame.get_by_role("link", name=champion.name).get_attribute("target") == "_top"
    shoot(page, "league-embed")
