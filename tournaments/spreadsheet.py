"""Reading the spreadsheets clubs start with: a roster, last season's results.

One reader for every import, so each gets the same answers to what real files hold: a CSV
saved by Excel (a BOM, semicolons), by LibreOffice (commas), a workbook (XLSX), a Finnish or
Hungarian date, a decimal comma, a formula where a value should be. Python's csv module
parses the CSV and openpyxl (tablib's engine for XLSX) the workbook; this module checks what
they give against the columns an import asks for and says, for every cell it cannot take,
which row and which column and why, so a director fixes the file once instead of once per
error. Nothing here saves anything: the
caller gets plain rows, or a SpreadsheetError listing every problem.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import IO, Any

from django.utils.functional import Promise
from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException

from core.i18n import violation_text
from rules import RuleViolation
from rules.i18n import _, ngettext
from tournaments.names import name_clean, name_key

# How many problems a file's error lists: enough to fix a file in one go, not a page of
# 10,000 lines when a whole column is wrong.
PROBLEMS_SHOWN = 50
# Columns beyond these are never read (a sheet with a million empty columns is not a roster).
COLUMNS_READ = 40
# What the first bytes of a file say it is.
ZIP_MAGIC = b"PK\x03\x04"
OLD_EXCEL_MAGIC = b"\xd0\xcf\x11\xe0"
# A cell a spreadsheet would run as a formula if the file went back out (and which, coming
# in, is a formula's text rather than its value).
FORMULA_START = ("=", "+", "@")
KINDS = ("text", "int", "decimal", "date")


@dataclass(frozen=True)
class Column:
    key: str
    # The column's name in the reader's language, for the errors.
    label: str | Promise
    # The header spellings accepted, compared by name_key ("Nimi", "név", "Name ").
    headers: tuple[str, ...]
    kind: str = "text"
    required: bool = True
    max_length: int = 120

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown column kind {self.kind!r}")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the file: where (row as numbered in the file, header = 1;
    the column's label), and what, as a violation translated when shown."""

    row: int | None
    column: str | Promise | None
    violation: RuleViolation

    @property
    def message(self) -> str:
        return violation_text(self.violation)

    @property
    def place(self) -> str:
        """ "Row 4, Name", "Row 4", "Name" or "" in the reader's language."""
        if self.row is None:
            return str(self.column or "")
        template = _("Row %(row)d, %(column)s") if self.column is not None else _("Row %(row)d")
        return violation_text(
            RuleViolation(template, code="place", row=self.row, column=str(self.column or ""))
        )

    def __str__(self) -> str:
        place = self.place
        return f"{place}: {self.message}" if place else self.message


class SpreadsheetError(RuleViolation):
    """The file cannot be taken as it is; `problems` says every reason found."""

    def __init__(self, problems: Sequence[Problem], *, more: int = 0) -> None:
        count = len(problems) + more
        super().__init__(
            ngettext(
                "The file has %(count)d problem; nothing was saved.",
                "The file has %(count)d problems; nothing was saved.",
                count,
            ),
            code="spreadsheet",
            count=count,
        )
        self.problems = list(problems)
        self.more = more


@dataclass
class _Problems:
    found: list[Problem] = field(default_factory=list)
    more: int = 0

    def add(self, row: int | None, column: Column | None, template: str, **params: Any) -> None:
        if len(self.found) >= PROBLEMS_SHOWN:
            self.more += 1
            return
        violation = RuleViolation(template, code="spreadsheet_cell", **params)
        self.found.append(Problem(row, column.label if column else None, violation))

    def raise_any(self) -> None:
        if self.found:
            raise SpreadsheetError(self.found, more=self.more)


def _refuse(template: str, **params: Any) -> SpreadsheetError:
    return SpreadsheetError([Problem(None, None, RuleViolation(template, code="file", **params))])


