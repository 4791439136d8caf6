"""Printed table sheets (issue 12): the blank score sheet and the filled result sheet for
every game and language, their text, their QR code, their page breaks, their queries and
the director's downloads. PNGs of each kind go to tests/artifacts/ for a person to look at."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
import zxingcpp
from django.conf import settings
from django.urls import reverse
from PIL import Image
from pypdf import PdfReader

from printing.sheets import table_sheet_file, table_sheets_document, table_sheets_pdf
from scoring.selectors import table_sheet
from tests.support.events import seated_event
from tests.support.factories import MembershipFactory
from tests.support.sheets import (
    LONGEST_NAMES,
    confirm,
    contract_entry,
    narrowest_write_in_cell,
    overlapping_words,
    pdf_text,
    png,
    record,
)
from tournaments.models import Role

pytestmark = pytest.mark.django_db

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
GAMES = ("rutupeli", "ravaytys", "gin_romi", "tizlapos_romi")
LANGUAGES = ("fi", "hu", "en")
PLAYERS = {"rutupeli": 4, "ravaytys": 4, "gin_romi": 2, "tizlapos_romi": 3}
# Words each language's sheet must hold (the translation is the helper's JSON until the
# lead compiles it, so the English word stands where no catalogue has it yet).
CONTRACTS = {"rutupeli": "2 sets", "ravaytys": "4 sets"}


def play(game: str, table) -> None:
    """Play `table` to its end, confirming every deal but the last."""
    seats = PLAYERS[game]
    deals = []
    if game in CONTRACTS:
        count = 7 if game == "rutupeli" else 8
        for number in range(1, count + 1):
            deals.append(record(table, number, contract_entry(number, seats)))
    elif game == "gin_romi":
        number = 0
        while not table_sheet(table=table).standing.finished:
            number += 1
            entry = {
                "ending": "romi" if number % 2 else "knock",
                "by": 0,
                "upper": "9H",
                "hands": None,
                "deadwood": [0, 50] if number % 2 else [3, 40],
            }
            deals.append(record(table, number, entry))
    else:
        # Seat 1 goes out at 110 and buys back in; seat 2 goes out; seat 1 again: seat 0
        # is the last one in.
        script = [
            [{"points": 60}, {"points": 40}],
            [{"points": 50}, {"points": 30}],
            [{"points": 20, "reenter": True}, {"points": 40}],
        ]
        number = 0
        while not table_sheet(table=table).standing.finished:
            lines = script[number] if number < len(script) else [{"points": 60}, {}]
            number += 1
            players = [{"cards": None, "points": None}] + [
                {"cards": None, "points": None, **line} for line in lines
            ]
            entry = {"winner": 0, "ending": "romi", "knock_card": None, "players": players}
            deals.append(record(table, number, entry))
            assert number < 12
    for deal in deals[:-1]:
        confirm(deal)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_blank_sheet_renders_with_players_contracts_and_qr(game, language):
    event, tables = seated_event(variant_id=game, players=PLAYERS[game])
    table = tables[0]
    printed = table_sheet_file(table=table, filled=False, language=language)
    assert printed.mime == "application/pdf"
    assert printed.filename == (
        f"{game.replace('_', '-')}-night-table-{table.number}-a4-{language}.pdf"
    )
    text = "\n".join(pdf_text(printed.content))
    for seat in table.seats.all():
        assert seat.player.name in text
    assert event.name in text
    if game in CONTRACTS and language == "en":
        assert CONTRACTS[game] in text
        cards = event.variant.cards_dealt
        assert f"{cards[2]} cards" in text
    if game == "gin_romi":
        assert "150" in text
    if game == "tizlapos_romi":
        assert "100" in text
    if language == "en":
        name = {"gin_romi": "Settlement", "tizlapos_romi": "Re-entries"}.get(game, "Buys")
        assert name in text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_result_sheet_holds_every_deal_totals_and_winner(game, language):
    _event, tables = seated_event(variant_id=game, players=PLAYERS[game])
    table = tables[0]
    play(game, table)
    sheet = table_sheet(table=table)
    assert sheet.standing.finished
    printed = table_sheet_file(table=table, filled=True, language=language)
    assert printed.filename.endswith(f"-result-{table.number}-a4-{language}.pdf")
    text = "\n".join(pdf_text(printed.content))
    winner = next(s for s in sheet.seats if s.position == sheet.standing.winner)
    for seat in sheet.seats:
        assert seat.player.name in text
        assert str(sheet.standing.totals[seat.position]) in text
    assert winner.player.name in text
    if language == "en":
        assert f"Winner: {winner.player.name}" in text
        confirmed = sum(1 for d in sheet.deals if d.is_confirmed)
        assert f"Deals confirmed: {confirmed} · not confirmed: 1" in text
        if game == "gin_romi":
            assert "9♥" in text and "9H" not in text  # the suit signs, in the shipped font


@pytest.mark.parametrize("game", GAMES)
def test_png_artifacts_and_the_qr_decodes_to_the_entry_address(game):
    _event, tables = seated_event(variant_id=game, players=PLAYERS[game])
    table = tables[0]
    blank = table_sheets_pdf(tables=[table], filled=False, language="en")
    image = png(blank, f"print-sheet-{game}", dpi=150)
    found = zxingcpp.read_barcodes(Image.open(image))
    assert [code.text for code in found] == [settings.SITE_URL + table.get_entry_url()]
    play(game, table)
    png(table_sheets_pdf(tables=[table], filled=True, language="en"), f"print-result-{game}")


def test_three_tables_each_on_their_own_pages():
    _event, tables = seated_event(variant_id="rutupeli", players=12)
    assert len(tables) == 3
    pdf = table_sheets_pdf(tables=tables, filled=False, language="en")
    pages = pdf_text(pdf)
    assert len(pages) >= 3
    seen = []
    for page in pages:
        here = {t.number for t in tables if any(s.player.name in page for s in t.seats.all())}
        assert len(here) <= 1, page  # no page holds two tables
        seen.extend(here)
    # Each table starts on a new page, in order, and none comes back once left.
    assert [n for i, n in enumerate(seen) if i == 0 or seen[i - 1] != n] == [1, 2, 3]


def test_letter_paper(settings):
    _event, tables = seated_event(variant_id="ravaytys", players=4)
    pdf = table_sheets_pdf(tables=tables, filled=False, language="fi", size="Letter")
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    a4 = PdfReader(io.BytesIO(table_sheets_pdf(tables=tables, filled=False, language="fi")))
    assert round(float(a4.pages[0].mediabox.height)) == 842


def test_queries_do_not_grow_with_tables(django_assert_max_num_queries):
    _event, few = seated_event(variant_id="rutupeli", players=8)
    _event, many = seated_event(variant_id="rutupeli", players=80)
    assert len(many) == 20
    for table in few + many:
        record(table, 1, contract_entry(1, table.seats.count()))
    with django_assert_max_num_queries(3):
        table_sheets_pdf(tables=few, filled=True, language="en")
    with django_assert_max_num_queries(3):
        table_sheets_pdf(tables=many, filled=True, language="en")


def _director(club):
    return MembershipFactory(club=club, role=Role.DIRECTOR).user


def test_director_downloads_sheet_and_result(client):
    event, tables = seated_event(variant_id="rutupeli", players=4)
    table = tables[0]
    record(table, 1, contract_entry(1, 4))
    client.force_login(_director(event.club))
    kwargs = {"slug": event.club.slug, "event_id": event.pk, "table_id": table.pk}
    sheet = client.get(
        reverse("print_table_sheet", kwargs=kwargs), {"lang": "en", "paper": "Letter"}
    )
    assert sheet.status_code == 200
    assert sheet["Content-Type"] == "application/pdf"
    assert 'filename="rutupeli-night-table-1-letter-en.pdf"' in sheet["Content-Disposition"]
    reader = PdfReader(io.BytesIO(sheet.content))
    assert round(float(reader.pages[0].mediabox.width)) == 612
    assert "2 sets" in reader.pages[0].extract_text()
    result = client.get(reverse("print_table_result", kwargs=kwargs), {"lang": "xx"})
    assert result.status_code == 200
    # A language the site does not offer: the club's, and the name says which.
    language = event.club.language or settings.LANGUAGE_CODE
    assert f'filename="rutupeli-night-result-1-a4-{language}.pdf"' in result["Content-Disposition"]


def test_non_directors_get_no_sheet(client, outsider):
    event, tables = seated_event(variant_id="rutupeli", players=4)
    kwargs = {"slug": event.club.slug, "event_id": event.pk, "table_id": tables[0].pk}
    url = reverse("print_table_sheet", kwargs=kwargs)
    assert client.get(url).status_code == 302  # signed out: to the sign-in page
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    client.force_login(MembershipFactory(club=event.club, role=Role.MEMBER).user)
    assert client.get(reverse("print_table_result", kwargs=kwargs)).status_code == 403
    other, _other_tables = seated_event(variant_id="rutupeli", players=4)
    client.force_login(_director(other.club))
    assert client.get(url).status_code == 403


def test_sixty_tables_in_one_document():
    _event, tables = seated_event(variant_id="rutupeli", players=240)
    assert len(tables) == 60
    started = time.perf_counter()
    pdf = table_sheets_pdf(tables=tables, filled=False, language="fi")
    seconds = time.perf_counter() - started
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    print(f"60 tables: {pages} pages in {seconds:.1f} s ({pages / seconds:.1f} pages/s)")
    assert pages >= 60


def test_tables_page_offers_the_sheets_to_directors_only(client):
    event, tables = seated_event(variant_id="rutupeli", players=8)
    record(tables[0], 1, contract_entry(1, 4))
    kwargs = {"slug": event.club.slug, "event_id": event.pk}
    page = reverse("event_tables", kwargs=kwargs)
    sheet = reverse("print_table_sheet", kwargs={**kwargs, "table_id": tables[0].pk})
    result = reverse("print_table_result", kwargs={**kwargs, "table_id": tables[0].pk})
    other = reverse("print_table_result", kwargs={**kwargs, "table_id": tables[1].pk})
    client.force_login(_director(event.club))
    html = client.get(page).content.decode()
    assert sheet in html and result in html
    assert other not in html  # no deals yet: nothing to print as a result
    client.force_login(MembershipFactory(club=event.club, role=Role.SCORER).user)
    html = client.get(page).content.decode()
    assert sheet not in html


def test_download_speaks_the_clubs_language_unless_asked(client):
    event, tables = seated_event(variant_id="ravaytys", players=4)
    event.club.language = "hu"
    event.club.save()
    client.force_login(_director(event.club))
    url = reverse(
        "print_table_sheet",
        kwargs={"slug": event.club.slug, "event_id": event.pk, "table_id": tables[0].pk},
    )
    hungarian = PdfReader(io.BytesIO(client.get(url).content)).pages[0].extract_text()
    # A club night's stage in its format's word: "1. forduló", "Round 1".
    assert "forduló" in hungarian and "Stage" not in hungarian
    english = PdfReader(io.BytesIO(client.get(url, {"lang": "en"}).content)).pages[0]
    assert "Round 1" in english.extract_text()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("game", "players"),
    [(game, PLAYERS[game]) for game in GAMES] + [("rutupeli", 5), ("ravaytys", 6)],
)
def test_no_words_are_printed_over_each_other(game, players, language):
    _event, tables = seated_event(variant_id=game, players=players, preferred=players)
    assert len(tables[0].seats.all()) == players
    blank = table_sheet_file(table=tables[0], filled=False, language=language).content
    assert overlapping_words(blank) == []


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("game", ["ravaytys", "rutupeli"])
def test_six_players_each_have_columns_wide_enough_to_write_in(game, paper):
    """Six players of the longest names at a contract game's blank sheet: every column a
    player writes in holds a handwritten number (the buys column was 3.8 mm between its
    rules on A4, 2 mm inside them)."""
    _event, (table,) = seated_event(variant_id=game, players=6, preferred=6)
    for seat in table.seats.select_related("player"):
        seat.player.name = LONGEST_NAMES[seat.position]
        seat.player.save(update_fields=["name"])
    document = table_sheets_document(tables=[table], filled=False, language="hu", size=paper)
    assert len(document.pages) == 1
    assert narrowest_write_in_cell(document) >= 5
