"""The notice-board sheets (issue 12): standings, seating list, league table and
championship bracket as PDFs, in each language, with the names, places and totals they
should hold; private events not found; and a PNG of each under tests/artifacts/."""

from __future__ import annotations

import datetime
import io
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, override
from pypdf import PdfReader

from demo.loader import DEMO_NIGHTS
from formats.championship import championship_bracket, championship_stage_close
from leagues.services import season_league, season_league_scheme_set
from leagues.tables import scheme_text
from printing import boards as print_boards
from printing.board_views import league_pdf
from printing.boards import (
    bracket_file,
    css_text,
    league_file,
    name_key,
    seating_file,
    standings_file,
)
from scoring.selectors import event_sheets
from scoring.services import Actor, deal_confirm, deal_record
from standings.selectors import event_ranking
from standings.standings import event_standings
from tests.support.championship import championship, play, winner_scheme
from tests.support.events import new_request_id
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.leagues import night, players_of, season_of
from tests.support.printing import LONG_NAMES, explained_championship, long_named
from tests.support.sheets import overlapping_words
from tournaments.changes import results_change
from tournaments.engine.league import LeagueScheme
from tournaments.models import Player, Role
from tournaments.services import event_create, registration_add, stage_confirm, stage_draw

pytestmark = pytest.mark.django_db

LANGUAGES = ("fi", "hu", "en")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
# Accents and letters the shipped fonts must carry, as the clubs' players are named.
NAMES = [
    "Kőrösi Ágnes", "Äijälä Väinö", "Szűcs Ödön", "Mäkelä Sirpa", "Öberg Åsa", "Nagy Lőrinc",
    "Heikkinen Jörö", "Tóth Zsófia", "Lindqvist Ulla", "Bíró Gyula", "Rönkkö Tapio",
    "Varga Éva", "Kettunen Aino", "Horváth Bence", "Pöllänen Iiro", "Fehér Dóra",
]  # fmt: skip
# Each game as the demo plays it: (variant, players, table size, table 1's deals).
SIZES = {"rutupeli": (8, 4), "ravaytys": (10, 5), "gin_romi": (4, 2), "tizlapos_romi": (8, 4)}
GAMES = {
    variant: (variant, *SIZES[variant], deals) for _name, variant, _count, deals, _t2 in DEMO_NIGHTS
}
TITLES = {
    "rutupeli": "Rutupeli",
    "ravaytys": "Räväytys",
    "gin_romi": "Gin Römi",
    "tizlapos_romi": "Tízlapos Römi",
}
DATES = {"fi": "28. marraskuuta 2026", "hu": "2026. november 28.", "en": "28 Nov 2026"}


def _night(variant: str, *, club=None, published: bool = True):
    """A seated event of `variant` whose table 1 has played the demo's deals."""
    variant, players, size, deals = GAMES[variant]
    club = club or ClubFactory(language="hu")
    event = event_create(
        club=club,
        name=f"{TITLES[variant]} – Őszi kupa",
        date=datetime.date(2026, 11, 28),
        variant_id=variant,
        preferred_table_size=size,
        published=published,
    )
    for name in NAMES[:players]:
        registration_add(
            event=event, player=Player.objects.create(club=club, name=name), checked_in=True
        )
    stage = stage_draw(event=event, seed=7)
    stage_confirm(stage=stage)
    tables = list(stage.tables.order_by("number"))
    _enter(tables[0], deals)
    return event, stage, tables


def _enter(table, entries) -> None:
    """The deals entered from seat 1's phone and confirmed from seat 2's, as at a table."""
    for number, entry in enumerate(entries, start=1):
        deal = deal_record(
            table=table, number=number, entry=entry, by=Actor(device="a", seat=0),
            expected_version=0, request_id=new_request_id(),
        )  # fmt: skip
        deal_confirm(
            deal=deal, by=Actor(device="b", seat=1), expected_version=deal.version,
            request_id=new_request_id(),
        )  # fmt: skip


