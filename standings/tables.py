"""The score screens' tables: the event's ranking and a table's sheet (its totals matrix).

Selectors hand plain rows (`event_ranking`, `sheet_points_matrix`); these tables only lay
them out, for the page and for the CSV/XLSX downloads alike.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import django_tables2 as tables
from django.http import HttpRequest
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.places import place_text
from core.tables import NUMBER, BaseTable, paginate_polled
from standings.selectors import RankingRow
from tournaments.tiebreaks import TOTAL, tie_break_label, tie_break_short_label

# A 1000-player event's ranking: ten pages, each still quick to read on a phone.
RANKING_PER_PAGE = 100


class RankingTable(BaseTable):
    place = tables.Column(verbose_name="#")
    # The name links to the player's record.
    player = tables.TemplateColumn(
        template_name="standings/cells/ranking_player.html", verbose_name=_("Player")
    )
    table = tables.Column(verbose_name=_("Table"), attrs=NUMBER)
    deals = tables.Column(verbose_name=_("Deals"), attrs=NUMBER, orderable=False)
    # The total with its marks: * for unconfirmed deals, and a table that needs the director.
    total = tables.TemplateColumn(
        template_name="standings/cells/ranking_total.html", verbose_name=_("Total"), attrs=NUMBER
    )
    # Each shown only while the ranking goes by it (tables at different deals, by the
    # event's ranking mode); the downloads keep their columns, the plain numbers.
    average = tables.Column(
        verbose_name=_("Per deal"),
        attrs=NUMBER,
        orderable=False,
        default="",
        exclude_from_export=True,
    )
    # Its header names the number of deals (set per table, in `__init__`).
    after_total = tables.Column(
        verbose_name=_("After the same deals"),
        attrs=NUMBER,
        orderable=False,
        default="",
        exclude_from_export=True,
    )
    # The tie-break that set the row apart from the one above (blank where the total did,
    # and on a shared place); hidden on the page while no tie-break decided anything, but
    # always in the downloads.
    decided_by = tables.Column(verbose_name=_("Decided by"), orderable=False, default="")

    class Meta(BaseTable.Meta):
        # Its caption says which ordering the ranking is in.
        template_name = "standings/ranking_table.html"

    def __init__(self, data: list[RankingRow], **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        first = data[0] if data else None
        self.caption = ranking_caption(first) if first else ""
        if first is None or not first.by_average:
            self.columns.hide("average")
        if first is None or first.after_deals is None:
            self.columns.hide("after_total")
        else:
            self.columns["after_total"].column.verbose_name = ngettext(
                "After %(count)d deal", "After %(count)d deals", first.after_deals
            ) % {"count": first.after_deals}
        if not any(row.decided_by not in (None, TOTAL) for row in data):
            self.columns.hide("decided_by")

    def render_place(self, record: RankingRow) -> str:
        return place_text(record.place, record.shared)

    def value_place(self, record: RankingRow) -> int:
        return record.place

    def value_player(self, record: RankingRow) -> str:
        return record.player

    def render_average(self, value: Fraction) -> str:
        # number_format cuts the digits off (22.29 would read 22.2): round first.
        return number_format(round(float(value), 1), decimal_pos=1)

    def value_total(self, record: RankingRow) -> int:
        return record.total

    def render_decided_by(self, value: str) -> str:
        if value == TOTAL:
            return ""
        return format_html(
            '<span class="decided" title="{}">{}</span>',
            gettext(tie_break_label(value)),
            gettext(tie_break_short_label(value)),
        )

    def value_decided_by(self, record: RankingRow) -> str:
        if record.decided_by in (None, TOTAL):
            return ""
        return gettext(tie_break_short_label(record.decided_by))


def ranking_caption(row: RankingRow) -> str:
    """Which ordering the ranking is in, as its caption says it (`row`: any of its rows)."""
    if row.by_average:
        return gettext("Ranked by points per deal while the tables are at different deals.")
    if row.after_deals is not None:
        return ngettext(
            "Ranked by points after %(count)d deal, the fewest any table has played.",
            "Ranked by points after %(count)d deals, the fewest any table has played.",
            row.after_deals,
        ) % {"count": row.after_deals}
    return gettext("Ranked by total points.")


def ranking_table(
    rows: list[RankingRow], *, request: HttpRequest | None = None, page_path: str = ""
) -> RankingTable:
    """The ranking for the page at `page_path`, sorted and paged from the request (also on
    a poll of the page's live part); without a request, every row (the downloads)."""
    table = RankingTable(rows)
    if request is not None:
        paginate_polled(request, table, page_path=page_path, per_page=RANKING_PER_PAGE)
    return table
