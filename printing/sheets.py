"""Printed table sheets: the table's score sheet and its filled result sheet, as PDFs.

The **score sheet** is what lies on the table before the first deal: the event, the stage,
the table, the players in seat order, the first dealer and the dealing order, and one row
per deal in the order of the phone's deal form (who went out, each hand's penalty and buys,
the running total), so paper and phone can be used side by side. Each game family has its
own grid (`SHEET_PARTIALS`, chosen by `Variant.family` as `scoring.families` does): the
contract games' rows with their contracts and cards dealt, Gin Römi's match sheet with its
settlement box, Tízlapos Römi's buli sheet with the elimination line and the unit ledger.
Every row has an initials box for the player who confirms the deal (as a bridge
traveller's agreement mark). Below the grid: a signature line per player, the card values
and the event's rules in small print, and the table's QR code to its score-entry page.

Gin Römi and Tízlapos Römi have no fixed number of deals: their score sheet has
`OPEN_ROWS` rows (more than most matches and bulis take), and a long game goes on on the
**continuation sheet** (`continued=True`), asked for explicitly: the same page with the
next rows' numbers and a row for the totals carried over. Either is one page per table.

The **result sheet** is a finished table's deals as entered, the running totals (marked
while they include deals not yet confirmed), the winner and whether each deal was
confirmed, and the players' signatures. A game longer than a page goes on on the next one,
its column heads repeated.

`table_sheets_pdf` prints any number of tables in one document (one WeasyPrint run, a
constant number of queries); each table's sheet starts on a new page and is never split
with another's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import segno
from django.conf import settings
from django.db.models import Prefetch
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext, pgettext
from weasyprint import Document

from printing.pdf import PDF, PrintFile, file_name, render_document, write_pdf
from rules import describe_options
from scoring.families import ENDING_WORDS, SPECIAL_WORDS, family_of
from scoring.i18n import contract_text
from scoring.judge import deal_scores, ravaytys_out, standing_and_problem
from scoring.models import Deal
from scoring.selectors import TableSheet, sheet_of
from tournaments.models import Seat, Table

TEMPLATE = "print/table_sheet.html"

# Each entry family's grid on the blank sheet (the engine's `Variant.family`).
SHEET_PARTIALS: Mapping[str, str] = {
    "contract": "print/_sheet_contract.html",
    "gin": "print/_sheet_gin.html",
    "tizlapos": "print/_sheet_tizlapos.html",
}
RESULT_PARTIAL = "print/_result.html"

# Rows to write in for the games with no fixed number of deals, as many as fit on the
# page under the others (a match to 150 takes about ten deals, a buli of four about
# fifteen); the continuation sheet has as many again.
OPEN_ROWS: Mapping[str, int] = {"gin": 18, "tizlapos": 16}

# The grids' column widths, in percent of the page's width: the columns before the players'
# (deal number, contract or ending...), then each player's group split as its columns
# (penalty, buys, running total...) in shares; the rest of the width is the players'.
FIXED_COLUMNS: Mapping[str, tuple[float, ...]] = {
    "contract": (6, 17, 6),  # deal, contract and cards dealt, who went out
    # Five or six players: each player's three columns need the width (a buys column of
    # 2 mm was no use), the deal's number and who went out are narrow anyway.
    "contract-crowded": (5.5, 14.5, 4.5),
    "gin": (6, 19, 8, 8),  # deal, ending and dealer, who knocked or won, upper card
    "tizlapos": (6, 13, 6, 10),  # deal, ending, knock card and dealer, winner, notes
    # Deal, as entered: how it went names players (30 letters each), the points are short.
    "result": (5.5, 27.5),
}
PLAYER_SHARES: Mapping[str, tuple[float, ...]] = {
    "contract": (0.35, 0.25, 0.40),  # penalty, buys, running total
    "gin": (0.3, 0.3, 0.4),  # deadwood, points, running total
    "tizlapos": (0.44, 0.56),  # points, running total (its head the longer word)
    "result": (0.5, 0.5),  # points (and buys), running total
    # Five or six players: the buys column is headed "+" and the running total "Σ", so the
    # penalty's head keeps its word whole and the buys get room for a written number (at
    # 0.2 of six players' width they had 2 mm inside their rules, 3.8 mm between them).
    "contract-crowded": (0.39, 0.27, 0.34),
}
TICK_WIDTH = 6.5  # the räväytys column: its head "Räväytys" unbroken in 6.3pt
INITIALS_WIDTH = 6  # the confirming player's initials, at the end of each row
# The grid's width in mm: A4's, the narrower paper (Letter is 6 mm wider), less its margins.
GRID_MM = 186
# A player's head is set as large as its longest word lets it (a name breaks between words
# and at its own hyphens, never inside a word), between these sizes in pt.
PLAYER_HEAD_PT = (5.5, 9.0)
# The per-player columns' heads (Penalty, Buys, Total...), likewise.
COLUMN_HEAD_PT = (4.8, 6.5)
# DejaVu Sans Condensed Bold's widest letters' advance, in em (a conservative average for
# names of accented capitals and lower-case letters), and 1 pt in mm.
CONDENSED_BOLD_EM = 0.64
PT_MM = 25.4 / 72


def _fit(letters: int, width_mm: float) -> float:
    """The largest type size (pt) at which a word of `letters` letters fits a column of
    `width_mm` (its padding taken off)."""
    return (width_mm - 1.2) / (max(letters, 1) * CONDENSED_BOLD_EM * PT_MM)


SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_sign(token: object) -> str:
    """A card as typed ("9H") with its suit sign ("9♥"); anything else as it is."""
    text = str(token)
    return text[:-1] + SUIT_SIGNS[text[-1]] if text[-1:] in SUIT_SIGNS else text


CARD_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@dataclass
class DealLine:
    """One deal of the sheet: blank (number, contract, cards, dealer) or as entered."""

    number: int
    dealer: str
    # The dealer's seat, 1 for the first (0: unknown): an open grid's narrow row says it.
    dealer_seat: int = 0
    contract: str = ""
    cards: int | None = None
    # As entered (the result sheet): per seat in seat order.
    points: list[int | None] = field(default_factory=list)
    totals: list[int | None] = field(default_factory=list)
    buys: list[int | None] = field(default_factory=list)
    detail: str = ""
    status: str = ""
    voided: bool = False
    confirmed: bool = False
    # The running totals include a deal not yet confirmed at the table (this or an earlier).
    provisional: bool = False

    @property
    def dealer_label(self) -> str:
        """ "Dealer:" alone (the player who deals, never the deals: fi "jaot", hu
        "játszmák"), before the dealer's seat number as the players' heads number them: a
        grid's row is too narrow for a name of 30 letters, and an open grid's row is one
        line of choices and one of its dealer."""
        return pgettext("the player who deals", "Dealer: %(name)s").replace("%(name)s", "").strip()

    @property
    def cells(self) -> list[dict[str, int | None]]:
        """Per seat, in seat order: the deal's points, buys and the running total."""

        def at(values: list[int | None], index: int) -> int | None:
            return values[index] if index < len(values) else None

        return [
            {"points": at(self.points, i), "buys": at(self.buys, i), "total": at(self.totals, i)}
            for i in range(len(self.points))
        ]