def _text(pdf: bytes) -> list[str]:
    """Each page's text."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def _lines(pdf: bytes) -> list[str]:
    return [line for page in _text(pdf) for line in page.splitlines()]


def _artifact(pdf: bytes, name: str) -> Path:
    """The sheet's first page as tests/artifacts/`name`.png, for a person to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    assert shutil.which("pdftoppm"), "pdftoppm (poppler-utils) is needed for the artifacts"
    source = ARTIFACTS / f"{name}.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", "80", "-png", "-singlefile", str(source), str(ARTIFACTS / name)],
        check=True,
    )
    png = ARTIFACTS / f"{name}.png"
    assert png.stat().st_size > 5000
    return png


# -- standings ----------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", sorted(GAMES))
def test_the_standings_hold_every_players_place_and_total(variant, language):
    event, _stage, _tables = _night(variant)
    ranking = event_ranking(event=event, sheets=event_sheets(event=event))
    file = standings_file(event=event, language=language)
    assert file.mime == "application/pdf" and file.filename.endswith(
        f"-standings-a4-{language}.pdf"
    )
    lines = _lines(file.content)
    text = "\n".join(lines)
    assert event.name in text and DATES[language] in text
    for row in ranking:
        # One line per player: the place, the name, the table and the total.
        (line,) = [line for line in lines if row.player in line]
        assert line.startswith(f"{row.place_label} {row.player}")
        assert str(row.total) in line.split(row.player, 1)[1]
    # The places and totals are not all alike: the deals the table played show.
    assert len({row.total for row in ranking}) > 1
    if language == "hu" and variant == "rutupeli":
        _artifact(file.content, "print-standings")


def test_unconfirmed_deals_are_marked_or_left_out_as_the_club_says():
    event, _stage, tables = _night("rutupeli")
    tables[0].deals.filter(number=3).update(status="submitted")
    marked = "\n".join(_text(standings_file(event=event, language="en").content))
    assert "* includes deals not yet confirmed at the table" in marked
    event.club.public_confirmed_only = True
    event.club.save()
    confirmed = event_ranking(event=event, sheets=event_sheets(event=event, confirmed_only=True))
    text = "\n".join(_text(standings_file(event=event, language="en").content))
    assert "* includes" not in text
    assert "Only deals confirmed at the table are counted here." in text
    for row in confirmed:
        assert f"{row.place_label} {row.player}" in text


def test_a_thousand_player_standings_take_the_queries_of_a_hundred_and_repeat_the_header(
    django_assert_max_num_queries,
):
    counts, seconds = {}, {}
    for players in (100, 1000):
        club = ClubFactory(language="en")
        event = event_create(
            club=club,
            name=f"Big night {players}",
            date=datetime.date(2026, 11, 28),
            variant_id="rutupeli",
            preferred_table_size=4,
            published=True,
        )
        people = Player.objects.bulk_create(
            [Player(club=club, name=f"Player {index + 1:04d}") for index in range(players)]
        )
        for player in people:
            registration_add(event=event, player=player, checked_in=True)
        stage = stage_draw(event=event, seed=3)
        stage_confirm(stage=stage)
        for table in stage.tables.order_by("number")[:5]:
            play(table, winner_scheme(table.seats.count()), upto=3)
        event.refresh_from_db()
        started = time.perf_counter()
        with django_assert_max_num_queries(12) as captured:
            file = standings_file(event=event, language="en")
        seconds[players] = time.perf_counter() - started
        counts[players] = len(captured.captured_queries)
        pages = _text(file.content)
        shown = re.findall(r"Player \d{4}", "\n".join(pages))
        assert sorted(shown) == sorted(player.name for player in people)
        # Every page repeats the table's header.
        header = "# Player Total Per deal Table Deals"
        assert len(pages) > 1 and all(header in page for page in pages)
    assert counts[100] == counts[1000]
    print(f"standings render: 100 players {seconds[100]:.2f} s, 1000 {seconds[1000]:.2f} s")


