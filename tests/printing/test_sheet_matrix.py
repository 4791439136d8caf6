"""Every printed table sheet on one page (issue 23): each sheet kind (the blank score sheet,
the filled result sheet) of each game, in each language and on each paper, with one table
per player count the game allows, all in ONE document per combination (one WeasyPrint run,
as a round is printed). Every table's players have the longest realistic names (30 letters,
accents, double names: `LONGEST_NAMES`): with short names the six-player sheets fitted
and a 30-letter name ran past its head, pushed the rules onto a second page and cut the
dealer line, unseen (issue 31). Each page is one table's and names it; no words print over
each other or past their cell's border, and no head is broken mid-word ("Pen-alty"); every field the phone asks is on it, in the language's own words (checked on the
same documents: a WeasyPrint run takes seconds). A PNG of each sheet kind in each language
goes to tests/artifacts/. The longest realistic Gin match and Tízlapos buli say what a long
game's sheets do. Run time: see --durations (each matrix test is six WeasyPrint runs)."""

from __future__ import annotations

import re
import subprocess

import pytest
from django.utils import translation
from django.utils.translation import gettext, pgettext

from printing.pdf import PAPERS
from printing.sheets import OPEN_ROWS, table_sheets_document, table_sheets_pdf
from rules import get_variant
from tests.support.events import seated_event
from tests.support.sheets import (
    ARTIFACTS,
    LONGEST_NAMES,
    overlapping_words,
    page_texts,
    page_words,
    play,
    words_broken_mid_word,
    words_outside_their_cells,
)
from tournaments.models import Seat, Table

pytestmark = [pytest.mark.django_db, pytest.mark.layout]

GAMES = ("rutupeli", "ravaytys", "gin_romi", "tizlapos_romi")
LANGUAGES = ("fi", "hu", "en")


def player_counts(game: str) -> range:
    variant = get_variant(game)
    return range(variant.min_players, variant.max_players + 1)


def tables_of_every_size(game: str, *, played: bool, long: bool = False) -> list[Table]:
    """One table per player count `game` allows, numbered 1, 2, ... across their events (a
    page must name its own table, not "Table 1" five times)."""
    tables = []
    for number, players in enumerate(player_counts(game), 1):
        drawn = max(players, 3) if game != "gin_romi" else players
        _event, (table,) = seated_event(variant_id=game, players=drawn, preferred=drawn)
        # A first draw seats three or more; two play a championship's last stage (or a
        # Tízlapos buli set up by hand): the third seat is taken away.
        Seat.objects.filter(table=table, position__gte=players).delete()
        assert table.seats.count() == players
        for seat in table.seats.select_related("player"):
            seat.player.name = LONGEST_NAMES[seat.position]
            seat.player.save(update_fields=["name"])
        Table.objects.filter(pk=table.pk).update(number=number)
        table.number = number
        if played:
            play(game, table, long=long)
        tables.append(table)
    return tables


def assert_one_page_per_table(pdf: bytes, tables: list[Table], language: str) -> list[str]:
    """The document's pages' text, once each page is found to be one table's, in order."""
    words = page_words(pdf)
    pages = page_texts(pdf)
    with translation.override(language):
        labels = [table.label for table in tables]  # the footer's "Table 3", "3. asztal"
    assert len(pages) == len(tables), f"{len(pages)} pages for {len(tables)} tables"
    for page, label, table in zip(pages, labels, tables, strict=True):
        assert label in page
        # A long name may wrap in its head, at a space or its own hyphen.
        assert all(squash(seat.player.name) in squash(page) for seat in table.seats.all())
    assert overlapping_words(pdf, words) == []
    return pages


# The fields each sheet must show (issue 23), as msgids: looked up in the page's language.
FIELDS: dict[tuple[str, bool], list[str]] = {
    ("contract", False): ["Went out", "Penalty"],
    ("gin", False): ["Knocked or went römi", "Upper card", "Deadwood", "The loser pays"],
    ("tizlapos", False): ["knock card", "Special hands, drop-outs, re-entries", "Re-entries"],
    ("contract", True): [],
    ("gin", True): ["Römi", "Knock", "undercut: %(name)s wins", "deadwood %(counts)s"],
    ("tizlapos", True): ["Piccolo", "%(name)s drops out", "%(name)s buys back in", "Net units"],
}
# Words a language must not print for these fields any more (issue 23). A Hungarian deal is
# a "játszma", as the Hungarian rules call it ("osztás" is only the dealing: Osztó, Osztási
# sorrend); a game is a "játék".
WRONG_WORDS = {
    "fi": [r"jaot: Player", r"nostokortti"],
    "hu": [
        r"a\(z\)",
        r"játszmák: Player",
        r"\b[Oo]sztás(?!i)",
        r"osztások",
        r"joker",
        r"Visszavásárlás",
    ],
    "en": [r"deals: Player"],
}


