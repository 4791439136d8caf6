"""The site's one look for a table of rows, and its spreadsheet downloads.

Every listing subclasses `BaseTable` (the shared template, attributes and empty text); a
screen's table sets only its columns. `export_response` turns any of them into a CSV or XLSX
download with every row (never one page) and the headers in the reader's language.
"""

from __future__ import annotations

import copy
import datetime
import io
from collections.abc import Iterable
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

import django_tables2 as tables
import openpyxl  # type: ignore[import-untyped]
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.template import RequestContext
from django.template.loader import get_template
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django_tables2.export import TableExport
from tablib import Dataset

from core.paging import TableQueryForm, paginate_table

# A column of numbers: right-aligned, header and cells alike.
NUMBER = {"th": {"class": "num"}, "td": {"class": "num"}}

EXPORT_FORMATS = (TableExport.CSV, TableExport.XLSX)

# A CSV's separators: the comma, or the semicolon a spreadsheet set to Finnish or Hungarian
# (and most of Europe) expects, its numbers then with a decimal comma (`?sep=semicolon`).
COMMA, SEMICOLON = ",", ";"

# A spreadsheet runs a cell that starts with one of these as a formula; a player's name is
# typed by people, so it is written as text instead (OWASP's advice for CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class BaseTable(tables.Table):
    """Every listing on the site: one look, sortable headers, pagination, phone-friendly."""

    class Meta:
        template_name = "tables/table.html"
        attrs = {"class": "table"}
        empty_text = _("Nothing here yet.")

    def __init__(self, *args: Any, label: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # What a screen reader calls the table's scroll box and its page links: a page with
        # two paged tables must name them apart.
        self.label = label


class TemplateColumn(tables.TemplateColumn):
    """A cell from a template file, rendered in the page's own context as an include is:
    django-tables2 flattens the page's context and runs every context processor again for
    each cell (a 100-row page of three such columns paid for it 300 times). A table
    rendered outside a page (a download) is left to django-tables2."""

    def render(self, record: Any, table: Any, value: Any, bound_column: Any, **kwargs: Any) -> Any:
        parent = getattr(table, "context", None)
        if parent is None or self.template_code or not isinstance(parent, RequestContext):
            return super().render(record, table, value, bound_column, **kwargs)
        context = self.get_context_data(
            record=record, table=table, value=value, bound_column=bound_column, **kwargs
        )
        with parent.update(context):
            return get_template(self.template_name).template.render(parent)  # type: ignore[attr-defined]


class DateColumn(tables.DateColumn):
    """A date: shown in the reader's format, written to a download as the date itself (an
    XLSX date cell a spreadsheet sorts and counts with, ISO 8601 in a CSV)."""

    def value(self, value: Any, **kwargs: Any) -> Any:
        return value


class DateTimeColumn(tables.DateTimeColumn):
    """A moment, as `DateColumn` a date: a download has it in the club's time."""

    def value(self, value: Any, **kwargs: Any) -> Any:
        return value


class _Export(TableExport):
    """tablib's export of a table, each cell a spreadsheet would run as a formula as text;
    dates as dates; a CSV's fields separated by `separator`."""

    def __init__(
        self, export_format: str, *args: Any, separator: str = COMMA, **kwargs: Any
    ) -> None:
        self.separator = separator
        # A spreadsheet takes dates as dates; a CSV holds them as ISO text.
        self.spreadsheet = export_format == TableExport.XLSX
        self.csv = export_format == TableExport.CSV
        super().__init__(export_format, *args, **kwargs)

    def table_to_dataset(
        self, table: tables.Table, exclude_columns: Any, dataset_kwargs: Any = None
    ) -> Dataset:
        dataset = Dataset(**(dataset_kwargs or {}))
        rows = table.as_values(exclude_columns=exclude_columns)
        dataset.headers = next(rows)
        # The places a Decimal cell keeps ("10.00"), by column: a spreadsheet shows them.
        self.decimal_places: dict[int, int] = {}
        for row in rows:
            for index, value in enumerate(row):
                if isinstance(value, Decimal) and value.is_finite():
                    places = max(0, -int(value.as_tuple().exponent))
                    self.decimal_places[index] = max(self.decimal_places.get(index, 0), places)
            dataset.append([self._cell(_as_text_if_formula(value)) for value in row])
        return dataset

    def _cell(self, value: Any) -> Any:
        if isinstance(value, datetime.datetime):
            # openpyxl writes no time zone: the club's wall-clock time, as its pages show.
            value = timezone.localtime(value).replace(tzinfo=None) if value.tzinfo else value
            return value if self.spreadsheet else value.isoformat(" ", "minutes")
        if isinstance(value, datetime.date):
            return value if self.spreadsheet else value.isoformat()
        if self.separator == SEMICOLON and isinstance(value, float | Decimal):
            return str(value).replace(".", ",")
        return value

    def export(self) -> Any:  # text for CSV, bytes for XLSX
        if self.csv:
            return self.dataset.export("csv", delimiter=self.separator)
        content = super().export()
        if not (self.spreadsheet and self.decimal_places):
            return content
        # tablib writes a Decimal as a bare number ("10"): give its column its places.
        book = openpyxl.load_workbook(io.BytesIO(content))
        sheet = book.active
        for index, places in self.decimal_places.items():
            number_format = "0." + "0" * places if places else "0"
            for (cell,) in sheet.iter_rows(min_row=2, min_col=index + 1, max_col=index + 1):
                if isinstance(cell.value, int | float):
                    cell.number_format = number_format
        written = io.BytesIO()
        book.save(written)
        return written.getvalue()


def export_response(
    table: tables.Table,
    *,
    export_format: str,
    name: str,
    title: str,
    exclude: Iterable[str] = (),
    separator: str = COMMA,
) -> HttpResponse:
    """`table`'s rows as a download named `<name>.<format>`; `title` names the XLSX sheet.

    The table is exported whole: give it unpaginated data. Headers and cells are those of
    `Table.as_values` (a column's `value_<name>` method, where it has one, gives the plain
    value), so they are in the active language. `exclude`: columns the file leaves out.
    `separator`: a CSV's (`csv_separator`); with the semicolon, decimals take a comma.
    """
    if export_format not in EXPORT_FORMATS:
        raise ValueError(f"not an export format: {export_format!r}")
    if separator not in (COMMA, SEMICOLON):
        raise ValueError(f"not a CSV separator: {separator!r}")
    exporter = _Export(
        export_format,
        table,
        exclude_columns=tuple(exclude),
        dataset_kwargs={"title": _sheet_title(title)},
        separator=separator,
    )
    content = exporter.export()
    if export_format == TableExport.CSV:
        # The byte order mark tells Excel the file is UTF-8 (names such as "Kőrösi").
        content = "\ufeff" + content
    response = HttpResponse(content, content_type=exporter.content_type())
    response["Content-Disposition"] = f'attachment; filename="{name}.{export_format}"'
    return response


def csv_separator(request: HttpRequest) -> str:
    """The separator a download's address asks for: `?sep=semicolon` for the semicolon (a
    spreadsheet set to Finnish or Hungarian), else the comma."""
    return SEMICOLON if request.GET.get("sep") == "semicolon" else COMMA


def export_name(*parts: object) -> str:
    """A file name from its parts, ASCII letters, digits and hyphens only (every browser
    reads such a name in Content-Disposition); a part with none of those is left out."""
    return "-".join(filter(None, (slugify(str(part)) for part in parts))) or "export"


def _sheet_title(title: str) -> str:
    # An XLSX sheet name: at most 31 characters, none of []:*?/\
    return "".join(" " if c in "[]:*?/\\" else c for c in str(title))[:31] or "Sheet"


def _as_text_if_formula(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def paginate_polled(
    request: HttpRequest, table: tables.Table, *, page_path: str, per_page: int
) -> tables.Table:
    """`paginate_table` for a table in the polled part of the page at `page_path`.

    The page polls its live part from a fixed address that carries no query, while the
    reader may be on page 3 sorted by name: htmx sends the address the browser shows
    (HX-Current-URL), and when that is the page's, its query sorts and pages the table, so a
    poll keeps the reader's page and order (and its paging links keep both).

    Such a table is laid out while the page renders, after the page's notes are shown, so a
    value the table does not offer gives the first page in the usual order without a note
    (one would only turn up on the next page). A page past the end is a 404 as on every
    list, except on a poll, which shows the first page (the ranking may have grown shorter).
    """
    polled = _polled_request(request, page_path=page_path)
    if not TableQueryForm(polled.GET, table=table).is_valid():
        polled = _with_query(request, "")
    try:
        return paginate_table(polled, table, per_page=per_page)
    except Http404:
        if polled is request:
            raise
        table.paginate(page=1, per_page=per_page)  # the reader's order, from the top
        return table


def _polled_request(request: HttpRequest, *, page_path: str) -> HttpRequest:
    current = request.headers.get("HX-Current-URL", "")
    if not request.headers.get("HX-Request") or request.GET or not current:
        return request
    address = urlsplit(current)
    if address.path != page_path or not address.query or "\x00" in address.query:
        return request
    return _with_query(request, address.query)


def _with_query(request: HttpRequest, query: str) -> HttpRequest:
    copied = copy.copy(request)
    copied.GET = QueryDict(query)
    return copied