def test_the_paper_is_a4_unless_letter_is_asked_for():
    event, _stage, _tables = _night("rutupeli")
    a4 = PdfReader(io.BytesIO(standings_file(event=event, language="en").content))
    assert [round(float(v)) for v in a4.pages[0].mediabox[2:]] == [595, 842]
    letter = standings_file(event=event, language="en", size="Letter").content
    page = PdfReader(io.BytesIO(letter)).pages[0]
    assert [round(float(v)) for v in page.mediabox[2:]] == [612, 792]


# -- seating list -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("variant", sorted(GAMES))
def test_the_seating_list_says_who_sits_where_a_section_a_page(variant, language):
    _event, stage, tables = _night(variant)
    file = seating_file(stage=stage, language=language, per_page=1)
    pages = _text(file.content)
    # One page per hall section (here a table each), then the list by name.
    assert len(pages) == len(tables) + 1
    with override(language):
        table_label, deals_first = gettext("Table %(number)s"), "♠ " + gettext("deals first")
    # The ♠ beside the first dealer's name, the words in the page's key.
    everyone = []
    for table, page in zip(tables, pages, strict=False):
        lines = page.splitlines()
        seats = list(table.seats.select_related("player").order_by("position"))
        at = lines.index(table_label % {"number": table.number})  # "Table 1", "1. asztal"
        shown = [line for line in lines[at + 1 :] if line[:1].isdigit()]
        # Every seat in seat order, the first dealer marked beside their name.
        assert shown == [
            f"{seat.position + 1} {seat.player.name}" + (" ♠" if seat.is_first_dealer else "")
            for seat in seats
        ]
        assert sum(seat.is_first_dealer for seat in seats) == 1 and deals_first in page
        everyone += [(seat.player.name, table.number, seat.position + 1) for seat in seats]
    names = {name for name, _t, _s in everyone}
    listed = [line for line in pages[-1].splitlines() if line.rsplit(" ", 3)[0] in names]
    by_name = sorted(everyone, key=lambda item: name_key(item[0], language))
    # Alphabetical in the language's own order, each with their table / seat.
    assert listed == [f"{name} {number} / {seat}" for name, number, seat in by_name]
    if language == "fi" and variant == "rutupeli":
        _artifact(file.content, "print-seating-table")


def test_a_hall_section_holds_eight_tables_by_default():
    club = ClubFactory(language="fi")
    event = event_create(
        club=club,
        name="Syyskisat",
        date=datetime.date(2026, 11, 28),
        variant_id="rutupeli",
        preferred_table_size=4,
        published=True,
    )
    for index in range(72):
        name = NAMES[index % len(NAMES)] + f" {index // len(NAMES) + 1}"
        registration_add(
            event=event, player=Player.objects.create(club=club, name=name), checked_in=True
        )
    stage = stage_draw(event=event, seed=5)
    stage_confirm(stage=stage)
    file = seating_file(stage=stage, language="fi")
    pages = _text(file.content)
    # 18 tables of four: sections of 8, 8 and 2, then the 72 names on one page.
    assert len(pages) == 4
    with override("fi"):
        word = gettext("Table")
    for page, numbers in zip(pages, ([*range(1, 9)], [*range(9, 17)], [17, 18]), strict=False):
        first, last = numbers[0], numbers[-1]
        assert f"{first}–{last}" in page.splitlines()[1]
        shown = [int(line.split()[1]) for line in page.splitlines() if line.startswith(word + " ")]
        assert shown == numbers
    assert pages[3].count(" / ") == 72 + 2  # and the key's "table / seat", the page number
    letter = seating_file(stage=stage, language="fi", size="Letter")
    assert len(_text(letter.content)) == 4  # the sections fit the shorter paper too
    _artifact(file.content, "print-seating")