@dataclass
class PrintedSheet:
    """Everything one table's printed sheet shows, in the reader's language."""

    sheet: TableSheet
    partial: str
    family: str
    event_name: str
    club_name: str
    date: Any
    stage: str  # "Stage 2" or "Round 2": the format's word
    table: int
    seats: list[Seat]
    first_dealer: str
    dealing_order: list[str]
    lines: list[DealLine]
    card_values: list[tuple[str, int]]
    rules: list[list[tuple[str, str]]]
    entry_url: str
    qr_svg: SafeString
    filled: bool
    game: str
    continued: bool = False
    # Whether the game records a räväytys (going out in one turn): its own tick column.
    records_ravaytys: bool = False
    facts: list[tuple[str, str]] = field(default_factory=list)
    winner: str = ""
    results: list[dict[str, Any]] = field(default_factory=list)
    status_counts: dict[str, int] = field(default_factory=dict)
    # The dealing order as seat numbers (the players' heads number them): six names of 30
    # letters took three lines of the head.
    dealing_seats: list[int] = field(default_factory=list)

    @property
    def crowded(self) -> bool:
        """Five or six players: the column heads are set smaller to fit."""
        return len(self.seats) > 4

    @property
    def _kind(self) -> str:
        return "result" if self.filled else self.family

    def _fixed(self) -> list[float]:
        kind = self._kind
        if self.crowded:
            return list(FIXED_COLUMNS.get(f"{kind}-crowded", FIXED_COLUMNS[kind]))
        return list(FIXED_COLUMNS[kind])

    def _numbers(self) -> tuple[list[float], float, float, float]:
        """The widths in percent: the fixed columns, the räväytys tick, the initials and
        one player's group."""
        fixed = self._fixed()
        tick = TICK_WIDTH if self.records_ravaytys and not self.filled else 0
        initials = 0 if self.filled else INITIALS_WIDTH
        group = (100 - sum(fixed) - tick - initials) / max(len(self.seats), 1)
        return fixed, tick, initials, group

    @property
    def player_head_pt(self) -> str:
        """The players' heads' type size: the longest word of any name (the unbreakable
        part) fits its player's columns, so a name never prints over its neighbour's."""
        group_mm = self._numbers()[3] * GRID_MM / 100
        parts = [
            part
            for seat in self.seats
            for word in seat.player.name.split()
            for part in word.replace("-", "- ").split()
        ]
        # The seat number's circle (5 mm) sits before the first word.
        longest = max((len(part) for part in parts), default=1) + 3
        least, most = PLAYER_HEAD_PT
        return f"{max(least, min(most, _fit(longest, group_mm))):.1f}"

    @property
    def short_heads(self) -> bool:
        """The buys and running total columns headed "+" and "Σ" (the note under the grid
        says so): at five or six players, or where the language's word for the buys does
        not fit its column at the smallest head size (Hungarian "Vásárlások")."""
        if self.crowded:
            return True
        if self.filled or self.family != "contract":
            return False
        buys_mm = self._numbers()[3] * self._player_shares(self._kind)[1] * GRID_MM / 100
        return _fit(len(gettext("Buys")), buys_mm) < COLUMN_HEAD_PT[0]

    @property
    def column_head_pt(self) -> str:
        """The per-player columns' heads' type size: each head's longest word fits its
        column (never broken mid-word, never over the next column's rule)."""
        kind = self._kind
        if kind == "contract":
            short = self.short_heads
            heads = [gettext("Penalty"), "+" if short else gettext("Buys")]
            heads.append("Σ" if short else gettext("Total"))
        elif kind == "gin":
            heads = [gettext("Deadwood"), gettext("Points"), gettext("Total")]
        else:
            heads = [gettext("Points"), gettext("Total")]
        group_mm = self._numbers()[3] * GRID_MM / 100
        shares = self._player_shares(kind)
        size = min(
            _fit(max(len(word) for word in head.split()), group_mm * share)
            for head, share in zip(heads, shares, strict=False)
        )
        least, most = COLUMN_HEAD_PT
        return f"{max(least, min(most, size)):.1f}"

    def _player_shares(self, kind: str) -> tuple[float, ...]:
        return (
            PLAYER_SHARES.get(f"{kind}-crowded", PLAYER_SHARES[kind])
            if self.crowded
            else PLAYER_SHARES[kind]
        )

    @property
    def widths(self) -> dict[str, Any]:
        """The grid's column widths in percent (`FIXED_COLUMNS`): "fixed" before the
        players, "player" for each player's columns, "tick" and "initials". Strings, so that
        no language's decimal comma reaches CSS."""
        fixed, tick, initials, group = self._numbers()
        kind = self._kind

        def text(width: float) -> str:
            return f"{width:.2f}"

        return {
            "fixed": [text(width) for width in fixed],
            "player": [text(group * share) for share in self._player_shares(kind)],
            "tick": text(tick),
            "initials": text(initials),
        }


