"""The score screens' tables (django-tables2): the ranking sorted and paged, also on a poll;
a table's sheet built once per cell; the registrations; and the CSV/XLSX downloads, read back
with the csv module and openpyxl."""

from __future__ import annotations

import csv
import datetime
import io
import re

import openpyxl
import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse

from scoring.models import Deal
from scoring.selectors import sheet_points_matrix, table_sheet
from scoring.services import Actor, deal_confirm, deal_record, deal_void
from standings.selectors import event_ranking
from tests.support.events import new_request_id, seated_event
from tests.support.factories import MembershipFactory, UserFactory
from tests.support.standings import SEAT0, play_night
from tournaments.models import Player, Role
from tournaments.services import event_create, registration_add, stage_draw

pytestmark = pytest.mark.django_db

SEAT1 = Actor(device="phone-1", seat=1)


def director_of(table) -> Actor:
    """The club's director at the desk: the services read the rights from the user."""
    club = table.stage.event.club
    return Actor(device="desk", user=MembershipFactory(club=club, role=Role.DIRECTOR).user)


def confirm(deal):
    return deal_confirm(
        deal=deal, by=SEAT1, expected_version=deal.version, request_id=new_request_id()
    )


def ranking_export(client, event, export_format, **headers):
    url = reverse("ranking_export", args=[event.club.slug, event.pk, export_format])
    return client.get(url, **headers)


def totals_export(client, table, export_format):
    event = table.stage.event
    url = reverse("table_totals_export", args=[event.club.slug, event.pk, table.pk, export_format])
    return client.get(url)


def read_csv(response) -> list[list[str]]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def read_xlsx(response) -> tuple[str, list[tuple]]:
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    sheet = book.active
    return sheet.title, list(sheet.iter_rows(values_only=True))


def filename(response) -> str:
    match = re.fullmatch(r'attachment; filename="([^"]+)"', response["Content-Disposition"])
    assert match, response["Content-Disposition"]
    return match.group(1)


def body_rows(html: str) -> list[str]:
    body = html.split("<h2>Ranking</h2>", 1)[1].split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr.*?</tr>", body, flags=re.S)


