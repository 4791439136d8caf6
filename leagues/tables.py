"""The season league table's django-tables2 tables: the page's (sortable, paged), the
downloads' (every row) and the embed's (no links out but the player's name)."""

from __future__ import annotations

from html import escape  # the standard library's: the same five characters, at C speed
from typing import Any

import django_tables2 as tables
from django.http import HttpRequest
from django.urls import reverse
from django.utils.formats import date_format, number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.paging import paginate_table
from core.tables import NUMBER, BaseTable
from leagues.selectors import (
    LeagueCellView,
    LeagueEvent,
    LeagueLine,
    SeasonLeague,
    stored_scheme,
)
from tournaments.engine.league import LeagueKind, decider_label

# A club's season on one page; a big open league pages on.
LEAGUE_PER_PAGE = 100


def number_text(value: float) -> str:
    """17.0 as "17", 7.35 as "7,35" in Finnish: whole numbers without decimals."""
    if float(value).is_integer():
        return number_format(int(value))
    return number_format(value, decimal_pos=2)


def _plain(value: float) -> int | float:
    return int(value) if float(value).is_integer() else round(value, 2)


def event_label(event: LeagueEvent) -> str:
    """An event's column header: its date and name, and whether it is still in play or was
    imported."""
    label = f"{date_format(event.date, 'SHORT_DATE_FORMAT')} {event.name}"
    if event.imported:
        return f"{label} ({gettext('imported')})"
    return f"{label} ({gettext('in play')})" if not event.finished else label


class EventColumn(tables.Column):
    """One counted event in a download: the counted score as a number; a dropped one in
    brackets, as text, so a spreadsheet's sum of the row never adds it. (The page lays its
    event cells out itself: see :func:`row_html`.)"""

    def __init__(self, *, index: int, event: LeagueEvent) -> None:
        super().__init__(
            accessor=f"cells__{index}",
            verbose_name=event_label(event),
            default="",
            orderable=False,
        )

    def value(self, value: Any, **kwargs: Any) -> Any:
        if not isinstance(value, LeagueCellView):
            return ""
        return _plain(value.score) if value.counted else f"[{number_text(value.score)}]"


class LeagueTable(BaseTable):
    """The league table: its place, player and season figures as django-tables2 columns
    (sortable headers, paging, the downloads), and a cell per counted event after them.

    On the page a row is written out by :func:`row_html` at once, event cells and all: a
    season of 40 nights is 4,000 cells, which django-tables2's cell-by-cell rendering
    would take over a second to lay out. The downloads go through the columns as usual.
    """

    place = tables.Column(verbose_name="#", order_by=("rank_key",), default="")
    name = tables.Column(verbose_name=_("Player"))
    points = tables.Column(verbose_name=_("Points"), attrs=NUMBER)
    events = tables.Column(verbose_name=_("Events"), attrs=NUMBER)
    counted_events = tables.Column(verbose_name=_("Counted"), attrs=NUMBER)
    decided_by = tables.Column(
        verbose_name=_("Decided by"), default="", orderable=False, empty_values=(None, "")
    )

    class Meta(BaseTable.Meta):
        template_name = "leagues/_league_table.html"
        attrs = {"class": "table league"}
        empty_text = _("No event of this season has results yet.")
        order_by = ()

    def __init__(
        self, data: list[LeagueLine], *, kind: LeagueKind, event_heads: str = "", **kwargs: Any
    ) -> None:
        super().__init__(data, **kwargs)
        self.event_heads = event_heads
        if kind is not LeagueKind.PLACEMENT:
            header = _("Per game") if kind is LeagueKind.AVERAGE else _("Penalty points")
            self.columns["points"].column.verbose_name = header

    def value_place(self, record: LeagueLine) -> Any:
        return record.place if record.place is not None else ""

    def value_points(self, value: float) -> int | float:
        return _plain(value)

    def value_decided_by(self, value: str | None) -> str:
        return gettext(decider_label(value)) if value else ""


class _Numbers(dict[float, str]):
    """number_text, remembered: a season's scores repeat (placement points most of all),
    and so do the cells' titles."""

    def __init__(self) -> None:
        super().__init__()
        self.place_of = gettext("place %(place)d of %(field)d")
        self.titles: dict[tuple[int, int], str] = {}

    def __missing__(self, value: float) -> str:
        text = self[value] = number_text(value)
        return text

    def title(self, place: int, field: int) -> str:
        title = self.titles.get((place, field))
        if title is None:
            title = escape(self.place_of % {"place": place, "field": field})
            self.titles[(place, field)] = title
        return title