def _sheets(tables: Sequence[Table]) -> list[TableSheet]:
    """Each table's sheet, in the order given, in three queries however many tables."""
    found = (
        Table.objects.filter(pk__in=[table.pk for table in tables])
        .select_related("stage__event__club")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch("deals", queryset=Deal.objects.order_by("number")),
        )
    )
    by_pk = {table.pk: table for table in found}
    sheets = []
    for table in tables:
        row = by_pk[table.pk]
        seats, deals = list(row.seats.all()), list(row.deals.all())
        sheets.append(sheet_of(row, seats, deals, row.variant))
    return sheets


def _card_values(variant: Any) -> list[tuple[str, int]]:
    """The penalty table as (card, points), in the order of a suit, then the wild cards."""
    table = variant.penalty_table
    values = [(key, table[key]) for key in CARD_ORDER if key in table]
    if variant.jokers and "JOKER" in table:
        values.append((gettext("joker"), table["JOKER"]))
    if variant.wild_black_twos and "BLACK_TWO" in table:
        values.append((gettext("black 2"), table["BLACK_TWO"]))
    return values


def _house_rules(variant: Any) -> list[list[tuple[str, str]]]:
    """The event's rules in plain words, as its "Rules of this event" list gives them,
    without the rows the sheet already prints (each deal's contract, the card values), in
    three parts side by side (cheaper for WeasyPrint than CSS columns; two left a Letter
    page of six long names no room)."""
    shown = {gettext("Card values")}
    shown |= {gettext("Deal %(number)d") % {"number": n} for n in range(1, len(variant.deals) + 1)}
    rows = [row for row in describe_options(variant, gettext) if row[0] not in shown]
    third = (len(rows) + 2) // 3
    return [rows[:third], rows[third : 2 * third], rows[2 * third :]]