# -- league table -------------------------------------------------------------------------------


def _season():
    club = ClubFactory(language="fi")
    season = season_of(club)
    season.league_scheme = {"kind": "placement", "points": [10, 7, 5, 3, 1], "best_n": 2}
    season.save()
    anna, bela, cili, dani, emil = players_of(
        club, "Kőrösi Anna", "Béla Äijälä", "Cili Szűcs", "Dani Mäkelä", "Emil Öberg"
    )
    night(season, [anna, bela, cili, dani], day=1)
    night(season, [bela, anna, dani, cili], day=8)
    night(season, [anna, cili, bela, dani], day=15)
    night(season, [emil, anna, bela, cili], day=22, published=False, name="Private night")
    return season


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_league_table_holds_places_points_and_dropped_results(language):
    season = _season()
    league = season_league(season=season)
    file = league_file(season=season, language=language)
    text = "\n".join(_text(file.content))
    lines = _lines(file.content)
    assert season.name in text
    for row in league.rows:
        (line,) = [line for line in lines if line.startswith(f"{row.place_label} {row.name}")]
        points = line.split(row.name, 1)[1].split()
        assert points[0] == str(int(row.points)) and points[1:3] == [
            str(row.events),
            str(row.counted_events),
        ]
    # The private night is in no league table, nor its only player.
    assert "Private night" not in text and "Emil Öberg" not in text
    # Best 2 of 3 count: a dropped result is struck through (drawn as a line).
    assert any(not cell.counted for row in league.rows for cell in row.cells if cell)
    assert "Night 1" in text and "Night 15" in text
    if language == "fi":
        _artifact(file.content, "print-league")


# -- championship bracket -----------------------------------------------------------------------


def _finished_championship():
    event, stage, director = championship(9)
    for table in stage.tables.all():
        play(table, winner_scheme(3, winner=table.number % 3))
    final = championship_stage_close(stage=stage, by=director, seed=5)
    stage_confirm(stage=final)
    (table,) = final.tables.all()
    play(table, winner_scheme(3, winner=1))
    championship_stage_close(stage=final, by=director)
    event.refresh_from_db()
    return event


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bracket_shows_each_stage_who_went_on_and_the_champion(language):
    event = _finished_championship()
    bracket = championship_bracket(event=event)
    assert bracket.champion
    file = bracket_file(event=event, language=language)
    reader = PdfReader(io.BytesIO(file.content))
    width, height = (float(v) for v in reader.pages[0].mediabox[2:])
    assert width > height  # two stages side by side: across the paper
    text = "\n".join(_text(file.content))
    lines = text.splitlines()
    with override(language):
        final = gettext("Stage %(number)s: the final") % {"number": 2}
        goes_on, champion = gettext("goes on"), gettext("champion")
    assert final in text
    assert f"♠ ♥ {bracket.champion} ♦ ♣" in lines
    for stage in bracket.stages:
        for table in stage.tables:
            for seat in table.seats:
                # Each seat on a line of its own: the name, what it went on to, the total.
                tag = f" ♠ {champion}" if seat.champion else f" {goes_on}" if seat.advances else ""
                mark = "▶ " if seat.advances else ""
                assert f"{mark}{seat.name}{tag} {seat.total}" in lines
    assert (
        sum(seat.advances for stage in bracket.stages for t in stage.tables for seat in t.seats)
        == 4
    )
    for row in bracket.ranking:
        # The place, the name, the stage reached, then the total there.
        assert any(line.startswith(f"{row.label} {row.name} {row.stage} ") for line in lines)
    if language == "en":
        _artifact(file.content, "print-bracket")


# -- the addresses ------------------------------------------------------------------------------


