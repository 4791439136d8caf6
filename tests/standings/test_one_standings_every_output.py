"""One standings, every output: for an event of every format, the public page, the CSV, the
XLSX, the standings PDF, the JSON feed and the big screen list the same players in the same
order with the same places and figures as `event_standings`, each finished table's printed
result sheet names the winner its places name (and a championship's advancement names the
champion they crown). Beside it: the printed result sheet's winner,
what set each row of a final ranking apart, shared places on records and downloads, a
head-to-head screen's wins, and the bye settings typed in the new-event form kept."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from html.parser import HTMLParser

import openpyxl
import pytest
from django.http import QueryDict
from django.urls import reverse
from pypdf import PdfReader

from formats.championship import championship_stage_close, tie_break_record
from printing.boards import bracket_file, standings_file
from printing.sheets import table_sheet_file
from records.selectors import player_record
from scoring.selectors import stage_sheets
from standings.standings import event_standings
from tests.support.championship import championship, entry, seated, tied_scheme, winner_scheme
from tests.support.championship import play as play_championship
from tests.support.entry import seated_client
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.headtohead import pair_and_confirm, pairs_of
from tests.support.headtohead import play as play_match
from tests.support.standings import FORMATS, finished_championship, night
from tournaments.event_settings import event_tie_breaks_set
from tournaments.models import Event, EventFormat, Player, Role, StageStatus
from tournaments.services import event_publish, registration_add

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def _page_rows(client, event) -> list[tuple[str, str]]:
    """(place, player) of each row of the page's standings table (its one ranking table)."""
    live = client.get(reverse("event_live", args=[event.club.slug, event.pk])).content.decode()
    body = live.split('class="table ranking-table"', 1)[1]
    body = body.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    rows = []
    for row in re.findall(r"<tr.*?</tr>", body, flags=re.S):
        cells = re.findall(r"<td.*?</td>", row, flags=re.S)
        # The name is the player's link (a badge may follow it).
        rows.append((_text(cells[0]), _text(re.findall(r"<a .*?</a>", cells[1], re.S)[0])))
    return rows


def _download(client, event, export_format: str):
    url = reverse("ranking_export", args=[event.club.slug, event.pk, export_format])
    response = client.get(url)
    assert response.status_code == 200
    return response


def _csv_rows(client, event) -> tuple[list[str], list[list[str]]]:
    header, *rows = list(
        csv.reader(io.StringIO(_download(client, event, "csv").content.decode("utf-8-sig")))
    )
    return header, rows


def _xlsx_rows(client, event) -> tuple[tuple, list[tuple]]:
    book = openpyxl.load_workbook(io.BytesIO(_download(client, event, "xlsx").content))
    header, *rows = list(book.active.iter_rows(values_only=True))
    return header, rows


def _pdf_lines(event) -> list[str]:
    pdf = standings_file(event=event, language="en").content
    return [
        line
        for page in PdfReader(io.BytesIO(pdf)).pages
        for line in page.extract_text().splitlines()
    ]


def _screen_rows(client, event) -> list[tuple[str, str]]:
    url = reverse("event_screen_live", args=[event.club.slug, event.pk])
    html = client.get(url).content.decode()
    return [
        (_text(place), _text(name).lstrip("♠ ").strip())
        for place, name in re.findall(
            r'<span class="place">(.*?)</span><span class="name">(.*?)</span>', html, re.S
        )
    ]


def _printed_winners(event) -> list[tuple[str, str, str]]:
    """(table, the winner its printed result sheet names or "", the winner its places name
    or "" while its top place is shared) for each finished table of each stage. Where the
    stage's standings place players at their tables, the places are checked against them:
    the sheet must name who every ranking above puts first at the table."""
    found = []
    for stage in event.stages.order_by("number"):
        rows = event_standings(event=event, stage=stage).rows
        for sheet in stage_sheets(stage=stage):
            if not sheet.standing.finished:
                continue
            top = [
                seat.player.name
                for place in sheet.order
                if place.place == sheet.order[0].place
                for seat in sheet.seats
                if seat.position == place.position
            ]
            firsts = [r.player for r in rows if r.table == sheet.table.number]
            if firsts and all(r.table_place for r in rows if r.table == sheet.table.number):
                ranked = [
                    r.player for r in rows if r.table == sheet.table.number and r.table_place == 1
                ]
                assert sorted(ranked) == sorted(top), (stage.number, sheet.table.number)
            pdf = table_sheet_file(table=sheet.table, filled=True, language="en").content
            text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
            printed = re.search(r"Winner: (.+)", text)
            label = f"stage {stage.number} table {sheet.table.number}"
            found.append((label, printed.group(1).strip() if printed else "",
                          top[0] if len(top) == 1 else ""))  # fmt: skip
    return found