def _qr(url: str) -> SafeString:
    # segno's own SVG, made here from the table's address: no markup of anyone else's.
    return mark_safe(segno.make(url, error="m").svg_inline(scale=3, border=2))


def _facts(family: str, variant: Any) -> list[tuple[str, str]]:
    """The game's numbers the blank grid needs besides the card values."""
    if family == "gin":
        return [
            (gettext("Game to"), str(variant.gin_target)),
            (gettext("Per deal won"), str(variant.gin_settle_per_deal)),
            (gettext("Game bonus"), str(variant.gin_settle_game)),
            (gettext("Shutout bonus"), str(variant.gin_settle_shutout)),
        ]
    if family == "tizlapos":
        return [
            (gettext("Out at"), str(variant.tiz_elimination)),
            (gettext("Re-entry"), str(variant.tiz_reentry_units)),
            (gettext("Römi"), str(variant.tiz_romi_units)),
            (gettext("Knock"), str(variant.tiz_knock_units)),
            (gettext("Last survivor"), str(variant.tiz_last_survivor_units)),
        ]
    return []


def _detail(family: str, deal: Deal, names: list[str]) -> str:
    """How the deal went, in words: who went out (or knocked, or won) and how; a contract
    deal nobody went out of says its stock ran out, a Gin deal its deadwood and undercut."""
    entry = deal.entry if isinstance(deal.entry, dict) else {}
    flags = deal.flags if isinstance(deal.flags, dict) else {}

    def name(value: object) -> str:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            return names[value]
        return ""

    words: list[str] = []
    if family == "contract":
        if name(entry.get("out")):
            words.append(gettext("%(name)s went out") % {"name": name(entry.get("out"))})
        elif flags.get("stock_exhausted") is True:
            words.append(gettext("Nobody went out: the stock ran out"))
        if ravaytys_out(deal.flags) is not None:
            words.append(gettext("räväytys"))
    else:
        ending = entry.get("ending")
        if isinstance(ending, str):
            words.append(str(ENDING_WORDS.get(ending, ending)))
            if entry.get("knock_card"):
                words.append(card_sign(entry["knock_card"]))
        who = name(entry.get("by") if family == "gin" else entry.get("winner"))
        if who:
            words.append(who)
        if family == "gin" and entry.get("upper"):
            words.append(gettext("upper card %(card)s") % {"card": card_sign(entry["upper"])})
        deadwood = flags.get("deadwood")
        if family == "gin" and isinstance(deadwood, list):
            # In seat order, as the columns: the engine's count, from the cards if typed.
            counts = " / ".join(str(points) for points in deadwood)
            words.append(gettext("deadwood %(counts)s") % {"counts": counts})
        if family == "gin" and flags.get("undercut") is True:
            words.append(gettext("undercut: %(name)s wins") % {"name": name(flags.get("winner"))})
        if family == "tizlapos":
            for index, player in enumerate(entry.get("players") or []):
                if not isinstance(player, dict):
                    continue
                special = player.get("special")
                if special:
                    words.append(f"{name(index)}: {SPECIAL_WORDS.get(special, special)}")
                if player.get("reenter"):
                    words.append(gettext("%(name)s buys back in") % {"name": name(index)})
                if player.get("drop_out"):
                    words.append(gettext("%(name)s drops out") % {"name": name(index)})
    return ", ".join(words)


