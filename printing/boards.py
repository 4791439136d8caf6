"""Printed sheets for the notice board: an event's standings, a stage's seating list, a
season's league table and a championship's bracket, each a PDF (:class:`PrintFile`).

Each shows what the public page shows (the club's "confirmed results only" setting
included), laid out to be read standing up: large type, a header repeated on every page of
a long list, and never a row, a table's card or a hall section split across pages. The
words are in the language asked for (the event's, the club's or the reader's).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, gettext, override
from weasyprint import Document

from formats.championship import Bracket, championship_bracket
from leagues.selectors import SeasonLeague, season_scheme_changes
from leagues.services import season_league
from leagues.tables import number_text, scheme_text
from printing.pdf import PDF, PrintFile, file_name, render_document, render_pdf
from scoring.selectors import TableSheet, stage_sheets
from standings.selectors import RankingRow
from standings.standings import event_standings
from standings.tables import ranking_table
from tournaments.engine.league import LeagueKind, decider_label
from tournaments.models import Event, Season, SeasonSchemeChange, Stage

# A hall section of the seating list: this many tables' cards on one page (two columns of
# four), so that the names stay at 18 pt, readable from a metre; tables of five or six
# players take a row less (`seating_per_page`).
SEATING_PER_PAGE = 8
SEATING_PER_PAGE_BIG_TABLES = 6
# A league of more events than this, or of a name longer than this (a Finnish or Hungarian
# head is wider than an English one, and the name's column narrower), is printed across the
# paper (landscape): a name on one line, as many pages in every language.
LEAGUE_PORTRAIT_EVENTS = 6
LEAGUE_PORTRAIT_NAME = 24
LEAGUE_TEMPLATE = "print/boards_league.html"
STANDINGS_TEMPLATE = "print/boards_standings.html"
BRACKET_TEMPLATE = "print/boards_bracket.html"
# A bracket is laid out as columns of stages, across the paper, while its widest stage
# has no more tables than this; a bigger one goes stage by stage, down the page.
BRACKET_COLUMN_TABLES = 6


def css_text(*parts: object) -> str:
    """`parts` joined by " · " as the inside of a CSS string (the page footer's
    ``content``): quotes, backslashes and anything that could end the style element are
    written as CSS escapes. Safe to print unescaped inside ``<style>``."""
    text = " · ".join(str(part) for part in parts if part)
    return "".join(
        f"\\{ord(char):x} " if char in '\\"<>&' or ord(char) < 32 else char for char in text
    )


def _in(language: str, make: Any, **kwargs: Any) -> dict[str, Any]:
    """A sheet's context made in `language` (its words are the active language's)."""
    with override(language):
        result: dict[str, Any] = make(**kwargs)
    return result


def _pdf(
    name: tuple[object, ...],
    template: str,
    context: dict[str, Any],
    language: str,
    size: str | None,
) -> PrintFile:
    """The sheet as a file named by `name`'s parts, its paper and its language."""
    return PrintFile(
        file_name(*name, size=size, language=language),
        PDF,
        render_pdf(template, context, language=language, size=size),
    )


# -- standings ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    """A standings row as the sheet prints it: the download's cells (every one already in
    words), and the row for its marks."""

    cells: list[tuple[str, object]]
    row: RankingRow


def _cell(row: RankingRow, name: str, value: object) -> tuple[str, object]:
    # The download's place is a number to sort by; the sheet says "=5" as the page does.
    if name == "place":
        return name, row.place_label
    return name, "" if value is None else value


def standings_context(*, event: Event, stage: Stage | None = None) -> dict[str, Any]:
    """The standings sheet's context (in the active language): the event's standings
    (`standings.standings`), the columns and cells its page and downloads have, from
    confirmed deals alone where the club shows only those."""
    standings = event_standings(event=event, stage=stage)
    table = ranking_table(standings)
    # The columns the page shows, each cell as the download has it.
    shown = [column.name for column in table.columns]
    hidden = [column.name for column in table.columns.iterall() if column.name not in shown]
    values = table.as_values(exclude_columns=hidden)
    headers = next(values)
    lines = [
        StandingLine(
            [_cell(row, name, value) for name, value in zip(shown, cells, strict=True)], row
        )
        for row, cells in zip(standings.rows, values, strict=True)
    ]
    return {
        "event": event,
        "stage": stage,
        "stage_name": event.spec.stage_name(stage.number) if stage is not None else "",
        "columns": list(zip(shown, headers, strict=True)),
        "lines": lines,
        "caption": standings.caption,
        "champion": standings.champion,
        "decided": "decided_by" in shown,
        "ravaytys": any(row.ravaytys for row in standings.rows),
        "tie_breaks": any(row.tie_break for row in standings.rows),
        "pending": standings.pending,
        "withheld": standings.withheld,
        "finished": standings.finished,
        "date": date_format(event.date, "DATE_FORMAT"),
        "footer": css_text(event.club.name, event.name, date_format(event.date, "DATE_FORMAT")),
    }


def standings_file(
    *, event: Event, language: str, size: str | None = None, stage: Stage | None = None
) -> PrintFile:
    """The event's standings (or one stage's, `stage`) for the notice board."""
    context = _in(language, standings_context, event=event, stage=stage)
    parts: list[object] = [event.club.slug, event.pk, "standings"]
    if stage is not None:
        parts.insert(2, f"stage-{stage.number}")
    return _pdf(tuple(parts), STANDINGS_TEMPLATE, context, language, size)


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
    name = (event.club.slug, event.pk, f"stage-{stage.number}", "seating")
    return _pdf(name, "print/boards_seating.html", context, language, size)


# -- league table -------------------------------------------------------------------------------


def _when(moment: datetime) -> str:
    """A moment as the site's pages show it: in the site's time zone (the `date` filter's
    `template_localtime`), not the UTC it is stored in."""
    return date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def league_context(
    league: SeasonLeague, changes: Sequence[SeasonSchemeChange] = ()
) -> dict[str, Any]:
    """The league sheet's context: ranked then unranked, one numbered column per event
    (the key below the table names them), dropped results struck through, and the scheme's
    changes (`changes`, newest first) as the season's page lists them."""
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
                "imported": event.imported,
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
        "landscape": len(league.events) > LEAGUE_PORTRAIT_EVENTS
        or max((len(line["name"]) for line in ranked + unranked), default=0) > LEAGUE_PORTRAIT_NAME,
        "starts": date_format(season.starts_on, "SHORT_DATE_FORMAT"),
        "ends": date_format(season.ends_on, "SHORT_DATE_FORMAT"),
        "footer": css_text(season.club.name, season.name),
        "computed": _when(league.computed_at) if league.computed_at else "",
        "changes": [
            {
                "when": _when(change.changed_at),
                "who": (change.changed_by.get_full_name() or change.changed_by.get_username())
                if change.changed_by
                else gettext("someone"),
                "old": scheme_text(change.old_scheme),
                "new": scheme_text(change.new_scheme),
                "note": change.note,
            }
            for change in changes
        ],
    }