def _screen_wins(client, event) -> list[str]:
    url = reverse("event_screen_live", args=[event.club.slug, event.pk])
    html = client.get(url).content.decode()
    return re.findall(r'<span class="wins">(\d+)</span>', html)


@pytest.mark.parametrize("kind", sorted(FORMATS))
def test_every_output_reads_the_one_standings(client, kind):
    event = FORMATS[kind]()
    event_publish(event=event, published=True)
    standings = event_standings(event=event)
    expected = [(row.place_label, row.player) for row in standings.rows]
    assert len(expected) == 8 if kind != "championship" else 9
    # The places are not all alike: the test could tell two orders apart.
    assert len({place for place, _name in expected}) > 2

    assert _page_rows(client, event) == expected

    header, rows = _csv_rows(client, event)
    total = header.index("Total")
    assert [(row[0], row[1]) for row in rows] == [
        (str(row.place), row.player) for row in standings.rows
    ]
    assert [int(row[total]) for row in rows] == [row.total for row in standings.rows]
    # A shared place is marked as the page marks it ("=2"), in words beside the number.
    shared = ["yes" if row.shared else "" for row in standings.rows]
    if any(shared):
        assert [row[header.index("Shared place")] for row in rows] == shared
    if kind in ("swiss", "round_robin"):
        wins = header.index("Wins")
        assert [int(row[wins]) for row in rows] == [row.wins for row in standings.rows]
    if kind == "series":
        rounds = header.index("Rounds")
        assert [int(row[rounds]) for row in rows] == [row.rounds for row in standings.rows]
    if kind == "championship":
        reached = header.index("Stage reached")
        assert [int(row[reached]) for row in rows] == [row.stage for row in standings.rows]
    if kind == "night":
        assert "Per deal" in header  # the download has the points per deal

    xlsx_header, xlsx = _xlsx_rows(client, event)
    assert list(xlsx_header) == header
    assert [(row[0], row[1], row[total]) for row in xlsx] == [
        (row.place, row.player, row.total) for row in standings.rows
    ]
    if any(shared):
        assert [row[header.index("Shared place")] or "" for row in xlsx] == shared

    lines = _pdf_lines(event)
    printed = [
        next(line for line in lines if line.startswith(f"{place} {name}"))
        for place, name in expected
    ]
    assert [lines.index(line) for line in printed] == sorted(lines.index(line) for line in printed)

    feed = json.loads(
        client.get(reverse("event_standings_feed", args=[event.club.slug, event.pk])).content
    )["standings"]
    assert [(p["place_label"], p["name"]) for p in feed["players"]] == expected
    assert [p["total"] for p in feed["players"]] == [row.total for row in standings.rows]
    # A shared place names nothing that decided it (docs/feeds.md), whatever the format.
    assert any(p["shared"] for p in feed["players"]) or kind == "championship"
    assert all(p["decided_by"] is None for p in feed["players"] if p["shared"])

    assert _screen_rows(client, event) == expected
    # Each finished table's printed result sheet names the winner its places name.
    winners = _printed_winners(event)
    assert winners or kind == "night"  # the night's two tables still play
    assert all(printed == placed for _table, printed, placed in winners), winners
    if kind in ("swiss", "round_robin"):
        # Ranked by match wins first: the screen shows them and says so, or a lower points
        # figure would stand above a higher one with no reason shown.
        assert _screen_wins(client, event) == [str(row.wins) for row in standings.rows]
        assert len({row.wins for row in standings.rows}) > 1
        screen = client.get(reverse("event_screen_live", args=[event.club.slug, event.pk]))
        assert standings.caption and standings.caption in screen.content.decode()


def test_a_championships_standings_crown_the_champion_its_advancement_crowned(client):
    event = finished_championship()
    standings = event_standings(event=event)
    final = event.stages.get(number=2)
    assert standings.champion is not None
    assert standings.champion.player_id == final.outcome["champion"]
    assert standings.rows[0] is standings.champion and standings.finished
    # Everyone, not only the finalists: the three who went on first, by the final.
    assert [row.stage for row in standings.rows] == [2, 2, 2, 1, 1, 1, 1, 1, 1]
    first = event.stages.get(number=1)
    went_on = {row["player"] for row in first.outcome["advancers"]}
    assert {row.player_id for row in standings.rows[:3]} == went_on
    # The card draw that settled table 1 is said on the winner's row, the page and the PDF.
    (drawn,) = [row for row in standings.rows if row.tie_break == "card_draw"]
    assert (drawn.stage, drawn.table, drawn.table_place) == (1, 1, 2)
    live = client.get(reverse("event_live", args=[event.club.slug, event.pk])).content.decode()
    assert "(card draw)" in live
    assert any("(card draw)" in line for line in _pdf_lines(event))
    # The bracket says it of both players the draw ordered, on the page and its PDF.
    bracket = live.split('id="bracket"', 1)[1].split("</section>", 1)[0]
    assert bracket.count("card draw") == 2
    printed = bracket_file(event=event, language="en").content
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(printed)).pages)
    assert text.count("(card draw)") == 2
    screen = client.get(reverse("event_screen_live", args=[event.club.slug, event.pk]))
    assert f"Champion: {standings.champion.player}" in screen.content.decode()