def _status(deal: Deal) -> str:
    if deal.is_voided:
        return gettext("voided")
    return gettext("confirmed") if deal.is_confirmed else gettext("not confirmed")


def _dealer_seat(sheet: TableSheet, number: int) -> int:
    """Deal `number`'s dealer as the players' heads number the seats (1 for the first);
    0 for a table with no seats."""
    found = sheet.dealer(number)
    return list(sheet.seats).index(found) + 1 if found else 0


def _filled_lines(sheet: TableSheet, family: str) -> list[DealLine]:
    """Every deal as entered, with the running totals the engine gives after it."""
    names = [seat.player.name for seat in sheet.seats]
    seats = len(sheet.seats)
    variant = sheet.variant
    rows = deal_scores(sheet.deals)
    lines = []
    counted = 0
    provisional = False
    for deal in sheet.deals:
        provisional = provisional or not (deal.is_confirmed or deal.is_voided)
        dealer = sheet.dealer(deal.number)
        points = deal.points if isinstance(deal.points, list) else []
        present = (deal.flags or {}).get("present")
        if isinstance(present, list) and len(present) == len(points):
            # A seat out of the buli (Tízlapos Römi) played no part in the deal.
            points = [p if here is True else None for p, here in zip(points, present, strict=True)]
        line = DealLine(
            number=deal.number,
            dealer=dealer.player.name if dealer else "",
            dealer_seat=_dealer_seat(sheet, deal.number),
            contract=contract_text(deal.contract),
            cards=(
                variant.cards_dealt[deal.number - 1]
                if variant.is_contract_game and deal.number <= len(variant.cards_dealt)
                else None
            ),
            points=[points[i] if i < len(points) else None for i in range(seats)],
            detail=_detail(family, deal, names),
            status=_status(deal),
            voided=deal.is_voided,
            confirmed=deal.is_confirmed,
            provisional=provisional,
        )
        entry = deal.entry if isinstance(deal.entry, dict) else {}
        players = entry.get("players") if family == "contract" else None
        if isinstance(players, list):
            line.buys = [
                p.get("buys") if isinstance(p, dict) else None for p in players[:seats]
            ] + [None] * max(0, seats - len(players))
        if not deal.is_voided:
            counted += 1
            after, _problem = standing_and_problem(variant, seats, rows[:counted])
            line.totals = list(after.totals)
        lines.append(line)
    return lines


def _blank_lines(sheet: TableSheet, family: str, *, continued: bool) -> list[DealLine]:
    """The rows to write in: a contract game's deals, or the open games' numbered rows
    (the continuation sheet's going on from the score sheet's last)."""
    variant = sheet.variant

    def dealer(number: int) -> str:
        seat = sheet.dealer(number)
        return seat.player.name if seat else ""

    if variant.is_contract_game:
        return [
            DealLine(
                number=number,
                dealer=dealer(number),
                dealer_seat=_dealer_seat(sheet, number),
                contract=contract.describe(gettext),
                cards=variant.cards_dealt[number - 1]
                if number <= len(variant.cards_dealt)
                else None,
            )
            for number, contract in enumerate(variant.deals, 1)
        ]
    rows = OPEN_ROWS[family]
    first = rows + 1 if continued else 1
    return [
        DealLine(number=n, dealer=dealer(n), dealer_seat=_dealer_seat(sheet, n))
        for n in range(first, first + rows)
    ]


def _results(sheet: TableSheet) -> list[dict[str, Any]]:
    ledger = sheet.standing.ledger
    rows = sheet.rows
    for row in rows:
        position = row["seat"].position
        row["reentries"] = ledger.reentries[position] if ledger else None
    return rows


@dataclass
class _EventTexts:
    """What every table of one event prints alike, worked out once per document."""

    card_values: list[tuple[str, int]]
    rules: list[list[tuple[str, str]]]
    facts: list[tuple[str, str]]
    game: str


def _event_texts(variant: Any) -> _EventTexts:
    return _EventTexts(
        card_values=_card_values(variant),
        rules=_house_rules(variant),
        facts=_facts(variant.family, variant),
        game=gettext(variant.name),
    )


