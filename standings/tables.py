"""The score screens' tables: the event's ranking and a table's sheet (its totals matrix).

Selectors hand plain rows (`event_ranking`, `sheet_points_matrix`); these tables only lay
them out, for the page and for the CSV/XLSX downloads alike.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import django_tables2 as tables
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.figures import per_deal_text, per_deal_value
from core.places import place_text
from core.tables import (
    COMMA,
    NUMBER,
    BaseTable,
    export_name,
    export_response,
    paginate_polled,
)
from standings.selectors import RankingRow
from standings.standings import (
    BY_IMPORTED,
    BY_MATCH_WINS,
    BY_SERIES_PLACEMENT,
    BY_STAGE_REACHED,
    OPTIONAL_COLUMNS,
    Standings,
)
from tournaments.engine.tiebreaks import names_a_tie_break, tie_break_label, tie_break_short_label

# The columns only some formats' standings fill.
FORMAT_COLUMNS = ("stage", "rounds", "matches", "wins", "byes", "points", "units")

# A 1000-player event's ranking: ten pages, each still quick to read on a phone.
RANKING_PER_PAGE = 100


SEQUENCE = (
    "place", "player", "total", "average", "after_total", "unconfirmed", "stage", "table",
    "rounds", "matches", "wins", "byes", "deals", "ravaytys", "units", "points", "decided_by",
    "shared",
)  # fmt: skip
# The column of the figure a standings ranks by, where it is not the total (or a figure of
# it, which follow the total): next to the player's name, so a phone shows it without
# scrolling the table sideways.
RANKED_COLUMN = {
    BY_SERIES_PLACEMENT: "points",
    BY_MATCH_WINS: "wins",
    BY_STAGE_REACHED: "stage",
}


def _sequence(ranked_by: str | None) -> tuple[str, ...]:
    key = RANKED_COLUMN.get(ranked_by or "", "total")
    lead = ("place", "player", key, "total") if key != "total" else ("place", "player", "total")
    return (*lead, *(name for name in SEQUENCE if name not in lead))


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
    # The other formats' figures (`standings.standings`), each shown where a row fills it:
    # a championship's last stage, a series' rounds and placement points, head to head's
    # matches, wins and byes.
    stage = tables.Column(verbose_name=_("Stage reached"), attrs=NUMBER, default="")
    rounds = tables.Column(verbose_name=_("Rounds"), attrs=NUMBER, default="")
    matches = tables.Column(verbose_name=_("Matches"), attrs=NUMBER, default="")
    wins = tables.Column(verbose_name=_("Wins"), attrs=NUMBER, default="")
    byes = tables.Column(verbose_name=_("Byes"), attrs=NUMBER, default="")
    points = tables.Column(verbose_name=_("Placement points"), attrs=NUMBER, default="")
    units = tables.Column(verbose_name=_("Units"), attrs=NUMBER, orderable=False, default="")
    # Shown on the page only while the ranking goes by it (tables at different deals, by
    # the event's ranking mode); the downloads always have the points per deal, a number
    # as the feed has it (`RankingRow.per_deal`).
    average = tables.Column(
        verbose_name=_("Per deal"),
        attrs=NUMBER,
        orderable=False,
        default="",
    )
    # Its header names the number of deals (set per table, in `__init__`); shown, and in the
    # downloads, while the ranking goes by it.
    after_total = tables.Column(
        verbose_name=_("After the same deals"),
        attrs=NUMBER,
        orderable=False,
        default="",
    )
    # The downloads' words for the page's marks beside the total (the total itself stays a
    # number a spreadsheet adds up): the * of a total with unconfirmed deals, while any is
    # unconfirmed, and the R of the räväytys, in a game that records them.
    unconfirmed = tables.Column(
        verbose_name=_("Includes unconfirmed deals"), orderable=False, visible=False
    )
    ravaytys = tables.Column(
        verbose_name=_("Räväytys"), attrs=NUMBER, orderable=False, visible=False
    )
    # The page's "=" of a shared place, while any is shared: the place stays a number.
    shared = tables.Column(verbose_name=_("Shared place"), orderable=False, visible=False)
    # The tie-break that set the row apart from the one above (blank where the total did,
    # and on a shared place); hidden on the page while no tie-break decided anything, but
    # always in the downloads.
    decided_by = tables.Column(verbose_name=_("Decided by"), orderable=False, default="")

    class Meta(BaseTable.Meta):
        # Its caption says which ordering the ranking is in.
        template_name = "standings/ranking_table.html"
        attrs = {"class": "table ranking-table"}
        # The figure the ranking goes by and the total's own figures, then where and how much
        # a player played, the other figures, the tie-break (`_sequence`: the ranking's own
        # figure first).
        sequence = SEQUENCE

    def __init__(
        self, data: list[RankingRow], *, standings: Standings | None = None, **kwargs: Any
    ) -> None:
        ranked_by = standings.ranked_by if standings is not None else None
        super().__init__(data, sequence=_sequence(ranked_by), **kwargs)
        first = data[0] if data else None
        self.caption = ranking_caption(first) if first else ""
        shown = standings.columns if standings is not None else _filled_columns(data)
        if standings is not None:
            self.caption = standings.caption
            if standings.champion is not None:
                self.champion = standings.champion
        # A format's column no row fills is left off the page and out of the downloads.
        self.export_excluded = [name for name in FORMAT_COLUMNS if name not in shown]
        if standings is not None and standings.ranked_by in (BY_MATCH_WINS, BY_IMPORTED):
            self.export_excluded += ["table", "deals"]  # a match has neither, nor an import
        if standings is not None and standings.ranked_by == BY_STAGE_REACHED:
            self.export_excluded.append("deals")  # the last table's, which places nobody
        if not any(row.average is not None for row in data):
            self.export_excluded.append("average")
        if first is None or first.after_deals is None:
            self.export_excluded.append("after_total")
        if not any(row.unconfirmed for row in data):
            self.export_excluded.append("unconfirmed")
        if not any(row.shared for row in data):
            self.export_excluded.append("shared")
        if "ravaytys" not in shown and not (standings and standings.records_ravaytys):
            self.export_excluded.append("ravaytys")
        for name in self.export_excluded:
            self.columns.hide(name)
        if first is None or not first.by_average:
            self.columns.hide("average")
        if first is None or first.after_deals is None:
            self.columns.hide("after_total")
        else:
            self.columns["after_total"].column.verbose_name = ngettext(
                "After %(count)d deal", "After %(count)d deals", first.after_deals
            ) % {"count": first.after_deals}
        if not any(names_a_tie_break(row.decided_by) for row in data):
            self.columns.hide("decided_by")

    def render_place(self, record: RankingRow) -> str:
        return place_text(record.place, record.shared)

    def value_place(self, record: RankingRow) -> int:
        return record.place

    def value_player(self, record: RankingRow) -> str:
        return record.player

    def render_average(self, value: Fraction) -> str:
        return per_deal_text(value)

    def value_average(self, record: RankingRow) -> Decimal | str:
        rounded = per_deal_value(record.average)
        return "" if rounded is None else rounded

    def value_unconfirmed(self, record: RankingRow) -> str:
        return gettext("yes") if record.unconfirmed else ""

    def value_shared(self, record: RankingRow) -> str:
        return gettext("yes") if record.shared else ""

    def value_total(self, record: RankingRow) -> int:
        return record.total

    def render_decided_by(self, value: str) -> str:
        if not names_a_tie_break(value):
            return ""
        return format_html(
            '<span class="decided" title="{}">{}</span>',
            gettext(tie_break_label(value)),
            gettext(tie_break_short_label(value)),
        )

    def value_decided_by(self, record: RankingRow) -> str:
        if not names_a_tie_break(record.decided_by):
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


def _filled_columns(rows: list[RankingRow]) -> frozenset[str]:
    return frozenset(
        name
        for name in OPTIONAL_COLUMNS
        if any(
            getattr(row, name) not in ((None,) if name == "units" else (None, 0)) for row in rows
        )
    )


def ranking_table(
    rows: list[RankingRow] | Standings,
    *,
    request: HttpRequest | None = None,
    page_path: str = "",
) -> RankingTable:
    """The ranking (a standings' rows, or plain rows) for the page at `page_path`, sorted
    and paged from the request (also on a poll of the page's live part); without a
    request, every row (the downloads)."""
    if isinstance(rows, Standings):
        table = RankingTable(rows.rows, standings=rows)
    else:
        table = RankingTable(rows)
    if request is not None:
        paginate_polled(request, table, page_path=page_path, per_page=RANKING_PER_PAGE)
    return table


def standings_download(
    standings: Standings, export_format: str, title: str, separator: str = COMMA
) -> HttpResponse:
    """A standings' every row as CSV or XLSX: the columns the page shows, the points per
    deal, and the page's marks in words (`RankingTable`); a CSV's fields by `separator`."""
    table = ranking_table(standings)
    return export_response(
        table,
        export_format=export_format,
        name=export_name(standings.event.name, title),
        title=title,
        exclude=table.export_excluded,
        separator=separator,
    )