def test_a_stages_tables_order_their_seats_as_the_standings_do():
    event = night()
    standings = event_standings(event=event)
    stage = event.stages.get(status=StageStatus.CONFIRMED)
    for sheet in stage_sheets(stage=stage):
        at_table = [row.player_id for row in standings.rows if row.table == sheet.table.number]
        seat_player = {seat.position: seat.player_id for seat in sheet.seats}
        assert [seat_player[place.position] for place in sheet.order] == at_table


def test_a_record_credits_a_settled_tie_as_the_director_recorded_it():
    _event, stage, director = championship(9)
    tables = list(stage.tables.order_by("number"))
    play_championship(tables[0], tied_scheme(3))
    for table in tables[1:]:
        play_championship(table, winner_scheme(3, winner=2))
    a, b, _c = seated(tables[0])
    # Level on everything: the seat would put `a` first; the director's draw says `b`.
    tie_break_record(table=tables[0], method="card_draw", order=[b, a], note="", by=director)
    firsts = {
        player: sum(g.firsts for g in player_record(player=Player.objects.get(pk=player)).games)
        for player in (a, b)
    }
    assert firsts == {a: 0, b: 1}
    (sheet,) = [s for s in stage_sheets(stage=stage) if s.table.pk == tables[0].pk]
    assert [sheet.seats[p.position].player_id for p in sheet.order][:2] == [b, a]


def deals_won_against_last_deal(seats: int = 3) -> list[dict]:
    """Seats 0 and 1 level on the total (85): seat 0 won more deals (4 to 2), seat 1 took
    fewer points in the last deal (5 to 25). The engine's own tie order (last deal first)
    crowns seat 1; an event that puts deals won first crowns seat 0."""
    deals = []
    for number in range(7):
        points = [50] * seats
        if number < 4:
            out, points[1] = 0, 20
        elif number < 6:
            out, points[0] = 1, 30
        else:
            out, points[0], points[1] = 2, 25, 5
        points[out] = 0
        deals.append(entry(out, points))
    return deals


def test_the_printed_result_sheet_names_the_winner_every_other_output_names():
    _event, stage, director = championship(9)
    event = event_tie_breaks_set(event=stage.event, order=["total", "deals_won", "last_deal"])
    tables = list(stage.tables.order_by("number"))
    play_championship(tables[0], deals_won_against_last_deal())
    for table in tables[1:]:
        play_championship(table, winner_scheme(3, winner=2))
    (sheet,) = [s for s in stage_sheets(stage=stage) if s.table.pk == tables[0].pk]
    won_more = sheet.seats[0]
    assert sheet.winner == won_more
    standings = event_standings(event=event, stage=stage)
    assert next(r.player for r in standings.rows if r.table == 1 and r.table_place == 1) == (
        won_more.player.name
    )
    printed = table_sheet_file(table=tables[0], filled=True, language="en").content
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(printed)).pages)
    assert f"Winner: {won_more.player.name}" in text
    # The table's own page, where the players read it first, names the same winner.
    phone = seated_client(tables[0], 1)
    page = phone.get(reverse("table_entry", args=[tables[0].entry_key])).content.decode()
    assert f"{won_more.player.name} wins the table." in unescape(page)
    championship_stage_close(stage=stage, by=director, seed=5)
    stage.refresh_from_db()
    assert won_more.player_id in {row["player"] for row in stage.outcome["advancers"]}