def printed_sheet(
    sheet: TableSheet,
    *,
    filled: bool,
    texts: _EventTexts | None = None,
    continued: bool = False,
) -> PrintedSheet:
    """What `sheet`'s printed page shows, in the active language. No queries. `continued`:
    the continuation sheet of a game with no fixed number of deals (else ignored)."""
    table, variant = sheet.table, sheet.variant
    texts = texts or _event_texts(variant)
    event = table.stage.event
    family = variant.family
    continued = continued and not filled and not variant.is_contract_game
    names = [seat.player.name for seat in sheet.seats]
    first = next((seat.position for seat in sheet.seats if seat.is_first_dealer), 0)
    order = names[first:] + names[:first] if names else []
    numbers = list(range(1, len(names) + 1))
    url = settings.SITE_URL + table.get_entry_url()
    # The winner every other output names: the table's places by the event's precedence.
    winner = sheet.winner.player.name if filled and sheet.winner is not None else ""
    statuses = {"confirmed": 0, "unconfirmed": 0, "voided": 0}
    for deal in sheet.deals:
        key = "voided" if deal.is_voided else "confirmed" if deal.is_confirmed else "unconfirmed"
        statuses[key] += 1
    return PrintedSheet(
        sheet=sheet,
        partial=RESULT_PARTIAL if filled else SHEET_PARTIALS[family],
        family=family,
        event_name=event.name,
        club_name=event.club.name,
        date=event.date,
        stage=table.stage.label,
        table=table.number,
        seats=list(sheet.seats),
        first_dealer=order[0] if order else "",
        dealing_order=order,
        dealing_seats=numbers[first:] + numbers[:first],
        lines=(
            _filled_lines(sheet, family)
            if filled
            else _blank_lines(sheet, family, continued=continued)
        ),
        card_values=texts.card_values,
        rules=texts.rules,
        entry_url=url,
        qr_svg=_qr(url),
        filled=filled,
        game=texts.game,
        continued=continued,
        records_ravaytys=family_of(variant).records_ravaytys(variant),
        facts=texts.facts,
        winner=winner,
        results=_results(sheet) if filled else [],
        status_counts=statuses,
    )


def table_sheets_pdf(
    *,
    tables: Sequence[Table],
    filled: bool,
    language: str,
    size: str | None = None,
    continued: bool = False,
) -> bytes:
    """Several tables' sheets in one PDF document (one WeasyPrint run), each starting on a
    new page and never split with another's; constant queries in len(tables).
    `continued`: the continuation sheets of games with no fixed number of deals."""
    document = table_sheets_document(
        tables=tables, filled=filled, language=language, size=size, continued=continued
    )
    return write_pdf(document, what=TEMPLATE)


def table_sheets_document(
    *,
    tables: Sequence[Table],
    filled: bool,
    language: str,
    size: str | None = None,
    continued: bool = False,
) -> Document:
    """`table_sheets_pdf`'s pages laid out, before they are written as a PDF."""
    sheets = _sheets(tables)
    texts: dict[int, _EventTexts] = {}
    printed = []
    with translation.override(language):
        for sheet in sheets:
            event_id = sheet.table.stage.event_id
            if event_id not in texts:
                texts[event_id] = _event_texts(sheet.variant)
            printed.append(
                printed_sheet(sheet, filled=filled, texts=texts[event_id], continued=continued)
            )
    context: dict[str, Any] = {"sheets": printed, "filled": filled, "continued": continued}
    return render_document(TEMPLATE, context, language=language, size=size)


def table_sheet_file(
    *,
    table: Table,
    filled: bool,
    language: str,
    size: str | None = None,
    continued: bool = False,
) -> PrintFile:
    """One table's sheet as a download (filename like rutupeli-night-table-3-a4-fi.pdf,
    or -continued-3-… for a continuation sheet)."""
    content = table_sheets_pdf(
        tables=[table], filled=filled, language=language, size=size, continued=continued
    )
    event = table.stage.event
    kind = "result" if filled else "continued" if continued else "table"
    name = slugify(event.name).replace("_", "-") or "event"
    return PrintFile(
        file_name(name, kind, table.number, size=size, language=language), PDF, content
    )
