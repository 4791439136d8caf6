"""The ranking's downloads say what its page says (Issue 23): the figure the ranking goes by,
the marks beside a total in words, a game's own figures (räväytys, units); dates as dates in
XLSX; a CSV with semicolons for a spreadsheet set to Finnish or Hungarian; the JSON feed
linked beside them. Read back with the csv module and openpyxl."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re

import openpyxl
import pytest
from django.conf import settings
from django.urls import reverse

from standings.standings import event_standings
from tests.support.events import seated_event
from tests.support.factories import ClubFactory
from tests.support.records import contract, night, store
from tests.support.standings import play_night
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def download(client, event, export_format, **query):
    url = reverse("ranking_export", args=[event.club.slug, event.pk, export_format])
    return client.get(url, query)


def csv_rows(response, delimiter=","):
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=delimiter))


def xlsx_cells(response):
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    return list(book.active.iter_rows())


def midevening(mode):
    """Eight players at two tables at different deals, ranked by `mode`."""
    event, tables = seated_event(variant_id="rutupeli", players=8)
    event.ranking_mode = mode
    event.save()
    play_night(tables[0], 1)
    play_night(tables[0], 2, out=2)
    play_night(tables[1], 1, out=1)
    return event


def test_the_downloads_have_the_points_per_deal_the_ranking_goes_by_as_numbers(client):
    event = midevening("average")
    standings = event_standings(event=event)
    assert standings.ranked_by == "average"
    header, *rows = csv_rows(download(client, event, "csv"))
    per_deal = header.index("Per deal")
    assert per_deal == header.index("Total") + 1
    figures = [float(row[per_deal]) for row in rows]
    # Two decimals, as the page and the feed: "10.00", never "10.0" beside "18.33".
    assert all(re.fullmatch(r"\d+\.\d\d", row[per_deal]) for row in rows)
    assert figures == sorted(figures)  # the order the rows are in (a penalty game)
    feed = client.get(reverse("event_standings_feed", args=[event.club.slug, event.pk]))
    assert figures == [p["average"] for p in json.loads(feed.content)["standings"]["players"]]

    head, *cells = xlsx_cells(download(client, event, "xlsx"))
    assert head[per_deal].value == "Per deal"
    assert all(row[per_deal].data_type == "n" for row in cells)  # a number, not text
    assert all(row[per_deal].number_format == "0.00" for row in cells)
    assert [row[per_deal].value for row in cells] == figures


def test_the_downloads_have_the_total_after_the_same_deals_when_the_ranking_goes_by_it(client):
    event = midevening("same_deals")
    standings = event_standings(event=event)
    assert standings.ranked_by == "same_deals" and standings.after_deals == 1
    header, *rows = csv_rows(download(client, event, "csv"))
    after = header.index("After 1 deal")
    assert [int(row[after]) for row in rows] == [row.after_total for row in standings.rows]
    assert [int(row[after]) for row in rows] == sorted(int(row[after]) for row in rows)
    head, *cells = xlsx_cells(download(client, event, "xlsx"))
    assert head[after].value == "After 1 deal" and cells[0][after].data_type == "n"
    # Once every table is at the same deal, the ranking is by total and the column goes.
    assert "After 1 deal" not in csv_rows(download(client, midevening_done(), "csv"))[0]


def midevening_done():
    event, tables = seated_event(variant_id="rutupeli", players=8)
    event.ranking_mode = "same_deals"
    event.save()
    play_night(tables[0], 1)
    play_night(tables[1], 1, out=1)
    return event


def test_the_downloads_count_the_raevaeytys_and_mark_unconfirmed_totals(client):
    club = ClubFactory()
    players = [Player.objects.create(club=club, name=n) for n in ("Aino", "Bea", "Cy", "Di")]
    a, b, c, d = players
    event, table = night(club, players, variant_id="ravaytys", day=7)
    header, *rows = csv_rows(download(client, event, "csv"))
    # A game that records räväytys has the column from the start, none too.
    assert [row[header.index("Räväytys")] for row in rows] == ["0"] * 4
    assert "Includes unconfirmed deals" not in header  # nothing waits: no empty column

    store(
        table,
        [
            contract(table, a, {b: 15, c: 40, d: 5}, ravaytys=True),
            contract(table, b, {a: 30, c: 40, d: 5}),
        ],
        statuses={2: "submitted"},
    )
    header, *rows = csv_rows(download(client, event, "csv"))
    by_name = {row[1]: row for row in rows}
    assert by_name["Aino"][header.index("Räväytys")] == "1"
    assert {row[header.index("Räväytys")] for name, row in by_name.items() if name != "Aino"} == {
        "0"
    }
    assert {row[header.index("Includes unconfirmed deals")] for row in rows} == {"yes"}
    head, *cells = xlsx_cells(download(client, event, "xlsx"))
    names = [cell.value for cell in head]
    assert sum(row[names.index("Räväytys")].value for row in cells) == 1
    # A game without räväytys has no such column.
    rutupeli, _tables = seated_event(variant_id="rutupeli", players=4)
    assert "Räväytys" not in csv_rows(download(client, rutupeli, "csv"))[0]


def test_tizlapos_downloads_have_the_units_from_the_start(client):
    event, _tables = seated_event(variant_id="tizlapos_romi", players=4)
    header, *rows = csv_rows(download(client, event, "csv"))
    assert [row[header.index("Units")] for row in rows] == ["0"] * 4
    head, *cells = xlsx_cells(download(client, event, "xlsx"))
    units = [cell.value for cell in head].index("Units")
    assert [row[units].value for row in cells] == [0] * 4


def test_a_semicolon_csv_for_a_spreadsheet_in_finnish_or_hungarian(client):
    event = midevening("average")
    plain = download(client, event, "csv")
    semi = download(client, event, "csv", sep="semicolon")
    assert semi.content.startswith("\ufeff".encode())  # still read as UTF-8
    assert filename_of(semi) == filename_of(plain)
    comma_rows = csv_rows(plain)
    semi_rows = csv_rows(semi, delimiter=";")
    assert semi.content.decode("utf-8-sig").splitlines()[0].startswith("#;Player;Total;")
    per_deal = comma_rows[0].index("Per deal")
    # The same cells; a decimal with a comma, as such a spreadsheet reads a number.
    assert [row[per_deal] for row in semi_rows[1:]] == [
        row[per_deal].replace(".", ",") for row in comma_rows[1:]
    ]
    assert any("," in row[per_deal] for row in semi_rows[1:])
    # Anything else is the comma; XLSX has no separator to choose.
    assert csv_rows(download(client, event, "csv", sep="tab")) == comma_rows
    assert download(client, event, "xlsx", sep="semicolon").status_code == 200


def filename_of(response) -> str:
    return response["Content-Disposition"]


def test_the_page_links_every_download_and_the_feed_in_the_readers_language(client):
    event, tables = seated_event(variant_id="rutupeli", players=8)
    play_night(tables[0], 1)
    slug = event.club.slug
    csv_url = reverse("ranking_export", args=[slug, event.pk, "csv"])
    feed_url = reverse("event_standings_feed", args=[slug, event.pk])
    html = client.get(event.get_absolute_url()).content.decode()
    assert f'href="{csv_url}?sep=semicolon"' in html
    assert "CSV with ; (for a spreadsheet in Finnish or Hungarian)" in html
    assert f'<a href="{feed_url}" type="application/json">JSON feed</a>' in html
    stage = client.get(reverse("stage_standings", args=[slug, event.pk, 1])).content.decode()
    assert f'<a href="{feed_url}" type="application/json">JSON feed</a>' in stage
    stage_csv = reverse("stage_standings_export", args=[slug, event.pk, 1, "csv"])
    assert f'href="{stage_csv}?sep=semicolon"' in stage
    assert client.get(f"{stage_csv}?sep=semicolon").content.decode("utf-8-sig")[:2] == "#;"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fi"
    finnish = client.get(event.get_absolute_url()).content.decode()
    assert "CSV with ;" not in finnish and f'href="{csv_url}?sep=semicolon"' in finnish


def test_dates_in_xlsx_are_dates_and_iso_in_csv(client):
    club = ClubFactory()
    players = [Player.objects.create(club=club, name=n) for n in ("Aino", "Bea", "Cy", "Di")]
    _event, table = night(club, players, variant_id="ravaytys", day=7)
    store(table, [contract(table, players[0], {players[1]: 15, players[2]: 40, players[3]: 5})])
    day = datetime.date(2026, 11, 7)

    record = reverse("player_record_export", args=[club.slug, players[0].pk, "xlsx"])
    head, *cells = xlsx_cells(client.get(record))
    date = [cell.value for cell in head].index("Date")
    (row,) = cells
    assert row[date].is_date and row[date].value.date() == day
    assert "yy" in row[date].number_format  # shown as a date, not a serial number
    header, line = csv_rows(
        client.get(reverse("player_record_export", args=[club.slug, players[0].pk, "csv"]))
    )
    assert line[header.index("Date")] == "2026-11-07"

    events = reverse("club_events_export", args=[club.slug, "xlsx"])
    head, *cells = xlsx_cells(client.get(events))
    date = [cell.value for cell in head].index("Date")
    assert [row[date].value.date() for row in cells] == [day]
    assert cells[0][date].is_date and "yy" in cells[0][date].number_format