def spreadsheet_read(
    upload: IO[bytes] | Any,
    *,
    columns: Sequence[Column],
    max_rows: int = 5000,
    max_bytes: int = 2_000_000,
) -> list[dict[str, Any]]:
    """The file's rows as dicts of `columns`' keys (typed; a missing optional cell is None)
    plus "row", the row's number in the file. Blank rows are skipped. Raises
    SpreadsheetError naming every problem: nothing half-read is ever returned."""
    size = getattr(upload, "size", None)
    if size is not None and size > max_bytes:
        raise _too_big(max_bytes)
    data = upload.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise _too_big(max_bytes)
    if not data.strip():
        raise _refuse(_("The file is empty."))
    if data.startswith(OLD_EXCEL_MAGIC):
        raise _refuse(_("This is an old Excel file (.xls): save it as .xlsx or as CSV UTF-8."))
    table = _workbook_rows(data, max_rows) if data.startswith(ZIP_MAGIC) else _csv_rows(data)
    return _rows(table, columns, max_rows)


def _too_big(max_bytes: int) -> SpreadsheetError:
    return _refuse(
        _("The file is larger than %(size)s MB: split it into smaller files."),
        size=f"{max_bytes / 1_000_000:g}",
    )


def _csv_rows(data: bytes) -> list[list[Any]]:
    text = _decoded(data)
    first_line = text.split("\n", 1)[0]
    try:
        delimiter = csv.Sniffer().sniff(first_line, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    # The standard library's reader rather than tablib's: tablib drops blank lines, and the
    # errors must name rows as the director's spreadsheet numbers them.
    try:
        return [list(row) for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)]
    except csv.Error as error:
        raise _refuse(_("The file cannot be read as CSV: %(reason)s"), reason=str(error)) from None