def test_the_addresses_answer_pdfs_in_the_language_and_paper_asked_for(client):
    event, stage, _tables = _night("rutupeli")
    slug = event.club.slug
    url = reverse("print_standings", args=[slug, event.pk])
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Language"] == "hu"  # the club's language
    assert DATES["hu"] in "\n".join(_text(response.content))
    response = client.get(url, {"lang": "fi", "paper": "Letter"})
    assert DATES["fi"] in "\n".join(_text(response.content))
    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert [round(float(v)) for v in page.mediabox[2:]] == [612, 792]
    assert client.get(url, {"lang": "de"}).status_code == 404
    assert client.get(url, {"stage": 1}).status_code == 200
    assert client.get(url, {"stage": 2}).status_code == 404
    seating = reverse("print_seating", args=[slug, event.pk, stage.number])
    response = client.get(seating, {"per_page": 4})
    assert response.status_code == 200 and NAMES[0] in "\n".join(_text(response.content))
    assert client.get(reverse("print_seating", args=[slug, event.pk, 9])).status_code == 404
    # A club night has no bracket.
    assert client.get(reverse("print_bracket", args=[slug, event.pk])).status_code == 404


def _download_name(response) -> str:
    match = re.fullmatch(r'inline; filename="([^"]+)"', response["Content-Disposition"])
    assert match, response["Content-Disposition"]
    return match[1]


def test_every_round_print_downloads_under_a_name_with_its_paper_and_language(client):
    """A round's standings, its seating and a table's sheets printed in Finnish on A4 and
    in English on Letter are files of different names that say which is which: one name
    for both, the second download overwrote the first in the director's folder."""
    event, stage, tables = _night("rutupeli")
    slug, table = event.club.slug, (event.club.slug, event.pk, tables[0].pk)
    urls = {
        "standings": reverse("print_standings", args=[slug, event.pk]) + f"?stage={stage.number}",
        "seating": reverse("print_seating", args=[slug, event.pk, stage.number]) + "?",
        "sheet": reverse("print_table_sheet", args=table) + "?",
        "result": reverse("print_table_result", args=table) + "?",
    }
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    names = {}
    for kind, url in urls.items():
        for language, paper in (("fi", "A4"), ("en", "Letter")):
            response = client.get(f"{url}&lang={language}&paper={paper}")
            assert response.status_code == 200, (kind, response.status_code)
            names[kind, language] = _download_name(response)
            assert names[kind, language].endswith(f"-{paper.lower()}-{language}.pdf")
    assert len(set(names.values())) == len(names), names
    assert names["seating", "fi"] == f"{slug}-{event.pk}-stage-1-seating-a4-fi.pdf"