def test_a_table_level_under_the_events_tie_order_names_no_winner_on_its_page():
    # The game's own order would split the two on the last deal; this event does not look
    # at it, so its table page says the director settles the win, as the ranking shares it.
    _event, stage, _director = championship(9)
    event_tie_breaks_set(event=stage.event, order=["total", "director"])
    table = stage.tables.order_by("number").first()
    play_championship(table, deals_won_against_last_deal())
    (sheet,) = [s for s in stage_sheets(stage=stage) if s.table.pk == table.pk]
    assert sheet.winner is None and sheet.standing.winner is not None
    page = seated_client(table, 1).get(reverse("table_entry", args=[table.entry_key]))
    html = unescape(page.content.decode())
    assert "The top players are level: the director settles the win." in html
    assert "wins the table" not in html
    # Its printed result sheet says the same, not nothing.
    printed = table_sheet_file(table=table, filled=True, language="en").content
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(printed)).pages)
    assert "The top players are level: the director settles the win." in " ".join(text.split())
    assert "Winner:" not in text


def championship_with_a_close_final():
    """`finished_championship` whose final's runner-up beats third place on the total, and
    whose champion beats the runner-up on the last deal (level on 85)."""
    return finished_championship(deals_won_against_last_deal())


def _page_decided_by(client, event) -> list[str]:
    live = client.get(reverse("event_live", args=[event.club.slug, event.pk])).content.decode()
    body = live.split('class="table ranking-table"', 1)[1].split("</table>", 1)[0]
    heads = [_text(cell) for cell in re.findall(r"<th.*?</th>", body, flags=re.S)]
    column = heads.index("Decided by")
    rows = re.findall(r"<tr.*?</tr>", body.split("<tbody", 1)[1], flags=re.S)
    return [_text(re.findall(r"<td.*?</td>", row, flags=re.S)[column]) for row in rows]


def test_a_championships_final_ranking_says_what_set_each_row_apart_in_every_output(client):
    """Each row is set apart from the one above by the ranking's own keys (the stage
    reached, the place at the table, the total), or by the tie-break at the final table;
    never by what decided the player's row in the first stage's ranking."""
    event = championship_with_a_close_final()
    event_publish(event=event, published=True)
    rows = event_standings(event=event).rows
    assert [row.stage for row in rows] == [2, 2, 2, 1, 1, 1, 1, 1, 1]
    expected = [None, "last_deal", "total", "stage", None, None, None, None, "total"]
    assert [row.decided_by for row in rows] == expected

    feed = json.loads(
        client.get(reverse("event_standings_feed", args=[event.club.slug, event.pk])).content
    )["standings"]
    assert [p["decided_by"] for p in feed["players"]] == expected
    # The ranking's own keys go without saying, as the total does: only a tie-break is named.
    words = ["", "last deal", "", "", "", "", "", "", ""]
    assert _page_decided_by(client, event) == words
    header, csv_rows = _csv_rows(client, event)
    assert [row[header.index("Decided by")] for row in csv_rows] == words
    xlsx_header, xlsx = _xlsx_rows(client, event)
    assert [row[xlsx_header.index("Decided by")] or "" for row in xlsx] == words
    # The printed standings: each row's line ends with its words, or with its table.
    lines = _pdf_lines(event)
    printed = [
        next(line for line in lines if line.startswith(f"{row.place_label} {row.player}"))
        for row in rows
    ]
    assert ["last deal" if line.endswith(" last deal") else "" for line in printed] == words
    assert not any(line.endswith((" director", " total", " stage")) for line in printed)


def test_a_shared_place_is_marked_on_the_record_and_in_its_download(client):
    """Level on everything and no tie-break recorded, two players share first at their
    table: the record says "=1/3" as the pages say "=1", its download says so in words, and
    neither has won the table (the table has no winner until the director settles it)."""
    _event, stage, _director = championship(9)
    tables = list(stage.tables.order_by("number"))
    play_championship(tables[0], tied_scheme(3))
    a, b, _c = seated(tables[0])
    (sheet,) = [s for s in stage_sheets(stage=stage) if s.table.pk == tables[0].pk]
    assert sheet.winner is None
    for player_id in (a, b):
        player = Player.objects.get(pk=player_id)
        record = player_record(player=player)
        assert sum(g.firsts for g in record.games) == 0
        page = client.get(reverse("player_record", args=[player.club.slug, player.pk]))
        # The table beneath the event says it: "Table 1: =1/3, …".
        assert "Table 1: =1/3," in page.content.decode()
        url = reverse("player_record_export", args=[player.club.slug, player.pk, "csv"])
        header, *rows = list(csv.reader(io.StringIO(client.get(url).content.decode("utf-8-sig"))))
        assert [row[header.index("Shared place")] for row in rows] == ["yes"]


