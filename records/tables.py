"""The tables of a player's record page: the events played (sortable, paged, downloadable),
the totals per game, the championships, and the Gin Römi record per opponent.

The selector (`records.selectors.player_record`) hands plain rows; these only lay
them out, for the page and for the CSV/XLSX download alike.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import django_tables2 as tables
from django.http import HttpRequest
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.figures import per_deal_text
from core.paging import paginate_table
from core.places import place_text
from core.tables import NUMBER, BaseTable, DateColumn
from records.selectors import (
    ChampionshipRow,
    DealMark,
    EventLine,
    EventRow,
    GameTotals,
    OpponentRow,
    PlayerRecord,
)

# Half a season of weekly club nights a page: the page stays quick on a phone.
EVENTS_PER_PAGE = 20
OPPONENTS_PER_PAGE = 25


def _average(value: Fraction | None) -> str:
    return per_deal_text(value)


class PlayerEventsTable(BaseTable):
    """Every event of the player's, newest first: the event (its date and game under its
    name, so the table fits a phone), the place and total there as the event's standings
    give them, and beneath the name the tables the player sat at there (each round or
    stage: the place at the table and the points there, never called the "Total")."""

    # Cells written here, not in a template each: a page of 25 rows renders fast.
    event = tables.Column(
        verbose_name=_("Event"), accessor="event_name", order_by=("date", "event_name")
    )
    # For the download: the page shows these under the event's name.
    date = DateColumn(verbose_name=_("Date"), visible=False, format="Y-m-d")
    game = tables.Column(verbose_name=_("Game"), visible=False)
    place = tables.Column(verbose_name=_("Place"), attrs=NUMBER, orderable=False)
    # The event's own "Total", as its standings say it (a head-to-head event's settlement
    # points, a series' rounds added up, an imported total).
    total = tables.Column(verbose_name=_("Total"), attrs=NUMBER, order_by=("total_key",))
    # Head to head ranks by matches won; a championship by the last stage reached.
    wins = tables.Column(verbose_name=_("Wins"), attrs=NUMBER, default="", orderable=False)
    stage = tables.Column(
        verbose_name=_("Stage reached"), attrs=NUMBER, default="", orderable=False
    )
    deals = tables.Column(verbose_name=_("Deals"), attrs=NUMBER, orderable=False)
    won = tables.Column(verbose_name=_("Deals won"), attrs=NUMBER, orderable=False)
    # Blank for a game that records none; left out when none of the player's games does.
    ravaytys = tables.Column(verbose_name=_("Räväytys"), attrs=NUMBER, default="", orderable=False)
    # For the download: the page marks a shared place "=2/8"; the place stays a number.
    ranked = tables.Column(verbose_name=_("Players"), visible=False)
    shared = tables.Column(verbose_name=_("Shared place"), visible=False)
    imported = tables.Column(verbose_name=_("Imported"), visible=False)
    # Only for the club's directors, who also see private events.
    private = tables.BooleanColumn(verbose_name=_("Private"), visible=False)

    class Meta(BaseTable.Meta):
        empty_text = _("No events played yet.")

    def render_event(self, record: EventLine) -> SafeString:
        badges = format_html(
            "{}{}",
            format_html(' <span class="badge">{}</span>', gettext("imported"))
            if record.imported
            else "",
            format_html(' <span class="badge warn">{}</span>', gettext("private"))
            if record.private
            else "",
        )
        rounds = format_html_join("", "<li>{}</li>", ((_round_text(row),) for row in record.rounds))
        return format_html(
            '<a href="{}">{}</a>{}<br><small>{} · {}</small>{}',
            record.event.get_absolute_url(),
            record.event_name,
            badges,
            date_format(record.date, "DATE_FORMAT"),
            gettext(record.game),
            format_html('<ul class="rounds">{}</ul>', rounds) if record.rounds else "",
        )

    def render_total(self, record: EventLine) -> SafeString:
        unconfirmed = (
            format_html(
                '<span class="unconfirmed" title="{}">*</span>',
                gettext("includes unconfirmed deals"),
            )
            if record.unconfirmed
            else ""
        )
        director = (
            format_html(' <span class="badge warn">{}</span>', gettext("needs the director"))
            if any(row.needs_director for row in record.rounds)
            else ""
        )
        shown = "" if record.total is None else record.total
        return format_html("<strong>{}</strong>{}{}", shown, unconfirmed, director)

    def render_place(self, record: EventLine) -> SafeString:
        # "2/8": second of the event's eight; "=2/8" shared, as every ranking marks it.
        if record.place is None:
            return format_html("")
        place = f"{place_text(record.place, record.shared)}/{record.ranked}"
        if not record.champion:
            return format_html("{}", place)
        return format_html('{} <span class="badge ok">{}</span>', place, gettext("Champion"))

    def render_deals(self, record: EventLine) -> str:
        # An imported event has no deals on the site: blank, not a zero played.
        return "" if record.imported else str(record.deals)

    def render_won(self, record: EventLine) -> str:
        return "" if record.imported else str(record.won)

    def render_ravaytys(self, record: EventLine) -> str:
        return "" if record.ravaytys is None else str(record.ravaytys)

    def value_shared(self, record: EventLine) -> str:
        return gettext("yes") if record.shared else ""

    def value_imported(self, record: EventLine) -> str:
        return gettext("yes") if record.imported else ""

    def value_event(self, record: EventLine) -> str:
        return record.event_name

    def value_game(self, record: EventLine) -> str:
        return gettext(record.game)

    def value_place(self, record: EventLine) -> int | str:
        return "" if record.place is None else record.place

    def value_total(self, record: EventLine) -> int | float | str:
        return "" if record.total is None else record.total

    def value_private(self, record: EventLine) -> str:
        return gettext("yes") if record.private else ""


def _round_text(row: EventRow) -> str:
    """A table the player sat at, under the event: its round or stage where the event has
    several, the table, the place there and the points there ("Round 2 · Table 3: 1/4,
    35 points at the table")."""
    where = gettext("Table %(number)d") % {"number": row.table}
    if row.stages > 1:
        where = f"{row.event.spec.stage_name(row.stage)} · {where}"
    return gettext("%(where)s: %(place)s, %(points)s points at the table") % {
        "where": where,
        "place": f"{place_text(row.place, row.shared)}/{row.seats}",
        "points": row.total,
    }


def player_events_table(
    record: PlayerRecord, *, request: HttpRequest | None = None
) -> PlayerEventsTable:
    """The player's events, sorted and paged from the request; without one, every row (the
    download). Columns no row needs (the wins outside head to head, the stage outside
    championships, the räväytys outside Räväytys, the shared place, the imported mark, the
    private mark for the public) are left out."""
    lines = record.lines
    exclude = []
    if not any(line.wins is not None for line in lines):
        exclude.append("wins")
    if not any(line.stage is not None for line in lines):
        exclude.append("stage")
    if not record.records_ravaytys:
        exclude.append("ravaytys")
    if not record.shows_private:
        exclude.append("private")
    if not any(line.shared for line in lines):
        exclude.append("shared")
    if not any(line.imported for line in lines):
        exclude.append("imported")
    table = PlayerEventsTable(lines, exclude=exclude)
    if request is not None:
        paginate_table(request, table, per_page=EVENTS_PER_PAGE)
    return table


class GameTotalsTable(BaseTable):
    """The player's totals in each game they have played."""

    game = tables.Column(verbose_name=_("Game"))
    events = tables.Column(verbose_name=_("Events"), attrs=NUMBER)
    deals = tables.Column(verbose_name=_("Deals"), attrs=NUMBER)
    won = tables.Column(verbose_name=_("Deals won"), attrs=NUMBER)
    firsts = tables.Column(verbose_name=_("Tables won"), attrs=NUMBER)
    ravaytys = tables.Column(verbose_name=_("Räväytys"), attrs=NUMBER, default="")
    # Penalty points per deal in a penalty game; points won per deal where higher is better.
    average = tables.Column(verbose_name=_("Points per deal"), attrs=NUMBER, default="")
    best = tables.Column(verbose_name=_("Best deal"), default="")
    worst = tables.Column(verbose_name=_("Worst deal"), default="")

    class Meta(BaseTable.Meta):
        orderable = False

    def render_game(self, record: GameTotals) -> str:
        return gettext(record.game)

    def render_best(self, value: DealMark, record: GameTotals) -> SafeString:
        return _deal_mark(value, record)

    def render_worst(self, value: DealMark, record: GameTotals) -> SafeString:
        return _deal_mark(value, record)

    def render_average(self, value: Fraction, record: GameTotals) -> SafeString:
        better = (
            gettext("lower is better") if record.lower_is_better else gettext("higher is better")
        )
        return format_html("{}<br><small>{}</small>", _average(value), better)


def _deal_mark(mark: DealMark, totals: GameTotals) -> SafeString:
    """A best or worst deal: its points (signed where higher is better), its number and
    the event it was in."""
    shown = f"+{mark.shown}" if not totals.lower_is_better and mark.shown > 0 else str(mark.shown)
    return format_html(
        '<strong>{}</strong><br><small>{} · <a href="{}">{}</a></small>',
        shown,
        gettext("deal %(number)s") % {"number": mark.number},
        mark.event.get_absolute_url(),
        mark.event.name,
    )


def game_totals_table(record: PlayerRecord) -> GameTotalsTable:
    exclude = () if record.records_ravaytys else ("ravaytys",)
    return GameTotalsTable(record.games, exclude=exclude)


class ChampionshipsTable(BaseTable):
    event = tables.Column(verbose_name=_("Championship"))
    reached = tables.Column(verbose_name=_("Stage reached"))

    class Meta(BaseTable.Meta):
        orderable = False

    def render_event(self, record: ChampionshipRow) -> SafeString:
        private = (
            format_html(' <span class="badge warn">{}</span>', gettext("private"))
            if record.private
            else ""
        )
        return format_html(
            '<a href="{}">{}</a>{}<br><small>{}</small>',
            record.event.get_absolute_url(),
            record.event.name,
            private,
            date_format(record.event.date, "DATE_FORMAT"),
        )

    def render_reached(self, record: ChampionshipRow) -> SafeString:
        text = gettext("stage %(reached)s of %(stages)s") % {
            "reached": record.reached,
            "stages": record.stages,
        }
        if not record.champion:
            return format_html("{}", text)
        return format_html('{} <span class="badge ok">{}</span>', text, gettext("Champion"))


def championships_table(rows: list[ChampionshipRow]) -> ChampionshipsTable:
    return ChampionshipsTable(rows)


class HeadToHeadTable(BaseTable):
    """The player's finished Gin Römi games, per opponent."""

    name = tables.Column(verbose_name=_("Opponent"))
    played = tables.Column(verbose_name=_("Played"), attrs=NUMBER)
    won = tables.Column(verbose_name=_("Won"), attrs=NUMBER)
    lost = tables.Column(verbose_name=_("Lost"), attrs=NUMBER)
    open = tables.Column(verbose_name=_("In play"), attrs=NUMBER)

    class Meta(BaseTable.Meta):
        empty_text = _("No Gin Römi game finished yet.")


def head_to_head_table(rows: list[OpponentRow], *, request: HttpRequest) -> HeadToHeadTable:
    # Its own prefix: the events table on the same page pages and sorts apart from it.
    table = HeadToHeadTable(rows, prefix="h2h-")
    paginate_table(request, table, per_page=OPPONENTS_PER_PAGE)
    return table


def record_tables(record: PlayerRecord, *, request: HttpRequest) -> dict[str, Any]:
    """Every table of the record page, by its name in the template (and the summary's
    average, written in the reader's way)."""
    return {
        "events_table": player_events_table(record, request=request),
        "games_table": game_totals_table(record),
        "championships_table": championships_table(record.championships),
        "h2h_table": head_to_head_table(record.head_to_head, request=request),
        "penalty_average": _average(record.penalty_average),
    }
