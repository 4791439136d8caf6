"""Printed sheets for the notice board: an event's standings, a stage's seating list, a
season's league table and a championship's bracket, each a PDF (:class:`PrintFile`).

Each shows what the public page shows (the club's "confirmed results only" setting
included), laid out to be read standing up: large type, a header repeated on every page of
a long list, and never a row, a table's card or a hall section split across pages. The
words are in the language asked for (the event's, the club's or the reader's).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from django.utils.formats import date_format, number_format
from django.utils.text import slugify
from django.utils.translation import get_language, gettext, ngettext, override

from formats.championship import Bracket, championship_bracket
from leagues.selectors import SeasonLeague
from leagues.services import season_league
from leagues.tables import number_text, scheme_text
from printing.pdf import PDF, PrintFile, render_pdf
from scoring.selectors import TableSheet, event_sheets, stage_sheets
from standings.selectors import RankingRow, event_ranking
from standings.tables import ranking_caption
from tournaments.league import LeagueKind, decider_label
from tournaments.models import Event, Season, Stage
from tournaments.tiebreaks import TOTAL, tie_break_short_label

# A hall section of the seating list: this many tables' cards on one page (two columns of
# four), so that the names stay at 18 pt, readable from a metre; tables of five or six
# players take a row less (`seating_per_page`).
SEATING_PER_PAGE = 8
SEATING_PER_PAGE_BIG_TABLES = 6
# A league of more events than this is printed across the paper (landscape).
LEAGUE_PORTRAIT_EVENTS = 6
# A bracket is laid out as columns of stages, across the paper, while its widest stage
# has no more tables than this; a bigger one goes stage by stage, down the page.
BRACKET_COLUMN_TABLES = 6


def _name(*parts: object) -> str:
    return "-".join(slugify(str(part)) or "x" for part in parts) + ".pdf"


def css_text(*parts: object) -> str:
    """`parts` joined by " · " as the inside of a CSS string (the page footer's
    ``content``): quotes, backslashes and anything that could end the style element are
    written as CSS escapes. Safe to print unescaped inside ``<style>``."""
    text = " · ".join(str(part) for part in parts if part)
    return "".join(
        f"\\{ord(char):x} " if char in '\\"<>&' or ord(char) < 32 else char for char in text
    )


def _pdf(
    filename: str, template: str, context: dict[str, Any], language: str, size: str | None
) -> PrintFile:
    return PrintFile(filename, PDF, render_pdf(template, context, language=language, size=size))


# -- standings ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    """A ranking row as the sheet prints it: every cell already in words."""

    place: str
    player: str
    table: int
    deals: int
    total: int
    average: str
    after_total: str
    decided_by: str
    unconfirmed: bool
    needs_director: bool
    ravaytys: int


def _standing_line(row: RankingRow) -> StandingLine:
    decided = (
        gettext(tie_break_short_label(row.decided_by))
        if row.decided_by not in (None, TOTAL)
        else ""
    )
    return StandingLine(
        place=row.place_label,
        player=row.player,
        table=row.table,
        deals=row.deals,
        total=row.total,
        # As the page: one decimal, rounded first (number_format would cut it off).
        average=(
            number_format(round(float(row.average), 1), decimal_pos=1)
            if row.average is not None
            else ""
        ),
        after_total="" if row.after_total is None else str(row.after_total),
        decided_by=decided,
        unconfirmed=row.unconfirmed,
        needs_director=row.needs_director,
        ravaytys=row.ravaytys,
    )


def standings_context(
    *, event: Event, stage: Stage | None = None, sheets: list[TableSheet] | None = None
) -> dict[str, Any]:
    """The standings sheet's context (in the active language): the ranking as the public
    page has it, from confirmed deals alone when the club shows only those."""
    confirmed_only = event.club.public_confirmed_only
    if sheets is None:
        sheets = (
            event_sheets(event=event, confirmed_only=confirmed_only)
            if stage is None
            else stage_sheets(stage=stage, confirmed_only=confirmed_only)
        )
    ranking = event_ranking(event=event, sheets=sheets)
    lines = [_standing_line(row) for row in ranking]
    first = ranking[0] if ranking else None
    return {
        "event": event,
        "stage": stage,
        "lines": lines,
        "caption": ranking_caption(first) if first else "",
        "by_average": bool(first and first.by_average),
        "after_deals": first.after_deals if first else None,
        # The header the page gives that column (scoring.tables.RankingTable).
        "after_label": (
            ngettext("After %(count)d deal", "After %(count)d deals", first.after_deals)
            % {"count": first.after_deals}
            if first and first.after_deals is not None
            else ""
        ),
        "decided": any(line.decided_by for line in lines),
        "ravaytys": any(line.ravaytys for line in lines),
        "pending": any(sheet.unconfirmed for sheet in sheets),
        "withheld": any(sheet.withheld for sheet in sheets),
        "finished": bool(sheets) and all(sheet.standing.finished for sheet in sheets),
        "date": date_format(event.date, "DATE_FORMAT"),
        "footer": css_text(event.club.name, event.name, date_format(event.date, "DATE_FORMAT")),
    }


def standings_file(
    *, event: Event, language: str, size: str | None = None, stage: Stage | None = None
) -> PrintFile:
    """The event's standings (or one stage's, `stage`) for the notice board."""
    with override(language):
        context = standings_context(event=event, stage=stage)
    parts: list[object] = [event.club.slug, event.pk, "standings"]
    if stage is not None:
        parts.insert(2, f"stage-{stage.number}")
    return _pdf(_name(*parts), "print/boards_standings.html", context, language, size)


# -- seating list -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    seat: int
    player: str
    first_dealer: bool
    # Who deals when: 1 for the first dealer, then on round the table in seat order.
    deals: int


@dataclass(frozen=True)
class TableCard:
    number: int
    seats: list[SeatLine]


@dataclass(frozen=True)
class FindLine:
    player: str
    table: int
    seat: int


def _card(sheet: TableSheet) -> TableCard:
    seats = sorted(sheet.seats, key=lambda seat: seat.position)
    count = len(seats)
    first = next((index for index, seat in enumerate(seats) if seat.is_first_dealer), 0)
    return TableCard(
        number=sheet.table.number,
        seats=[
            SeatLine(
                seat=seat.position + 1,
                player=seat.player.name,
                first_dealer=index == first,
                deals=(index - first) % count + 1,
            )
            for index, seat in enumerate(seats)
        ],
    )


# Letters a language sorts after the one they are made from (Finnish: å, ä, ö after z;
# Hungarian: ö, ő after o, ü, ű after u); other accented letters sort as their base letter.
_OWN_LETTERS = {
    "fi": {"å": "{", "ä": "|", "ö": "}"},  # the three characters after z
    "hu": {"ö": "o{", "ő": "o{", "ü": "u{", "ű": "u{"},
}


def name_key(name: str, language: str) -> str:
    """`name` as the list by name sorts it in `language`'s alphabet (near enough for a
    notice board: Hungarian's double letters, cs or sz, are not letters of their own here)."""
    own = _OWN_LETTERS.get(language, {})
    letters = []
    for char in name.casefold():
        if char in own:
            letters.append(own[char])
            continue
        base = unicodedata.normalize("NFKD", char)
        letters.append("".join(c for c in base if not unicodedata.combining(c)))
    return "".join(letters)