class _FormPage(HTMLParser):
    """The new-event page's form as a browser sees it: each control's name, value and id,
    the group title it sits under (a format's section) and each label's words."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[dict] = []  # name, value, id, group, posted
        self.labels: dict[str, str] = {}  # a control's id -> its label's words
        self.ids: list[str] = []
        self._group = ""
        self._in_group_title = False
        self._label_for: str | None = None
        self._select: dict | None = None
        self._option: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "h2" and "group-title" in (attrs.get("class") or ""):
            self._in_group_title, self._group = True, ""
        elif tag == "label" and attrs.get("for"):
            self._label_for = attrs["for"]
            self.labels[self._label_for] = ""
        elif tag == "input" and attrs.get("name"):
            kind = attrs.get("type", "text")
            posted = kind not in ("checkbox", "radio") or "checked" in attrs
            value = attrs.get("value", "on" if kind in ("checkbox", "radio") else "")
            self.controls.append(
                {"name": attrs["name"], "value": value, "id": attrs.get("id"),
                 "group": self._group, "posted": posted}
            )  # fmt: skip
        elif tag == "select" and attrs.get("name"):
            self._select = {"name": attrs["name"], "value": None, "id": attrs.get("id"),
                            "group": self._group, "posted": True}  # fmt: skip
            self.controls.append(self._select)
        elif (
            tag == "option"
            and self._select is not None
            and (self._select["value"] is None or "selected" in attrs)
        ):
            self._select["value"] = attrs.get("value", "")  # the first, or the selected

    def handle_endtag(self, tag):
        if tag == "h2":
            self._in_group_title = False
        elif tag == "label":
            self._label_for = None
        elif tag == "select":
            self._select = None
        elif tag == "fieldset":
            self._group = ""

    def handle_data(self, data):
        if self._in_group_title:
            self._group += data.strip()
        if self._label_for is not None:
            self.labels[self._label_for] += data

    def control(self, group: str, label: str) -> dict:
        (found,) = [
            c for c in self.controls
            if c["group"].endswith(group) and label in self.labels.get(c["id"], "")
        ]  # fmt: skip
        return found


def _create_through_the_page(client, club, format: str, section: str, bye: dict) -> Event:
    """Fill the new-event page as a director does: every control as shown, the format
    chosen, and in `section` (the format's own group) the bye's settings typed."""
    url = reverse("event_new", args=[club.slug]) + "?game=gin_romi"
    page = _FormPage()
    page.feed(client.get(url).content.decode().split('id="event-form"', 1)[1])
    duplicates = {name for name in page.ids if page.ids.count(name) > 1}
    assert not duplicates, duplicates  # each control has an id of its own
    page.control(section, "Settlement points for a bye")["value"] = str(bye["bye_points"])
    page.control(section, "A bye counts as")["value"] = str(bye["bye_wins"])
    post = QueryDict(mutable=True)
    (chosen,) = [control for control in page.controls if control["name"] == "format"]
    chosen["value"] = format
    for control in page.controls:
        if control["posted"]:
            post.appendlist(control["name"], control["value"])
    post.update({"name": f"Gin {format}", "date": "2026-12-05"})
    response = client.post(url, post)
    assert response.status_code == 302, response.context["form"].errors
    return Event.objects.get(club=club, name=f"Gin {format}")


@pytest.mark.parametrize(
    ("format", "section"),
    [
        (EventFormat.ROUND_ROBIN, "round robin"),
        (EventFormat.SWISS, "Swiss"),
    ],
)
def test_a_paired_formats_bye_settings_round_trip_through_the_new_event_form(
    client, format, section
):
    """The page shows the round robin's and the Swiss's bye fields at once: what is typed
    in the chosen format's section is what the event keeps, shows and scores, whatever the
    other section holds (the Swiss's untouched 0 once overwrote a round robin's 50)."""
    club = ClubFactory()
    client.force_login(MembershipFactory(club=club, role=Role.DIRECTOR).user)
    bye = {"bye_wins": 0, "bye_points": 50}
    event = _create_through_the_page(client, club, format, section, bye)
    assert event.format == format
    assert {key: event.format_options[key] for key in bye} == bye
    manage = client.get(reverse("event_manage", args=[club.slug, event.pk])).content.decode()
    assert "0 wins, 50 points" in unescape(manage)
    # Played: three players, one sits out round 1 and is credited what was typed.
    for index in range(3):
        player = Player.objects.create(club=club, name=f"Bye {index + 1}")
        registration_add(event=event, player=player, checked_in=True)
    stage = pair_and_confirm(event, seed=1)
    (table,) = stage.tables.all()
    (sat_out,) = {r.player_id for r in event.registrations.all()} - set(pairs_of(stage)[0])
    play_match(table, pairs_of(stage)[0][0])
    row = next(r for r in event_standings(event=event).rows if r.player_id == sat_out)
    assert (row.wins, row.total) == (0, 50)