def cells(row: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td.*?</td>", row, re.S)]


@pytest.fixture
def night():
    """Eight players at two tables; table 1 has played deal 1 (unconfirmed)."""
    event, tables = seated_event(variant_id="rutupeli", players=8)
    play_night(tables[0], 1)
    return event, tables


# -- the ranking on the page --------------------------------------------------------------------


def test_a_long_ranking_is_paged_a_hundred_at_a_time_and_sortable(client):
    event, tables = seated_event(variant_id="rutupeli", players=150)
    play_night(tables[0], 1)
    url = event.get_absolute_url()
    first = client.get(url).content.decode()
    assert len(body_rows(first)) == 100
    assert 'href="?page=2"' in first
    second = client.get(url, {"page": 2}).content.decode()
    assert len(body_rows(second)) == 50

    by_name = client.get(url, {"sort": "player"}).content.decode()
    names = [cells(row)[1] for row in body_rows(by_name)]
    assert names == sorted(names) and names[0] == "Player 001"
    backwards = client.get(url, {"sort": "-player"}).content.decode()
    assert cells(body_rows(backwards)[0])[1] == "Player 150"
    # A paging link keeps the order.
    assert "sort=-player" in backwards.split('class="pagination"', 1)[1].split("</ul>", 1)[0]


def test_the_ranking_keeps_its_marks(client, night):
    event, _tables = night
    html = client.get(event.get_absolute_url()).content.decode()
    table_one = [cells(row) for row in body_rows(html) if cells(row)[4] == "1"]  # after Per deal
    assert len(table_one) == 4 and all(row[2].endswith("*") for row in table_one)
    assert 'class="unconfirmed"' in html
    # The column headers sort; the deals column does not.
    assert 'href="?sort=total"' in html and 'href="?sort=deals"' not in html


def test_a_poll_of_the_live_part_keeps_the_readers_page_and_order(client):
    event, _tables = seated_event(variant_id="rutupeli", players=120)
    page = event.get_absolute_url()
    live = reverse("event_live", args=[event.club.slug, event.pk])
    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": f"http://testserver{page}"}

    current = f"http://testserver{page}?sort=-player&page=2"
    on_page_two = client.get(live, **{**poll, "HTTP_HX_CURRENT_URL": current}).content.decode()
    rows = body_rows(on_page_two)
    assert len(rows) == 20 and cells(rows[0])[1] == "Player 020"
    # The paging links are those of the page the reader is on, with the order kept.
    assert 'href="?sort=-player&amp;page=1"' in on_page_two

    plain = client.get(live, **poll).content.decode()
    assert len(body_rows(plain)) == 100
    # Another page's address, or one the table would refuse, gives the first page quietly.
    for current in ("/elsewhere/?page=2", f"{page}?page=99", f"{page}?sort=nonsense"):
        html = client.get(live, **{**poll, "HTTP_HX_CURRENT_URL": f"http://testserver{current}"})
        assert html.status_code == 200 and len(body_rows(html.content.decode())) == 100
    assert "no such page" not in client.get(page).content.decode()


def test_the_public_page_pages_like_every_list(client):
    event, _tables = seated_event(variant_id="rutupeli", players=8)
    page = event.get_absolute_url()
    assert client.get(page, {"page": 2}).status_code == 404
    # A value the ranking does not offer: its first page in the usual order.
    usual = [row.player for row in event_ranking(event=event)]
    for query in ({"sort": "nonsense"}, {"page": "x"}, {"per_page": "5000"}):
        html = client.get(page, query).content.decode()
        assert [cells(row)[1] for row in body_rows(html)] == usual
    assert "This list" not in client.get(page).content.decode()  # no note left behind


# -- a table's sheet ----------------------------------------------------------------------------


def test_the_points_matrix_has_a_cell_per_seat_and_deal(night):
    _event, tables = night
    table = tables[0]
    play_night(table, 2, out=1)
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    matrix = sheet_points_matrix(sheet=table_sheet(table=table))
    assert [deal.number for deal in matrix.deals] == [1, 2]
    assert [row.place for row in matrix.rows] == [1, 2, 3, 4]
    for row in matrix.rows:
        assert row.points == [deal.points[row.seat.position] for deal in deals]
        assert row.total == sum(row.points)


def test_the_sheet_marks_each_seat_unconfirmed_and_voided_deals(night):
    _event, tables = night
    table = tables[0]
    confirm(Deal.objects.get(table=table, number=1))
    second = play_night(table, 2, out=1)
    sheet = table_sheet(table=table)
    html = render_to_string("scoring/_totals.html", {"sheet": sheet, "actor": SEAT1})
    # Each row says its seat: the page around the sheet marks the phone's own by it (the
    # same sheet for every phone at the table; tests/scoring/test_table_answers.py).
    rows = dict(re.findall(r'<tr data-seat="(\d)"[^>]*>(.*?)</tr>', html, re.S))
    assert sorted(rows) == ["0", "1", "2", "3"]
    assert all(seat.player.name in rows[str(seat.position)] for seat in sheet.seats)
    css = (settings.BASE_DIR / "static" / "css" / "site.css").read_text()
    assert '[data-me="1"] tr[data-seat="1"]' in css
    assert re.search(r'title="Deal 2">\s*2\*', html) and "/edit/" not in html
    assert "* not yet confirmed" in html

    desk = director_of(table)
    deal_void(deal=second, by=desk, note="", request_id=new_request_id())
    sheet = table_sheet(table=table)
    html = render_to_string(
        "scoring/_totals.html", {"sheet": sheet, "actor": desk, "is_director": True}
    )
    assert 'class="num voided"' in html and '<span class="badge">voided</span>' in html
    edit = reverse("deal_edit", args=[table.entry_key, 1])
    assert f'<a href="{edit}" title="Correct">1</a>' in html


# -- the registrations --------------------------------------------------------------------------


def test_the_manage_page_lists_registrations_in_a_sortable_table(client, club):
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    event = event_create(
        published=True,
        club=club,
        name="Night",
        date=datetime.date(2026, 11, 28),
        variant_id="rutupeli",
    )
    for name in ("Bea", "Aino", "Cecil"):
        player = Player.objects.create(club=club, name=name, user=UserFactory())
        registration_add(event=event, player=player)
    guest = Player.objects.create(club=club, name="Guest Gus", guest=True)
    registration_add(event=event, player=guest, checked_in=True)
    client.force_login(director)
    url = reverse("event_manage", args=[club.slug, event.pk])
    html = client.get(url, {"sort": "player"}).content.decode()
    section = html.split('id="registration"', 1)[1].split('id="draw"', 1)[0]
    body = section.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    rows = [cells(row) for row in re.findall(r"<tr.*?</tr>", body, flags=re.S)]
    assert [row[:2] for row in rows] == [
        ["Aino", "registered"],
        ["Bea", "registered"],
        ["Cecil", "registered"],
        ["Guest Gus (guest)", "checked in"],
    ]
    assert body.count('name="csrfmiddlewaretoken"') == 4
    assert body.count('value="withdrawn"') == 4 and body.count('value="checked_in"') == 3
    assert client.get(url, {"sort": "nonsense"}).status_code == 200


# -- downloads ----------------------------------------------------------------------------------


def test_the_ranking_downloads_as_csv_with_every_row(client, night):
    event, _tables = night
    response = ranking_export(client, event, "csv")
    assert response.status_code == 200
    assert filename(response) == "rutupeli-night-ranking.csv"
    assert response.content.startswith("\ufeff".encode())  # Excel reads it as UTF-8
    header, *rows = read_csv(response)
    # The points per deal are in the download whatever the ranking goes by, and the
    # page's * beside a total with unconfirmed deals is said in words.
    assert header == [
        "#", "Player", "Total", "Per deal", "Includes unconfirmed deals", "Table", "Deals",
        "Decided by", "Shared place",
    ]  # fmt: skip
    ranking = event_ranking(event=event)
    assert len(rows) == len(ranking) == 8
    assert [row[:3] + row[5:7] for row in rows] == [
        [str(r.place), r.player, str(r.total), str(r.table), str(r.deals)] for r in ranking
    ]
    assert [row[4] for row in rows] == ["yes" if r.unconfirmed else "" for r in ranking]
    assert {row[4] for row in rows} == {"yes", ""}  # table 1's deal waits, table 2 has none
    # The tie-break that set a row apart is named; the total (or the first row) is blank.
    assert all(
        (row[7] == "") == (r.decided_by in (None, "total"))
        for r, row in zip(ranking, rows, strict=True)
    )


def test_the_ranking_downloads_as_xlsx_with_numbers(client, night):
    event, _tables = night
    response = ranking_export(client, event, "xlsx")
    assert filename(response) == "rutupeli-night-ranking.xlsx"
    title, (header, *rows) = read_xlsx(response)
    assert title == "Ranking"
    assert header == (
        "#", "Player", "Total", "Per deal", "Includes unconfirmed deals", "Table", "Deals",
        "Decided by", "Shared place",
    )  # fmt: skip
    ranking = event_ranking(event=event)
    assert [row[:3] + row[5:7] for row in rows] == [
        (r.place, r.player, r.total, r.table, r.deals) for r in ranking
    ]
    assert sum(row[2] for row in rows) == sum(r.total for r in ranking) > 0


def test_downloads_speak_the_readers_language(client, night):
    event, tables = night
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fi"
    response = ranking_export(client, event, "csv")
    assert read_csv(response)[0][:3] + read_csv(response)[0][5:7] == [
        "#",
        "Pelaaja",
        "Yhteensä",
        "Pöytä",
        "Jaot",
    ]
    assert filename(response) == "rutupeli-night-sijoitukset.csv"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    title, (header, *_rows) = read_xlsx(totals_export(client, tables[0], "xlsx"))
    assert title == "1. asztal" and header[:3] == ("#", "Játékos", "Összesen")
    assert filename(totals_export(client, tables[0], "csv")) == "rutupeli-night-1-asztal.csv"


def test_a_tables_totals_download_has_a_column_per_deal(client, night):
    _event, tables = night
    table = tables[0]
    confirm(Deal.objects.get(table=table, number=1))
    play_night(table, 2, out=1)
    third = play_night(table, 3, out=2)
    deal_void(deal=third, by=director_of(table), note="", request_id=new_request_id())
    deals = list(Deal.objects.filter(table=table).order_by("number"))
    sheet = table_sheet(table=table)

    response = totals_export(client, table, "csv")
    assert filename(response) == "rutupeli-night-table-1.csv"
    header, *rows = read_csv(response)
    assert header == ["#", "Player", "Total", "1", "2*", "3 voided"]
    assert len(rows) == 4
    for row, line in zip(rows, sheet.rows, strict=True):
        position = line["seat"].position
        assert row[:3] == [str(line["place"]), line["seat"].player.name, str(line["total"])]
        # A voided deal counts for nobody: its cells are left empty.
        assert row[3:] == [str(deals[0].points[position]), str(deals[1].points[position]), ""]
        assert int(row[2]) == int(row[3]) + int(row[4])

    _title, (xlsx_header, *xlsx_rows) = read_xlsx(totals_export(client, table, "xlsx"))
    assert xlsx_header == ("#", "Player", "Total", "1", "2*", "3 voided")
    assert [row[2] for row in xlsx_rows] == [line["total"] for line in sheet.rows]


def test_a_gin_sheet_downloads_its_settlement(client):
    _event, (table,) = seated_event(variant_id="gin_romi", players=2)
    for number, deadwood in ((1, (0, 100)), (2, (0, 30))):
        entry = {"ending": "romi", "by": 0, "upper": "9H", "hands": None, "deadwood": deadwood}
        deal_record(
            table=table,
            number=number,
            entry=entry,
            by=SEAT0,
            expected_version=0,
            request_id=new_request_id(),
        )
    sheet = table_sheet(table=table)
    _title, (header, *rows) = read_xlsx(totals_export(client, table, "xlsx"))
    assert header == ("#", "Player", "Total", "Settlement", "1*", "2*")
    assert rows[0][3] == sheet.rows[0]["final"]


def test_a_name_a_spreadsheet_would_run_is_written_as_text(client):
    event, tables = seated_event(variant_id="rutupeli", players=4)
    seat = tables[0].seats.select_related("player").get(position=0)
    seat.player.name = '=HYPERLINK("http://evil.example","win")'
    seat.player.save()
    rows = read_csv(ranking_export(client, event, "csv"))[1:]
    assert '\'=HYPERLINK("http://evil.example","win")' in [row[1] for row in rows]
    book = openpyxl.load_workbook(io.BytesIO(ranking_export(client, event, "xlsx").content))
    names = [cell for cell in book.active["B"][1:]]
    assert all(cell.data_type == "s" for cell in names)
    assert '\'=HYPERLINK("http://evil.example","win")' in [cell.value for cell in names]


def test_downloads_are_public_and_only_of_public_tables(client, night):
    event, tables = night
    assert ranking_export(client, event, "csv").status_code == 200
    assert ranking_export(client, event, "pdf").status_code == 404
    assert ranking_export(client, event, "json").status_code == 404
    assert totals_export(client, tables[1], "csv").status_code == 200
    _other, (elsewhere,) = seated_event(variant_id="rutupeli", players=4)
    url = reverse("table_totals_export", args=[event.club.slug, event.pk, elsewhere.pk, "csv"])
    assert client.get(url).status_code == 404
    # A draw still in preview is the director's alone.
    fresh = event_create(
        published=True,
        club=event.club,
        name="Next",
        date=datetime.date(2026, 12, 5),
        variant_id="rutupeli",
    )
    for index in range(4):
        player = Player.objects.create(club=event.club, name=f"Next {index}")
        registration_add(event=fresh, player=player, checked_in=True)
    preview = stage_draw(event=fresh, seed=1).tables.get()
    url = reverse("table_totals_export", args=[event.club.slug, fresh.pk, preview.pk, "csv"])
    assert client.get(url).status_code == 404
    assert ranking_export(client, fresh, "csv").status_code == 200  # headers only
    assert len(read_csv(ranking_export(client, fresh, "csv"))) == 1
    # The public page links to the ranking's downloads, a table's sheet to its own.
    html = client.get(event.get_absolute_url()).content.decode()
    assert reverse("ranking_export", args=[event.club.slug, event.pk, "xlsx"]) in html
    sheet = render_to_string("scoring/_totals.html", {"sheet": table_sheet(table=tables[1])})
    assert (
        reverse("table_totals_export", args=[event.club.slug, event.pk, tables[1].pk, "csv"])
        in sheet
    )


# -- query counts -------------------------------------------------------------------------------


def _export_queries(client, event, django_assert_max_num_queries):
    # 9: the standings also ask, in one query, whose records are public (tournaments.privacy).
    with django_assert_max_num_queries(9) as captured:
        response = ranking_export(client, event, "csv")
    assert response.status_code == 200
    return len(captured.captured_queries), response


def test_the_ranking_download_takes_as_many_queries_for_1000_players_as_for_8(
    client, django_assert_max_num_queries
):
    small, small_tables = seated_event(variant_id="rutupeli", players=8)
    large, large_tables = seated_event(variant_id="rutupeli", players=1000)
    for tables in (small_tables, large_tables):
        for table in tables[:2]:
            play_night(table, 1)
    few, _response = _export_queries(client, small, django_assert_max_num_queries)
    many, response = _export_queries(client, large, django_assert_max_num_queries)
    assert few == many
    # Every row, not one page of them.
    assert len(read_csv(response)) == 1 + 1000


def test_a_tables_download_takes_a_fixed_number_of_queries(client, django_assert_num_queries):
    _event, tables = seated_event(variant_id="rutupeli", players=4)
    for number in range(1, 6):
        play_night(tables[0], number, out=number % 4)
    # The club's language (a first visit that names no language of the site's: then kept
    # in the cache), the club, the event, the table, and the sheet's table, seats, deals.
    with django_assert_num_queries(7):
        assert totals_export(client, tables[0], "xlsx").status_code == 200


def test_downloads_leave_unconfirmed_deals_out_where_the_club_shows_confirmed_only(client, night):
    event, tables = night  # table 1's deal 1 waits for its confirmation
    shown = read_csv(ranking_export(client, event, "csv"))[1:]
    assert sum(int(row[2]) for row in shown) > 0
    event.club.public_confirmed_only = True
    event.club.save()
    header, *rows = read_csv(ranking_export(client, event, "csv"))
    assert [int(row[2]) for row in rows] == [0] * 8  # nothing confirmed yet: no points
    assert {row[header.index("Deals")] for row in rows} == {"0"}
    _header, *totals = read_csv(totals_export(client, tables[0], "csv"))
    assert all(int(row[2]) == 0 for row in totals)