def _decoded(data: bytes) -> str:
    """The text of a CSV: UTF-8 (with Excel's BOM or without) or UTF-16 with its BOM. Any
    other encoding is refused, naming the row, rather than guessed: a guess that is wrong
    turns "Väisänen" into "VÃ¤isÃ¤nen" on every page for good."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        row = data[: error.start].count(b"\n") + 1
        raise _refuse(
            _(
                'Row %(row)d is not UTF-8 text: save the file as "CSV UTF-8" (or as an '
                "Excel workbook) and upload it again."
            ),
            row=row,
        ) from None


def _workbook_rows(data: bytes, max_rows: int) -> list[list[Any]]:
    """The first sheet's cells as they are stored: a formula stays its text ("=A1+1"), so
    it can be named rather than taken for a value it happened to show."""
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
        sheet = book.worksheets[0]
        rows = []
        for values in sheet.iter_rows(max_col=COLUMNS_READ, values_only=True):
            rows.append(list(values))
            # The header and one row past the limit are enough to say it is too long.
            if len(rows) > max_rows + 1:
                break
        book.close()
    except (zipfile.BadZipFile, InvalidFileException, KeyError, IndexError, ValueError, OSError):
        raise _refuse(
            _("The file cannot be read as an Excel workbook: save it as .xlsx or CSV UTF-8.")
        ) from None
    return rows


def _blank(cell: Any) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _rows(table: list[list[Any]], columns: Sequence[Column], max_rows: int) -> list[dict]:
    header_at = next((i for i, row in enumerate(table) if not all(map(_blank, row))), None)
    if header_at is None:
        raise _refuse(_("The file is empty."))
    where = _header(table[header_at], header_at + 1, columns)
    body = [
        (number, row)
        for number, row in enumerate(table[header_at + 1 :], start=header_at + 2)
        if not all(map(_blank, row))
    ]
    if len(body) > max_rows:
        raise _refuse(_("The file has more than %(max)d rows: split it."), max=max_rows)
    problems = _Problems()
    rows = []
    for number, cells in body:
        row: dict[str, Any] = {"row": number}
        for column in columns:
            index = where.get(column.key)
            cell = cells[index] if index is not None and index < len(cells) else None
            row[column.key] = _value(cell, column, number, problems)
        rows.append(row)
    if not rows:
        raise _refuse(_("The file has column names but no rows under them."))
    problems.raise_any()
    return rows


def _header(cells: list[Any], number: int, columns: Sequence[Column]) -> dict[str, int]:
    """Column key → index, from the header row; every required column must be there."""
    keys = [name_key(str(cell)) if not _blank(cell) else "" for cell in cells]
    problems = _Problems()
    where: dict[str, int] = {}
    for column in columns:
        accepted = {name_key(header) for header in column.headers}
        found = [i for i, key in enumerate(keys) if key in accepted]
        if len(found) > 1:
            problems.add(number, column, _("This column is named twice."))
        elif found:
            where[column.key] = found[0]
        elif column.required:
            problems.add(
                number,
                column,
                _("The column is missing: the first row names the columns (%(names)s)."),
                names=", ".join(column.headers),
            )
    problems.raise_any()
    return where


_INT = re.compile(r"[+-]?\d+\.?")
_DECIMAL = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)")
_DATES = (
    (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"), (0, 1, 2)),
    (re.compile(r"(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})"), (2, 1, 0)),
    (re.compile(r"(\d{4})\.\s*(\d{1,2})\.\s*(\d{1,2})\.?"), (0, 1, 2)),
)


def _value(cell: Any, column: Column, row: int, problems: _Problems) -> Any:
    if _blank(cell):
        if column.required:
            problems.add(row, column, _("This cell is empty."))
        return None
    if isinstance(cell, str) and cell.strip().startswith(FORMULA_START):
        problems.add(
            row,
            column,
            _("“%(value)s” is a formula: put its value in the cell instead."),
            value=cell.strip()[:40],
        )
        return None
    parse = {"text": _text, "int": _int, "decimal": _decimal, "date": _date}[column.kind]
    try:
        return parse(cell, column)
    except RuleViolation as violation:
        problems.add(row, column, violation.template, **violation.params)
        return None


def _text(cell: Any, column: Column) -> str:
    text = name_clean(str(cell))
    if len(text) > column.max_length:
        raise RuleViolation(
            _("At most %(max)d characters (this has %(length)d)."),
            code="too_long",
            max=column.max_length,
            length=len(text),
        )
    return text


def _int(cell: Any, column: Column) -> int:
    if isinstance(cell, bool):
        raise _not_number(cell)
    if isinstance(cell, int):
        return cell
    if isinstance(cell, float) and cell.is_integer():
        return int(cell)
    text = "".join(str(cell).split())
    if not _INT.fullmatch(text):
        raise RuleViolation(
            _("“%(value)s” is not a whole number."), code="not_int", value=str(cell)[:40]
        )
    return int(text.rstrip("."))


def _decimal(cell: Any, column: Column) -> Decimal:
    if isinstance(cell, bool):
        raise _not_number(cell)
    if isinstance(cell, int | float):
        value = Decimal(str(cell))
    else:
        # "1 234,5" with a space (or a no-break space) between thousands, as Finns write it.
        text = "".join(str(cell).split())
        if not _DECIMAL.fullmatch(text):
            raise _not_number(cell)
        try:
            value = Decimal(text.replace(",", "."))
        except InvalidOperation:
            raise _not_number(cell) from None
    if not value.is_finite() or abs(value) >= Decimal(10) ** 9:
        raise _not_number(cell)
    return value


def _not_number(cell: Any) -> RuleViolation:
    return RuleViolation(_("“%(value)s” is not a number."), code="not_number", value=str(cell)[:40])


def _date(cell: Any, column: Column) -> datetime.date:
    if isinstance(cell, datetime.datetime):
        return cell.date()
    if isinstance(cell, datetime.date):
        return cell
    text = str(cell).strip()
    for pattern, (year, month, day) in _DATES:
        match = pattern.fullmatch(text)
        if match:
            parts = match.groups()
            try:
                return datetime.date(int(parts[year]), int(parts[month]), int(parts[day]))
            except ValueError:
                break
    raise RuleViolation(
        _("“%(value)s” is not a date: write it as 2025-10-04, 4.10.2025 or 2025. 10. 04."),
        code="not_date",
        value=text[:40],
    )