def squash(text: str) -> str:
    return re.sub(r"[\s\-\u2010\u00ad]", "", text)


def assert_fields(pages: list[str], tables: list[Table], game: str, filled: bool) -> None:
    """Every field of the sheet on each page, in the active language; no wrong words."""
    family = get_variant(game).family
    fields = FIELDS[family, filled]
    must = [gettext(msgid).split("%(")[0] for msgid in fields]
    must += [gettext("Signature"), gettext("Card values")]
    if filled:
        must += [gettext("The table's page"), "* " + gettext("includes unconfirmed deals")]
    else:
        must += [pgettext("the column where the confirming player initials a deal", "Initials")]
        must += [gettext("Scan to enter the scores")]
    if game == "ravaytys":
        must += [gettext("Räväytys") if not filled else gettext("räväytys")]
    if game == "rutupeli" and filled:
        must += [gettext("Nobody went out: the stock ran out")]
    # Each row names its dealer by seat, as the players' heads number them ("Dealer: 3"):
    # a row has no room for a name of 30 letters. The head names the first dealer.
    label = pgettext("the player who deals", "Dealer: %(name)s").replace("%(name)s", "").strip()
    for page, table in zip(pages, tables, strict=True):
        dealer = table.seats.get(is_first_dealer=True).player.name
        words = [*must, label, f"{gettext('First dealer')}: {dealer}"]
        if family == "tizlapos" and filled and table.seats.count() < 3:
            # Two play no special hand, drop-out or re-entry in `play`'s buli.
            words = [word for word in words if word not in must[: len(fields)]]
        # A head broken at a syllable or a line ("drop-" "outs") is still the head.
        squashed = squash(page)
        missing = [word for word in words if squash(word) not in squashed]
        assert not missing, f"table {table.number}: {missing}"
        if family == "gin" and filled:
            payer = gettext("Settlement: %(payer)s pays %(amount)s to %(payee)s.").split("%(")[0]
            assert payer in page
        if filled:
            assert gettext("Scan to enter the scores") not in page
        wrong = [word for word in WRONG_WORDS[translation.get_language()] if re.search(word, page)]
        assert not wrong, f"table {table.number}: {wrong}"


def save_png(pdf: bytes, page: int, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "80", "-png", "-singlefile", "-f", str(page), "-l",
                    str(page), "-", str(ARTIFACTS / name)], input=pdf, check=True)  # fmt: skip


# Each game's sheet kinds: the games with no fixed number of deals have a continuation
# sheet too (a six-player Tízlapos one ran onto a second page: issue 31).
SHEETS = [
    (game, kind)
    for game in GAMES
    for kind in ("score", "continued", "result")
    if kind != "continued" or get_variant(game).family in OPEN_ROWS
]


@pytest.mark.parametrize(("game", "kind"), SHEETS)
def test_one_page_per_table_in_every_language_and_paper(game, kind):
    filled, continued = kind == "result", kind == "continued"
    tables = tables_of_every_size(game, played=filled)
    for language in LANGUAGES:
        for size in PAPERS:
            document = table_sheets_document(
                tables=tables, filled=filled, language=language, size=size, continued=continued
            )
            pdf = document.write_pdf()
            try:
                assert words_outside_their_cells(document) == []
                assert words_broken_mid_word(document) == []
                pages = assert_one_page_per_table(pdf, tables, language)
                with translation.override(language):
                    assert_fields(pages, tables, game, filled)
            except AssertionError as error:
                raise AssertionError(f"{game} {kind} {language} {size}: {error}") from error
            if size == "A4":
                # The most players: the fullest page.
                save_png(pdf, len(tables), f"sheet-{game}-{kind}-{language}")


@pytest.mark.parametrize("game", ["gin_romi", "tizlapos_romi"])
def test_the_longest_game(game):
    """A long match or buli (small scores, every ending): its deals go on from the score
    sheet onto the continuation sheet, one page per table each; its result sheet takes
    two pages, the grid's heads repeated, never another table's page."""
    tables = tables_of_every_size(game, played=True, long=True)
    family = get_variant(game).family
    deals = max(table.deals.count() for table in tables)
    rows = OPEN_ROWS[family]
    assert rows < deals <= 2 * rows
    for size in PAPERS:
        continued = table_sheets_pdf(tables=tables, filled=False, continued=True, language="hu",
                                     size=size)  # fmt: skip
        pages = assert_one_page_per_table(continued, tables, "hu")
        for page in pages:
            assert f" {rows + 1} " in page and f" {2 * rows} " in page
        result = table_sheets_pdf(tables=tables, filled=True, language="en", size=size)
        text = page_words(result)
        print(f"{game} {size}: {deals} deals at most, result sheets {len(text)} pages "
              f"for {len(tables)} tables")  # fmt: skip
        assert len(text) <= 2 * len(tables)
    save_png(continued, len(tables), f"sheet-{game}-continued-hu")
    save_png(result, 1, f"sheet-{game}-long-result-en")