def seating_per_page(cards: list[TableCard]) -> int:
    """How many tables' cards fit a page at the seating list's type size."""
    widest = max((len(card.seats) for card in cards), default=0)
    return SEATING_PER_PAGE if widest <= 4 else SEATING_PER_PAGE_BIG_TABLES


def seating_context(*, stage: Stage, per_page: int | None = None) -> dict[str, Any]:
    """The seating list's context: the tables by number, `per_page` to a page (a hall
    section; by default as many as fit), and every player alphabetically with their table
    and seat."""
    cards = [_card(sheet) for sheet in stage_sheets(stage=stage)]
    per_page = max(1, per_page or seating_per_page(cards))
    sections = [
        {
            "first": part[0].number,
            "last": part[-1].number,
            "tables": part,
            # Two cards a row; an odd last card beside an empty cell.
            "rows": [
                (part[i], part[i + 1] if i + 1 < len(part) else None)
                for i in range(0, len(part), 2)
            ],
        }
        for part in (cards[i : i + per_page] for i in range(0, len(cards), per_page))
    ]
    find = sorted(
        (FindLine(seat.player, card.number, seat.seat) for card in cards for seat in card.seats),
        key=lambda line: (name_key(line.player, get_language()), line.table),
    )
    return {
        "event": stage.event,
        "stage": stage,
        # "Stage 2" for a championship, "Round 2" for a series: the format's own word.
        "stage_name": stage.event.spec.stage_name(stage.number),
        "sections": sections,
        "find": find,
        "players": len(find),
        "tables": len(cards),
        "date": date_format(stage.event.date, "DATE_FORMAT"),
        "footer": css_text(
            stage.event.club.name, stage.event.name, date_format(stage.event.date, "DATE_FORMAT")
        ),
    }


