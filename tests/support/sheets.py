"""What the printed-sheet tests share: a PDF's text and pictures, the word-box overlap
check, and tables played to their end (short, or as long as a real game gets)."""

from __future__ import annotations

import html
import io
import re
import subprocess
from pathlib import Path

from pypdf import PdfReader
from weasyprint import Document
from weasyprint.formatting_structure import boxes

from scoring.selectors import table_sheet
from scoring.services import Actor, deal_confirm, deal_record
from tests.support.events import new_request_id

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
# The longest realistic names, up to 30 characters with accents and double names, one a
# seat: what a printed sheet's narrowest places (a six-player head, a dealer line) must hold.
LONGEST_NAMES = [
    "Kristiina Väisänen-Lindqvist", "Szentgyörgyiné Kovács Réka Éva",
    "Äijälä-Heikkinen Väinö Ilmari", "Nagy-Horváthné Lőrincz Zsófia",
    "Öberg-Lindqvist Maja Kristiina", "Pöllänen-Rönkkö Ville-Tapani",
]  # fmt: skip


def record(table, number, entry, seat=0):
    return deal_record(
        table=table,
        number=number,
        entry=entry,
        by=Actor(device=f"phone-{seat}", seat=seat),
        expected_version=0,
        request_id=new_request_id(),
    )


def confirm(deal):
    return deal_confirm(
        deal=deal,
        by=Actor(device="phone-other", seat=1),
        expected_version=deal.version,
        request_id=new_request_id(),
    )


def pdf_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def png(pdf: bytes, name: str, dpi: int = 100) -> Path:
    """The PDF's first page as tests/artifacts/<name>.png, for a person to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    source = ARTIFACTS / f"{name}.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-png", "-singlefile", str(source), str(ARTIFACTS / name)],
        check=True,
    )
    source.unlink()
    return ARTIFACTS / f"{name}.png"


Word = tuple[float, float, float, float, str]


def page_words(pdf: bytes) -> list[list[Word]]:
    """Each page's words with their boxes (pdftotext's, in points): one poppler run, many
    times faster than pypdf's text for the sheet matrix."""
    done = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True,
                          check=True)  # fmt: skip
    pattern = re.compile(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
    )
    pages = []
    for page in done.stdout.decode().split("<page ")[1:]:
        words = []
        for match in pattern.finditer(page):
            x0, y0, x1, y1 = map(float, match.groups()[:4])
            words.append((x0, y0, x1, y1, html.unescape(match.group(5))))
        pages.append(words)
    return pages


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text in the order it was written (the document's), every run of white
    space one space."""
    done = subprocess.run(["pdftotext", "-raw", "-", "-"], input=pdf, capture_output=True,
                          check=True)  # fmt: skip
    pages = done.stdout.decode().split("\f")[:-1]
    return [" ".join(page.split()) for page in pages]


def overlapping_words(pdf: bytes, pages: list[list[Word]] | None = None) -> list[tuple[str, str]]:
    """Pairs of words printed over each other on any page (pdftotext's word boxes, in
    points), such as a long column head running into the next column's."""
    clashes = []
    slack = 0.5  # boxes that merely touch are fine
    for page in page_words(pdf) if pages is None else pages:
        words = []
        for x0, y0, x1, y1, text in page:
            # A word's box is its font's whole line (ascent to descent): trimmed to about
            # where its letters are, so a big table number under its small label is no clash.
            trim = (y1 - y0) * 0.2
            words.append((x0, y0 + trim, x1, y1 - trim, text))
        for i, (x0, y0, x1, y1, text) in enumerate(words):
            for a0, b0, a1, b1, other in words[i + 1 :]:
                if min(x1, a1) - max(x0, a0) > slack and min(y1, b1) - max(y0, b0) > slack:
                    clashes.append((text, other))
    return clashes


# -- tables played to their end ----------------------------------------------------------------


def words_outside_their_cells(document: Document) -> list[tuple[int, str, float]]:
    """(page, text, CSS px over) for each line of text that runs past its table cell's
    border: a head wider than its column prints over its neighbour's rule, which the
    word-over-word check cannot see (there is no word under it)."""
    found: list[tuple[int, str, float]] = []

    def walk(box, cell, page: int) -> None:
        if isinstance(box, boxes.TableCellBox):
            cell = box
        if isinstance(box, boxes.TextBox) and cell is not None:
            left = cell.border_box_x()
            over = max(
                box.position_x + box.width - (left + cell.border_width()), left - box.position_x
            )
            if over > 0.5:
                found.append((page, box.text, round(over, 1)))
        for child in getattr(box, "children", []):
            walk(child, cell, page)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, None, number)
    return found