def event_heads(league: SeasonLeague, *, top: bool = False) -> SafeString:
    """The event columns' headers, each linked to the event's page (published events only
    are in the table); `top`: the link leaves the iframe."""
    slug = league.season.club.slug
    heads = []
    for event in league.events:
        address = reverse("event_public", args=[slug, event.id])
        label = f'<a href="{address}"{_TARGET if top else ""}>{escape(event_label(event))}</a>'
        heads.append(f'<th class="num event">{label}</th>')
    return mark_safe("".join(heads))


_TARGET = ' target="_top"'


def row_html(line: LeagueLine, numbers: _Numbers, *, top: bool = False) -> SafeString:
    """The row as the page shows it: place, player (linked to their record when it is
    public), the season's figures, what decided the place, then one cell per event, a
    dropped one struck through. Every value is escaped; `top`: links leave the iframe."""
    target = _TARGET if top else ""
    name = escape(line.name)
    if line.linked:
        address = reverse("player_record", args=[line.club_slug, line.player_id])
        name = f'<a href="{address}"{target}>{name}</a>'
    decided = escape(gettext(decider_label(line.decided_by))) if line.decided_by else ""
    dropped = escape(gettext("not counted"))
    cells = []
    for cell in line.cells:
        if cell is None:
            cells.append('<td class="num"></td>')
            continue
        title = numbers.title(cell.place, cell.field)
        score = numbers[cell.score]
        if cell.counted:
            cells.append(f'<td class="num"><span title="{title}">{score}</span></td>')
        else:
            cells.append(
                f'<td class="num"><s class="dropped" title="{title} · {dropped}">{score}</s></td>'
            )
    row_class = "" if line.ranked else ' class="unranked"'
    html = (
        f"<tr{row_class}><td>{escape(line.place_label)}</td><td>{name}</td>"
        f'<td class="num">{numbers[line.points]}</td><td class="num">{line.events}</td>'
        f'<td class="num">{line.counted_events}</td><td>{decided}</td>{"".join(cells)}</tr>'
    )
    return mark_safe(html)


def league_table(
    league: SeasonLeague,
    rows: list[LeagueLine] | None = None,
    *,
    request: HttpRequest | None = None,
    embed: bool = False,
    per_page: int = LEAGUE_PER_PAGE,
) -> LeagueTable:
    """The season's table (or `rows` of it) for a page, sorted and paged from `request`;
    `embed`: for the iframe (links open in the whole window)."""
    lines = league.rows if rows is None else rows
    numbers = _Numbers()
    for line in lines:
        line.html = row_html(line, numbers, top=embed)
    heads = event_heads(league, top=embed)
    table = LeagueTable(lines, kind=league.scheme.kind, event_heads=heads)
    if request is not None:
        paginate_table(request, table, per_page=per_page)
    return table


def export_table(league: SeasonLeague) -> LeagueTable:
    """Every row, ranked then unranked, with a column per event: for CSV and XLSX."""
    columns = [
        (f"event_{event.id}", EventColumn(index=index, event=event))
        for index, event in enumerate(league.events)
    ]
    return LeagueTable(league.rows, kind=league.scheme.kind, extra_columns=columns)


def scheme_text(stored: Any) -> str:
    """A stored scheme in plain words, in the reader's language (a bad one as the default):
    "placement points 10, 7, 5, 3, 1; best 8 events count; …"."""
    scheme = stored_scheme(stored)
    if scheme.kind is LeagueKind.PLACEMENT:
        parts = [
            gettext("placement points %(points)s")
            % {"points": ", ".join(str(p) for p in scheme.points)}
        ]
        if scheme.scale_by_table:
            parts.append(gettext("scaled by the size of the field"))
    elif scheme.kind is LeagueKind.PENALTY_TOTAL:
        parts = [gettext("penalty points added up, fewest first")]
    else:
        parts = [gettext("average penalty points per game, fewest first")]
    if scheme.best_n is None:
        parts.append(gettext("every event counts"))
    else:
        parts.append(
            ngettext(
                "the best %(count)d event counts",
                "the best %(count)d events count",
                scheme.best_n,
            )
            % {"count": scheme.best_n}
        )
    if scheme.min_events:
        parts.append(
            ngettext(
                "ranked after %(count)d event",
                "ranked after %(count)d events",
                scheme.min_events,
            )
            % {"count": scheme.min_events}
        )
    if scheme.tie_order:
        ties = ", ".join(gettext(tie.label) for tie in scheme.tie_order)
        parts.append(gettext("ties go by %(order)s") % {"order": ties})
    else:
        parts.append(gettext("ties share the place"))
    return "; ".join(parts)
