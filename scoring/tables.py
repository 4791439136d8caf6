"""The score screens' tables: the event's ranking and a table's sheet (its totals matrix).

Selectors hand plain rows (`event_ranking`, `sheet_points_matrix`); these tables only lay
them out, for the page and for the CSV/XLSX downloads alike.
"""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from core.tables import NUMBER, BaseTable
from scoring.selectors import DealHead, PointsMatrix, SheetRow


# A 1000-player event's ranking: ten pages, each still quick to read on a phone.
class DealColumn(tables.Column):
    """One deal's points. A voided deal's stay on the page, struck through; a download
    leaves them out, since they count for nobody and a spreadsheet would add them up."""

    def __init__(self, *, index: int, deal: DealHead, header: str, **kwargs: Any) -> None:
        td = "num voided" if deal.voided else "num"
        title = f"{gettext('Deal')} {deal.number}"
        super().__init__(
            accessor=f"points__{index}",
            verbose_name=header,
            default="",
            orderable=False,
            attrs={"th": {"class": "num", "title": title}, "td": {"class": td}},
            **kwargs,
        )
        self.voided = deal.voided

    def value(self, value: Any, **kwargs: Any) -> Any:
        return None if self.voided else value


class TotalsTable(BaseTable):
    """A table's sheet: place, player, totals, then a column per deal."""

    place = tables.Column(verbose_name="#")
    player = tables.TemplateColumn(
        template_name="tables/cells/totals_player.html", verbose_name=_("Player")
    )
    total = tables.Column(verbose_name=_("Total"), attrs=NUMBER)
    units = tables.Column(verbose_name=_("Units"), attrs=NUMBER, default="")
    final = tables.Column(verbose_name=_("Settlement"), attrs=NUMBER, default="")

    class Meta(BaseTable.Meta):
        attrs = {"class": "table totals"}
        orderable = False

    def render_total(self, value: int) -> SafeString:
        return format_html("<strong>{}</strong>", value)

    def render_final(self, value: int) -> SafeString:
        return format_html("<strong>{}</strong>", value)

    def value_player(self, record: SheetRow) -> str:
        return record.player

    def value_total(self, record: SheetRow) -> int:
        return record.total

    def value_final(self, record: SheetRow) -> int | None:
        return record.final


def totals_table(
    matrix: PointsMatrix,
    *,
    director: bool = False,
    export: bool = False,
) -> TotalsTable:
    """The sheet of `matrix`: each row says its seat (the page marks the phone's own by it,
    so the sheet is the same for every phone at the table and cached once), the deal numbers
    linked to their correction for a director; `export`: plain headers for a download."""
    key = matrix.table.entry_key
    columns = [
        (
            f"deal_{deal.number}",
            DealColumn(index=index, deal=deal, header=_deal_header(deal, key, director, export)),
        )
        for index, deal in enumerate(matrix.deals)
    ]
    exclude = [
        name
        for name, shown in (("units", matrix.has_units), ("final", matrix.has_final))
        if not shown
    ]
    return TotalsTable(
        matrix.rows,
        extra_columns=columns,
        exclude=exclude,
        row_attrs={"data-seat": lambda record: record.seat.position},
    )


def _deal_header(deal: DealHead, key: str, director: bool, export: bool) -> str:
    mark = gettext("voided") if deal.voided else "" if deal.confirmed else "*"
    if export:
        return f"{deal.number} {mark}" if deal.voided else f"{deal.number}{mark}"
    number = (
        format_html(
            '<a href="{}" title="{}">{}</a>',
            reverse("deal_edit", args=[key, deal.number]),
            gettext("Correct"),
            deal.number,
        )
        if director
        else format_html("{}", deal.number)
    )
    if deal.voided:
        return format_html('{} <span class="badge">{}</span>', number, mark)
    return format_html("{}{}", number, mark)


class EnteredTable(BaseTable):
    """A deal waiting for confirmation, seat by seat in seat order: what its table entered
    and what it scores, for the phone that confirms it to check against the table."""

    player = tables.Column(verbose_name=_("Player"), accessor="seat__player__name")
    entered = tables.TemplateColumn(
        template_name="tables/cells/entered_facts.html",
        verbose_name=_("Entered"),
        accessor="facts",
    )
    points = tables.Column(verbose_name=_("Points"), attrs=NUMBER, default="")

    class Meta(BaseTable.Meta):
        attrs = {"class": "table entered"}
        orderable = False


class HistoryTable(BaseTable):
    """One deal's versions, oldest first: what was done, when, by whom, and what changed."""

    action = tables.Column(
        # A heading (what was done to the deal), not the language menu's "Change" button.
        verbose_name=pgettext_lazy("history column", "Change"),
        accessor="version__get_action_display",
        orderable=False,
    )
    when = tables.DateTimeColumn(
        verbose_name=_("When"), accessor="version__created_at", format="SHORT_DATETIME_FORMAT"
    )
    who = tables.TemplateColumn(
        template_name="tables/cells/history_who.html", verbose_name=_("By"), orderable=False
    )
    points = tables.Column(verbose_name=_("Points"), accessor="points", orderable=False)
    changes = tables.TemplateColumn(
        template_name="tables/cells/history_changes.html",
        verbose_name=_("What changed"),
        orderable=False,
    )
    # The director's reason for a correction or a void.
    why = tables.Column(
        verbose_name=_("Why"), accessor="version__note", default="—", orderable=False
    )

    class Meta(BaseTable.Meta):
        orderable = False
        # On a phone each version reads as a card (static/css/site.css, table.history): six
        # columns pushed "What changed" and "Why" out of sight in the scroll box.
        attrs = {"class": "table history"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for column in self.columns:
            # Each cell names its column, for the card's label where the header is hidden.
            column.column.attrs = {
                **column.column.attrs,
                "td": {**column.column.attrs.get("td", {}), "data-label": column.header},
            }

    def render_points(self, value: list[tuple[str, int]]) -> str:
        # Named, so a director reads whose points they are without counting seats; the
        # points never wrap away from their name on a phone.
        return ", ".join(f"{name}\u00a0{points}" for name, points in value)


def history_tables(items: list[Any]) -> list[tuple[Any, HistoryTable]]:
    """(deal's history, its table) for every deal of a table's history page."""
    return [(item, HistoryTable(item.lines)) for item in items]