def test_a_private_events_sheets_are_not_found_but_for_its_directors(client):
    event, stage, _tables = _night("rutupeli", published=False)
    slug = event.club.slug
    urls = [
        reverse("print_standings", args=[slug, event.pk]),
        reverse("print_seating", args=[slug, event.pk, stage.number]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(MembershipFactory(club=event.club, role=Role.MEMBER).user)
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    for url in urls:
        assert client.get(url).status_code == 200


def test_the_bracket_address(client):
    event = _finished_championship()
    response = client.get(reverse("print_bracket", args=[event.club.slug, event.pk]))
    assert response.status_code == 200
    assert championship_bracket(event=event).champion in "\n".join(_text(response.content))


def test_the_league_sheet_view(rf):
    season = _season()
    request = rf.get("/", {"lang": "en", "paper": "Letter"})
    response = league_pdf(request, season.club.slug, season.pk)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Language"] == "en"
    assert "Kőrösi Anna" in "\n".join(_text(response.content))
    with pytest.raises(Http404):
        league_pdf(rf.get("/"), season.club.slug, season.pk + 1)
    with pytest.raises(Http404):
        league_pdf(rf.get("/", {"paper": "A3"}), season.club.slug, season.pk)


def test_the_league_address(client):
    season = _season()
    response = client.get(reverse("print_league", args=[season.club.slug, season.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


def test_the_footer_text_cannot_leave_its_css_string():
    assert css_text('A "club"', "</style><b>", "x\\y") == (
        "A \\22 club\\22  · \\3c /style\\3e \\3c b\\3e  · x\\5c y"
    )


def test_the_season_page_links_its_printed_table(client):
    season = _season()
    page = client.get(reverse("season_league", args=[season.club.slug, season.pk]))
    address = reverse("print_league", args=[season.club.slug, season.pk])
    assert f'href="{address}?lang=' in page.content.decode()


def test_standings_are_made_once_per_state_of_the_results(client, monkeypatch):
    # A hall asking for a big event's standings at once gets the one file WeasyPrint made;
    # a new result makes a new one at once.
    event, _stage, _tables = _night("rutupeli")
    made = []
    real = print_boards.standings_file

    def counted(**kwargs):
        made.append(kwargs["language"])
        return real(**kwargs)

    monkeypatch.setattr(print_boards, "standings_file", counted)
    address = reverse("print_standings", args=[event.club.slug, event.pk])
    first = client.get(address, {"lang": "fi"}).content
    assert client.get(address, {"lang": "fi"}).content == first
    assert made == ["fi"]
    client.get(address, {"lang": "en"})
    assert made == ["fi", "en"]  # each language its own file
    results_change(event_id=event.pk, reason="deal_saved")
    client.get(address, {"lang": "fi"})
    assert made == ["fi", "en", "fi"]


# -- issue 23: what the bracket and the league table must say, and that they fit -----------------

PAPERS = ("A4", "Letter")


def _pages(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


def _flat(pdf: bytes) -> list[str]:
    # A no-break space keeps "▶" with its name; read as a plain space.
    return [line.replace("\xa0", " ") for line in _lines(pdf)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bracket_says_what_decided_a_level_result(language):
    event = explained_championship()
    bracket = championship_bracket(event=event)
    lines = _flat(bracket_file(event=event, language=language).content)
    text = "\n".join(lines)
    with override(language):
        card_draw = gettext("card draw")
        last_deal = f"{gettext('Decided by')}: {gettext('last deal')}"
        legend = gettext("Decided by: the tie-break that separated players level on points.")
    # The card draw names both players it ordered; the last deal the one it put below.
    assert text.count(f"({card_draw})") == 2
    (second,) = [
        seat for seat in bracket.stages[0].tables[1].seats if seat.decided_by == "last_deal"
    ]
    (above,) = [seat for seat in bracket.stages[0].tables[1].seats if seat.advances]
    assert second.total == above.total == 50
    at = next(index for index, line in enumerate(lines) if second.name in line)
    assert last_deal in " ".join(lines[at : at + 2])
    assert text.count(last_deal) == 1
    assert legend in text.replace("\n", " ")


# Names whose first word is long, as Hungarian and Finnish ones are: in a third of the paper
# the first word does not fit after the marker.
GRID_NAMES = [
    "Szentgyörgyvölgyi Ágnes", "Kőrösiné Szabó Ágnes", "Äijälä-Heikkinen Väinö",
    "Magyarországi-Tóth Ödön", "Heikkinen-Pöllänen Jörö", "Kiskunfélegyházi Lőrinc",
    "Lindqvist Ulla-Maija",
]  # fmt: skip


def _grid_championship(players: int = 21):
    """21 players at seven tables (a stage too wide for columns: three cards to a row, down
    the page), stage 1 closed, the second stage seated."""
    event, stage, director = championship(players)
    for index, player in enumerate(Player.objects.filter(club=event.club).order_by("pk")):
        player.name = f"{GRID_NAMES[index % len(GRID_NAMES)]} {index}"
        player.save(update_fields=["name"])
    for table in stage.tables.all():
        seats = table.seats.count()
        play(table, winner_scheme(seats, winner=table.number % seats))
    stage_confirm(stage=championship_stage_close(stage=stage, by=director, seed=5))
    event.refresh_from_db()
    return event


def _marked(lines: list[str], language: str) -> list[str]:
    with override(language):
        legend = gettext("▶ In bold: the players who went on.")
    return [line for line in lines if "▶" in line and line not in legend]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bracket_keeps_the_marker_with_the_name(language):
    event = _grid_championship()
    bracket = championship_bracket(event=event)
    assert len(bracket.stages[0].tables) == 7
    lines = _flat(bracket_file(event=event, language=language).content)
    going = [s.name for t in bracket.stages[0].tables for s in t.seats if s.advances]
    marked = _marked(lines, language)
    # "▶" never on a line of its own: on the line of its player's name (its first word).
    assert len(marked) == len(going) == 7
    for name in going:
        first = name.split()[0].split("-")[0]
        assert any(f"▶ {first}" in line for line in marked), name


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_final_ranking_has_the_totals(language):
    event = explained_championship()
    bracket = championship_bracket(event=event)
    lines = _flat(bracket_file(event=event, language=language).content)
    assert len(_marked(lines, language)) == 4
    # The final ranking: place, name, stage reached and the total there, as the standings.
    standings = event_standings(event=event)
    total = {row.player_id: row.total for row in standings.rows}
    assert len(bracket.ranking) == 9
    for row in bracket.ranking:
        assert f"{row.label} {row.name} {row.stage} {total[row.player]}" in lines


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bracket_marks_totals_not_yet_confirmed(language):
    event, stage, director = championship(9)
    long_named(event)
    for table in stage.tables.all():
        play(table, winner_scheme(3, winner=table.number % 3))
    final = championship_stage_close(stage=stage, by=director, seed=5)
    stage_confirm(stage=final)
    play(final.tables.get(), winner_scheme(3, winner=1), confirmed=False, upto=3)
    bracket = championship_bracket(event=event)
    pdf = bracket_file(event=event, language=language).content
    lines = _flat(pdf)
    with override(language):
        legend = gettext("* includes deals not yet confirmed at the table")
    if language == "hu":
        _artifact(pdf, "print-bracket-unconfirmed-hu")
    (table,) = bracket.stages[-1].tables
    for seat in table.seats:
        assert seat.unconfirmed
        assert any(seat.name in line and line.endswith(f" {seat.total}*") for line in lines)
    # The closed stage's totals are confirmed: no mark.
    assert not any(
        line.endswith("*")
        for line in lines
        for s in bracket.stages[0].tables
        for seat in s.seats
        if seat.name in line and not seat.advances
    )
    assert legend in "\n".join(lines).replace("\n", " ")


def test_the_public_bracket_says_what_the_printed_one_does(client):
    """One bracket object, two outputs: the event's page marks the same unconfirmed totals
    and names the same deciding tie-break as the PDF."""

    def page_text(event) -> str:
        page = client.get(reverse("event_public", args=[event.club.slug, event.pk]))
        return " ".join(page.content.decode().split())

    assert "Decided by: last deal" in page_text(explained_championship())
    event, stage, director = championship(9)
    for table in stage.tables.all():
        play(table, winner_scheme(3, winner=table.number % 3))
    final = championship_stage_close(stage=stage, by=director, seed=5)
    stage_confirm(stage=final)
    play(final.tables.get(), winner_scheme(3, winner=1), confirmed=False, upto=3)
    text = page_text(event)
    for seat in championship_bracket(event=event).stages[-1].tables[0].seats:
        assert seat.unconfirmed
        assert f"{seat.name} {seat.total}*" in text
    assert "* includes deals not yet confirmed at the table" in text


def _league_with_history(monkeypatch):
    season = _season()
    club = season.club
    director = MembershipFactory(club=club, role=Role.DIRECTOR).user
    for name, new in zip(("Kőrösi Anna", "Béla Äijälä"), LONG_NAMES[:2], strict=True):
        Player.objects.filter(club=club, name=name).update(name=new)
    season_league_scheme_set(
        season=season,
        scheme=LeagueScheme(points=(12, 8, 5, 3, 1), best_n=2),
        by=director,
        note="Vote of 3 Nov",
    )
    # Recomputed at 21:51 UTC: 23:51 in Helsinki (the site's time zone) on 28 November.
    moment = datetime.datetime(2026, 11, 28, 21, 51, tzinfo=datetime.UTC)
    monkeypatch.setattr("leagues.selectors.timezone.now", lambda: moment)
    return season, moment


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_league_table_prints_local_time_the_scheme_history_and_whole_names(
    language, monkeypatch, client
):
    season, moment = _league_with_history(monkeypatch)
    lines = _flat(league_file(season=season, language=language).content)
    text = "\n".join(lines)
    with override(language):
        local = date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")
        utc = date_format(moment, "SHORT_DATETIME_FORMAT")
        heading = gettext("Changes of the scheme")
        old = scheme_text({"kind": "placement", "points": [10, 7, 5, 3, 1], "best_n": 2})
        new = scheme_text(LeagueScheme(points=(12, 8, 5, 3, 1), best_n=2).to_dict())
    assert local != utc and local in text and utc not in text
    # As the season's page says it (in the club's language).
    page = client.get(reverse("season_league", args=[season.club.slug, season.pk]))
    with override(season.club.language):
        shown = date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")
    assert shown in page.content.decode()
    flat = " ".join(lines)
    assert heading in lines and "Vote of 3 Nov" in flat
    assert f"{old} → {new}" in flat
    # Every name whole on its row's line, the points after it.
    league = season_league(season=season)
    for row in league.rows:
        assert any(line.startswith(f"{row.place_label} {row.name} ") for line in lines), row.name


def _fit_league(monkeypatch):
    season, _moment = _league_with_history(monkeypatch)
    return season


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bracket_and_league_fit_their_pages_with_no_words_over_each_other(
    language, paper, monkeypatch
):
    event = explained_championship()
    bracket = bracket_file(event=event, language=language, size=paper).content
    # Two stages side by side and the champion on the first page, the final ranking of
    # nine on the second.
    assert _pages(bracket) == 2
    assert overlapping_words(bracket) == []
    # Seven tables down the page and the next stage's two: one page.
    grid = bracket_file(event=_grid_championship(), language=language, size=paper).content
    assert _pages(grid) == 1
    assert overlapping_words(grid) == []
    season = _fit_league(monkeypatch)
    league = league_file(season=season, language=language, size=paper).content
    # Five players, three nights, one scheme change: one page, a line a player.
    assert _pages(league) == 1
    assert overlapping_words(league) == []
    lines = _flat(league)
    for row in season_league(season=season).rows:
        assert any(line.startswith(f"{row.place_label} {row.name} ") for line in lines)
    if paper == "A4":
        _artifact(bracket, f"print-bracket-{language}")
        _artifact(grid, f"print-bracket-grid-{language}")
        _artifact(league, f"print-league-{language}")


def test_the_bracket_takes_the_same_queries_for_three_tables_as_for_seven(
    django_assert_max_num_queries,
):
    counts = []
    # Two championships in one state (stage 1 closed, stage 2 seated: its no-shows are
    # read too), at three tables and at seven.
    for players in (9, 21):
        event = _grid_championship(players)
        with django_assert_max_num_queries(10) as captured:
            bracket_file(event=event, language="en")
        counts.append(len(captured.captured_queries))
    # Both of two stages; the first closed with its tie-breaks read once for all its tables.
    assert counts[0] == counts[1]
    # A finished one reads no no-shows (nobody can be one any more).
    finished = explained_championship()
    with django_assert_max_num_queries(counts[0]):
        bracket_file(event=finished, language="en")