def _league_context(season: Season, language: str) -> dict[str, Any]:
    league = season_league(season=season)
    changes = season_scheme_changes(season=season)
    with override(language):
        return league_context(league, changes)


def league_document(*, season: Season, language: str, size: str | None = None) -> Document:
    """`league_file`'s pages laid out, before they are written: what a test measures."""
    context = _league_context(season, language)
    return render_document(LEAGUE_TEMPLATE, context, language=language, size=size)


def league_file(*, season: Season, language: str, size: str | None = None) -> PrintFile:
    """The season's league table as the public page has it (published events only)."""
    context = _league_context(season, language)
    name = (season.club.slug, f"season-{season.pk}", "league")
    return _pdf(name, LEAGUE_TEMPLATE, context, language, size)


# -- championship bracket -----------------------------------------------------------------------


def bracket_context(*, event: Event, bracket: Bracket | None = None) -> dict[str, Any]:
    """The bracket sheet's context: the stages side by side while they fit across the
    paper (`columns`), else one after another; the champion and the final ranking."""
    bracket = bracket or championship_bracket(event=event)
    widest = max((len(stage.tables) for stage in bracket.stages), default=0)
    columns = len(bracket.stages) > 1 and widest <= BRACKET_COLUMN_TABLES
    seats = [
        (index, seat)
        for index, stage in enumerate(bracket.stages, start=1)
        for table in stage.tables
        for seat in table.seats
    ]
    # The final ranking's total: the player's at the last stage they played (the ranking's
    # `stage` counts the seated stages from 1), as the standings have it.
    at = {(index, seat.player_id): seat for index, seat in seats}
    ranking = [
        {
            "label": row.label,
            "name": row.name,
            "stage": row.stage,
            "seat": at.get((row.stage, row.player)),
        }
        for row in bracket.ranking
    ]
    return {
        "event": event,
        "bracket": bracket,
        "columns": columns,
        "ranking": ranking,
        # Stage by stage, three tables' cards to a row (the last row's empty cells kept, so
        # that every card has the width of a third).
        "grid": [
            {
                "number": stage.number,
                "tables": stage.tables,
                "rows": [
                    [*stage.tables[i : i + 3], *[None] * (3 - len(stage.tables[i : i + 3]))]
                    for i in range(0, len(stage.tables), 3)
                ],
            }
            for stage in bracket.stages
        ],
        "advances": any(seat.advances for _index, seat in seats),
        "decided": any(seat.decided_by_label for _index, seat in seats),
        "tie_breaks": any(seat.tie_break for _index, seat in seats),
        "pending": bracket.has_unconfirmed,
        "last_stage": bracket.stages[-1].number if bracket.stages else None,
        "date": date_format(event.date, "DATE_FORMAT"),
        "footer": css_text(event.club.name, event.name, date_format(event.date, "DATE_FORMAT")),
    }


def bracket_file(*, event: Event, language: str, size: str | None = None) -> PrintFile:
    """The championship's bracket: every seated stage's tables, who went on, the champion."""
    context = _in(language, bracket_context, event=event)
    name = (event.club.slug, event.pk, "bracket")
    return _pdf(name, BRACKET_TEMPLATE, context, language, size)


def board_document(*, kind: str, event: Event, language: str, size: str | None = None) -> Document:
    """An event's standings or bracket sheet (`kind`) laid out, before it is written: what
    a test measures the cells of."""
    if kind == "bracket":
        context = _in(language, bracket_context, event=event)
        return render_document(BRACKET_TEMPLATE, context, language=language, size=size)
    context = _in(language, standings_context, event=event)
    return render_document(STANDINGS_TEMPLATE, context, language=language, size=size)


__all__ = [
    "bracket_file",
    "league_file",
    "seating_file",
    "standings_file",
]