MM_PER_CSS_PX = 25.4 / 96


def narrowest_write_in_cell(document: Document) -> float:
    """The narrowest cell, in mm, of the rows a player writes in (the grid's body rows on
    every page): a column too narrow for a handwritten number is no use however its head
    reads (a six-player sheet's buys column was about 2 mm)."""
    widths: list[float] = []

    def walk(box, in_grid: bool, in_body: bool) -> None:
        if isinstance(box, boxes.TableBox) and box.element is not None:
            in_grid = "grid" in (box.element.get("class") or "").split()
        if isinstance(box, boxes.TableRowGroupBox):
            in_body = box.element is not None and box.element.tag == "tbody"
        if isinstance(box, boxes.TableCellBox) and in_grid and in_body:
            widths.append(box.border_width() * MM_PER_CSS_PX)
            return
        for child in getattr(box, "children", []):
            walk(child, in_grid, in_body)

    for page in document.pages:
        walk(page._page_box, False, False)
    return min(widths)


# What a line may end with when its word goes on on the next: a hyphen WeasyPrint put in
# (`hyphens: auto`) or a soft one.
_INSERTED_HYPHENS = "\u2010\u00ad"


def words_broken_mid_word(document: Document) -> list[tuple[int, str, str]]:
    """(page, fragment, its cell's text) for each word of a table cell broken across lines
    where it has no hyphen of its own ("Győ-zelmek", "Mérkőzé" "sek", "Pen-alty"): a head
    must break between words, or at a double name's own hyphen, never mid-word."""
    found: list[tuple[int, str, str]] = []

    def lines_of(box, lines: list[str]) -> None:
        if isinstance(box, boxes.LineBox):
            lines.append("".join(text.text for text in _texts(box)))
            return
        for child in getattr(box, "children", []):
            lines_of(child, lines)

    def walk(box, page: int) -> None:
        if isinstance(box, boxes.TableCellBox):
            texts = list(box.element.itertext()) if box.element is not None else []
            source = " ".join(" ".join(texts).split())
            # A word may be written in parts ("♠<span>♥♦</span>♣") or set in capitals.
            words = {word.casefold() for word in [*source.split(), *"".join(texts).split()]}
            lines: list[str] = []
            lines_of(box, lines)
            for line in lines:
                for token in line.casefold().split():
                    if token in words:
                        continue
                    if token[-1] in _INSERTED_HYPHENS or not any(
                        # Broken at the word's own hyphen ("Väisänen-" "Lindqvist").
                        (word.startswith(token) and token.endswith("-"))
                        or (word.endswith(token) and word[: -len(token)].endswith("-"))
                        for word in words
                    ):
                        found.append((page, token, source))
            return
        for child in getattr(box, "children", []):
            walk(child, page)

    for number, page in enumerate(document.pages, 1):
        walk(page._page_box, number)
    return found


def _texts(box):
    if isinstance(box, boxes.TextBox):
        yield box
    for child in getattr(box, "children", []):
        yield from _texts(child)