def seating_file(
    *, stage: Stage, language: str, size: str | None = None, per_page: int | None = None
) -> PrintFile:
    """Who sits where at `stage`, in large type, one hall section (`per_page` tables, by
    default as many as fit) to a page, then the players alphabetically with their table
    and seat."""
    with override(language):
        context = seating_context(stage=stage, per_page=per_page)
    event = stage.event
    filename = _name(event.club.slug, event.pk, f"stage-{stage.number}", "seating")
    return _pdf(filename, "print/boards_seating.html", context, language, size)


# -- league table -------------------------------------------------------------------------------


def league_context(league: SeasonLeague) -> dict[str, Any]:
    """The league sheet's context: ranked then unranked, one numbered column per event
    (the key below the table names them), dropped results struck through."""
    kind = league.scheme.kind
    if kind is LeagueKind.PLACEMENT:
        points = gettext("Points")
    elif kind is LeagueKind.AVERAGE:
        points = gettext("Per game")
    else:
        points = gettext("Penalty points")

    def lines(rows: list[Any]) -> list[dict[str, Any]]:
        return [
            {
                "place": row.place_label,
                "name": row.name,
                "points": number_text(row.points),
                "events": row.events,
                "counted": row.counted_events,
                "decided_by": gettext(decider_label(row.decided_by)) if row.decided_by else "",
                "cells": [
                    None
                    if cell is None
                    else {"score": number_text(cell.score), "counted": cell.counted}
                    for cell in row.cells
                ],
            }
            for row in rows
        ]

    ranked, unranked = lines(league.ranked), lines(league.unranked)
    season = league.season
    return {
        "season": season,
        "club": season.club,
        "league": league,
        "events": [
            {
                "number": index,
                "name": event.name,
                "date": date_format(event.date, "SHORT_DATE_FORMAT"),
                "finished": event.finished,
            }
            for index, event in enumerate(league.events, start=1)
        ],
        "ranked": ranked,
        "unranked": unranked,
        "points_label": points,
        "decided": any(line["decided_by"] for line in ranked + unranked),
        "dropped": any(
            cell is not None and not cell["counted"]
            for line in ranked + unranked
            for cell in line["cells"]
        ),
        "scheme_text": scheme_text(league.scheme.to_dict()),
        "landscape": len(league.events) > LEAGUE_PORTRAIT_EVENTS,
        "starts": date_format(season.starts_on, "SHORT_DATE_FORMAT"),
        "ends": date_format(season.ends_on, "SHORT_DATE_FORMAT"),
        "footer": css_text(season.club.name, season.name),
        "computed": date_format(league.computed_at, "SHORT_DATETIME_FORMAT")
        if league.computed_at
        else "",
    }


def league_file(*, season: Season, language: str, size: str | None = None) -> PrintFile:
    """The season's league table as the public page has it (published events only)."""
    league = season_league(season=season)
    with override(language):
        context = league_context(league)
    filename = _name(season.club.slug, f"season-{season.pk}", "league")
    return _pdf(filename, "print/boards_league.html", context, language, size)


# -- championship bracket -----------------------------------------------------------------------


def bracket_context(*, event: Event, bracket: Bracket | None = None) -> dict[str, Any]:
    """The bracket sheet's context: the stages side by side while they fit across the
    paper (`columns`), else one after another; the champion and the final ranking."""
    bracket = bracket or championship_bracket(event=event)
    widest = max((len(stage.tables) for stage in bracket.stages), default=0)
    columns = len(bracket.stages) > 1 and widest <= BRACKET_COLUMN_TABLES
    return {
        "event": event,
        "bracket": bracket,
        "columns": columns,
        "advances": any(
            seat.advances
            for stage in bracket.stages
            for table in stage.tables
            for seat in table.seats
        ),
        "last_stage": bracket.stages[-1].number if bracket.stages else None,
        "date": date_format(event.date, "DATE_FORMAT"),
        "footer": css_text(event.club.name, event.name, date_format(event.date, "DATE_FORMAT")),
    }


def bracket_file(*, event: Event, language: str, size: str | None = None) -> PrintFile:
    """The championship's bracket: every seated stage's tables, who went on, the champion."""
    with override(language):
        context = bracket_context(event=event)
    filename = _name(event.club.slug, event.pk, "bracket")
    return _pdf(filename, "print/boards_bracket.html", context, language, size)


__all__ = [
    "bracket_file",
    "league_file",
    "seating_file",
    "standings_file",
]
