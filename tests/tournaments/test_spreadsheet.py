"""The one reader of every import: what real files hold, and an error naming row and column
for each thing it cannot take."""

from __future__ import annotations

import datetime
import io
from decimal import Decimal

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from tournaments.spreadsheet import Column, SpreadsheetError, spreadsheet_read

COLUMNS = (
    Column("name", "Name", ("name", "nimi", "név")),
    Column("date", "Date", ("date", "päivä", "dátum"), kind="date"),
    Column("place", "Place", ("place", "sija", "helyezés"), kind="int"),
    Column("total", "Total", ("total", "pisteet", "összesen"), kind="decimal", required=False),
)


def _csv(text: str, encoding: str = "utf-8") -> SimpleUploadedFile:
    return SimpleUploadedFile("file.csv", text.encode(encoding), content_type="text/csv")


def _xlsx(rows: list[list[object]]) -> SimpleUploadedFile:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return SimpleUploadedFile("file.xlsx", out.getvalue())


def _problems(upload, **kwargs) -> list[str]:
    with pytest.raises(SpreadsheetError) as caught:
        spreadsheet_read(upload, columns=COLUMNS, **kwargs)
    return [str(problem) for problem in caught.value.problems]


def test_excels_csv_with_a_bom_semicolons_finnish_dates_and_decimal_commas():
    text = "\ufeffNimi;Päivä;Sija;Pisteet\nKristiina Väisänen-Lindqvist;4.10.2025;1.;12,5\n\n"
    text += "Olli  Uusi;2025-10-04;2;-3\n"
    rows = spreadsheet_read(_csv(text), columns=COLUMNS)
    assert rows == [
        {
            "row": 2,
            "name": "Kristiina Väisänen-Lindqvist",
            "date": datetime.date(2025, 10, 4),
            "place": 1,
            "total": Decimal("12.5"),
        },
        {
            "row": 4,
            "name": "Olli Uusi",
            "date": datetime.date(2025, 10, 4),
            "place": 2,
            "total": Decimal("-3"),
        },
    ]


def test_a_workbook_with_hungarian_headers_and_date_cells():
    upload = _xlsx([["Név", "Dátum", "Helyezés"], ["Erdős Pál", datetime.datetime(2025, 3, 1), 3]])
    rows = spreadsheet_read(upload, columns=COLUMNS)
    assert rows == [
        {
            "row": 2,
            "name": "Erdős Pál",
            "date": datetime.date(2025, 3, 1),
            "place": 3,
            "total": None,
        }
    ]


def test_a_hungarian_date_written_out():
    rows = spreadsheet_read(_csv("name,date,place\nAnna,2025. 03. 01.,1\n"), columns=COLUMNS)
    assert rows[0]["date"] == datetime.date(2025, 3, 1)


def test_every_bad_cell_is_named_by_row_and_column():
    text = "name,date,place,total\n,2025-13-01,first,x\n=HYPERLINK(1),03/01/2025,1,1\n"
    problems = _problems(_csv(text))
    assert problems == [
        "Row 2, Name: This cell is empty.",
        "Row 2, Date: “2025-13-01” is not a date: write it as 2025-10-04, 4.10.2025 or "
        "2025. 10. 04.",
        "Row 2, Place: “first” is not a whole number.",
        "Row 2, Total: “x” is not a number.",
        "Row 3, Name: “=HYPERLINK(1)” is a formula: put its value in the cell instead.",
        "Row 3, Date: “03/01/2025” is not a date: write it as 2025-10-04, 4.10.2025 or "
        "2025. 10. 04.",
    ]


def test_a_formula_in_a_workbook_is_named_not_taken_for_its_value():
    upload = _xlsx([["name", "date", "place"], ["Anna", "2025-01-01", "=1+1"]])
    assert _problems(upload) == [
        "Row 2, Place: “=1+1” is a formula: put its value in the cell instead."
    ]


def test_a_missing_column_names_the_headers_it_takes():
    assert _problems(_csv("name;place\nAnna;1\n")) == [
        "Row 1, Date: The column is missing: the first row names the columns (date, päivä, dátum)."
    ]


@pytest.mark.parametrize(
    ("upload", "expected"),
    [
        (_csv("name,date,place\nVäinö,1.1.2025,1\n", "latin-1"), "Row 2 is not UTF-8 text"),
        (_csv(""), "The file is empty."),
        (_csv("name,date,place\n"), "The file has column names but no rows under them."),
        (SimpleUploadedFile("a.xls", b"\xd0\xcf\x11\xe0" + b"0" * 100), "old Excel file"),
        (SimpleUploadedFile("a.xlsx", b"PK\x03\x04broken"), "cannot be read as an Excel"),
    ],
)
def test_a_file_it_cannot_read_says_why(upload, expected):
    (problem,) = _problems(upload)
    assert expected in problem


def test_a_file_too_large_or_too_long_is_refused_before_it_is_read():
    big = _csv("name,date,place\n" + "Anna,2025-01-01,1\n" * 200)
    assert "larger than 0.001 MB" in _problems(big, max_bytes=1000)[0]
    assert (
        "more than 100 rows"
        in _problems(_csv("name,date,place\n" + "A,2025-01-01,1\n" * 101), max_rows=100)[0]
    )


def test_the_errors_read_in_the_directors_language():
    with translation.override("fi"):
        (problem,) = _problems(_csv("name,date,place\nAnna,2025-01-01,x\n"))
    assert "Row" not in problem and "x" in problem


def test_many_problems_are_cut_short_and_counted():
    with pytest.raises(SpreadsheetError) as caught:
        spreadsheet_read(_csv("name,date,place\n" + "A,x,1\n" * 80), columns=COLUMNS)
    assert len(caught.value.problems) == 50 and caught.value.more == 30
    assert caught.value.params["count"] == 80