def contract_entry(number: int, seats: int, *, stock_out: bool = False) -> dict:
    """A contract game's deal: seat `number % seats` goes out (nobody when `stock_out`),
    the others hold a few cards; seat 1 buys once in deal 2."""
    hands = [None, "A K", "7", "Q 9 3", "5", "10"][:seats]
    out = None if stock_out else number % seats
    return {
        "out": out,
        "players": [
            {
                "cards": None if i == out else hands[(i + number) % seats] or "4",
                "buys": 1 if i == 1 and number == 2 else 0,
            }
            for i in range(seats)
        ],
    }


def _gin_entry(number: int, long: bool) -> dict:
    """A match with every ending: römi, knock, an undercut and a void deal; a long match
    (`long`) is small knocks, about as many deals as one to 150 ever takes."""
    if number == 2:
        return {"ending": "knock", "by": 1, "upper": "9H", "hands": None, "deadwood": [4, 7]}
    if number == 3:
        return {"ending": "void", "by": None, "upper": None, "hands": None, "deadwood": None}
    if long:
        # Knocks of 10, two in three by the first seat: about 23 deals to 150.
        by = 0 if number % 3 else 1
        deadwood = [2, 12] if by == 0 else [12, 2]
        return {"ending": "knock", "by": by, "upper": "8C", "hands": None, "deadwood": deadwood}
    if number % 2:
        return {"ending": "romi", "by": 0, "upper": "9H", "hands": None, "deadwood": [0, 50]}
    return {"ending": "knock", "by": 0, "upper": "9H", "hands": None, "deadwood": [3, 40]}


def _tiz_entry(number: int, seats: int, out: set[int], long: bool) -> dict:
    """A buli deal: the seats still in win it in turn (a knock with ♥2 every third deal, or
    every deal of a long buli), the others score; a special hand in deal 2, a drop-out in
    deal 3 and a re-entry after it."""
    inside = [seat for seat in range(seats) if seat not in out]
    winner = inside[number % len(inside)]
    points = 7 if long else 45
    players: list[dict] = []
    for seat in range(seats):
        if seat == winner:
            players.append({"cards": None, "points": None})
        elif seat in out:
            # The first seat out buys back in once, a deal after it went out.
            back = seat == min(out) and number == 4
            players.append({"points": points, "reenter": True} if back else {})
        else:
            players.append({"cards": None, "points": points + seat})
    if number == 2 and len(inside) > 2:
        loser = next(seat for seat in inside if seat != winner)
        players[loser] = {"cards": None, "points": 20, "special": "piccolo"}
    if number == 3 and len(inside) > 2:
        quitter = inside[-1] if inside[-1] != winner else inside[-2]
        players[quitter] = {"drop_out": True}
    # A long buli is all knocks: a römi takes 10 off its winner's total, a knock adds 2.
    knock = long or number % 3 == 0
    return {"winner": winner, "ending": "knock" if knock else "romi",
            "knock_card": "2H" if knock else None, "players": players}  # fmt: skip


def play(game: str, table, *, long: bool = False, limit: int = 60) -> int:
    """Play `table` to its end, confirming every deal but the last; the deals played."""
    seats = table.seats.count()
    deals = []
    if game in ("rutupeli", "ravaytys"):
        count = 7 if game == "rutupeli" else 8
        for number in range(1, count + 1):
            entry = contract_entry(number, seats, stock_out=game == "rutupeli" and number == 3)
            if game == "ravaytys" and number == 4:
                entry["ravaytys"] = True
            deals.append(record(table, number, entry))
    else:
        number = 0
        while not (sheet := table_sheet(table=table)).standing.finished:
            number += 1
            assert number <= limit, "the game did not end"
            if game == "gin_romi":
                entry = _gin_entry(number, long)
            else:
                ledger = sheet.standing.ledger
                out = set(ledger.eliminated) if ledger else set()
                entry = _tiz_entry(number, seats, out, long)
            deals.append(record(table, number, entry))
    for deal in deals[:-1]:
        confirm(deal)
    return len(deals)
