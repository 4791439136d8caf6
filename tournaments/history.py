"""A club's past results brought in from a spreadsheet as imported events.

A file of rows (date, game, event name, player, place, total, optionally the stage reached)
becomes one imported event (`Event.spec.imported`) per date, event name and game, with an
`ImportedResult` per player. `history_preview` reads the file and says what an import would
do (the events, each player matched to the club's or new), or raises one SpreadsheetError
naming every bad row and column; `history_import` does it in one transaction, reading the
file again under the club's lock, so what is saved is exactly what a preview of that
moment shows. Nothing is saved until the whole file is right.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import IO, Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy

from rules import GAMES, RuleViolation, get_variant
from rules.i18n import _
from tournaments.changes import results_change
from tournaments.event_formats import EventFormat, format_ids
from tournaments.models import Club, Event, EventStatus, ImportedResult, Player, Season
from tournaments.names import name_clean, name_key
from tournaments.spreadsheet import (
    PROBLEMS_SHOWN,
    Column,
    Problem,
    SpreadsheetError,
    spreadsheet_read,
)

# The file's columns, each under its English, Finnish and Hungarian names.
COLUMNS = (
    Column(
        "date", gettext_lazy("Date"), ("date", "päivämäärä", "päivä", "pvm", "dátum"), kind="date"
    ),
    Column("game", gettext_lazy("Game"), ("game", "peli", "játék")),
    Column(
        "event",
        gettext_lazy("Event"),
        ("event", "event name", "tapahtuma", "kilpailu", "esemény", "verseny", "esemény neve"),
    ),
    Column(
        "player", gettext_lazy("Player"), ("player", "name", "pelaaja", "nimi", "játékos", "név")
    ),
    Column(
        "place",
        gettext_lazy("Place"),
        ("place", "sija", "sijoitus", "helyezés", "hely"),
        kind="int",
    ),
    Column(
        "total",
        gettext_lazy("Total"),
        ("total", "points", "pisteet", "yhteensä", "tulos", "összesen", "pontszám", "pont"),
        kind="decimal",
    ),
    Column(
        "stage",
        gettext_lazy("Stage"),
        ("stage", "vaihe", "kierros", "szakasz", "forduló"),
        kind="int",
        required=False,
    ),
)
_LABELS = {column.key: column.label for column in COLUMNS}
# The largest total an ImportedResult stores (10 digits, 2 of them decimals).
MAX_TOTAL = Decimal("99999999.99")
LANGUAGES = ("en", "fi", "hu")


@dataclass
class HistoryResult:
    row: int
    name: str
    # The club's player the name matched, or None: a new club player is made.
    player: Player | None
    place: int
    total: Decimal
    stage: int | None

    @property
    def new(self) -> bool:
        return self.player is None


@dataclass
class HistoryEvent:
    date: datetime.date
    name: str
    variant_id: str
    season: Season | None
    results: list[HistoryResult] = field(default_factory=list)

    @property
    def game(self) -> str:
        return get_variant(self.variant_id).name

    @property
    def has_stages(self) -> bool:
        return any(result.stage is not None for result in self.results)


@dataclass
class HistoryPreview:
    events: list[HistoryEvent]
    # The names that become new club players, as they will be stored, by name.
    new_players: list[str]
    matched: int
    rows: int


def _problem(row: int, column: str, template: str, **params: Any) -> Problem:
    return Problem(row, _LABELS[column], RuleViolation(template, code="history", **params))


def game_names() -> dict[str, str]:
    """Every accepted spelling of a game (its id and its name in each of the site's
    languages, by `name_key`) → the game's id."""
    names: dict[str, str] = {}
    for game_id in GAMES:
        names[name_key(game_id)] = game_id
        name = get_variant(game_id).name
        for language in LANGUAGES:
            with translation.override(language):
                names[name_key(translation.gettext(name))] = game_id
    return names


def club_players_by_key(*, club: Club) -> dict[str, Player]:
    """The club's players by `name_key`: its own players before guests, then the oldest, so
    a name always finds the one person it has been before."""
    found: dict[str, Player] = {}
    for player in Player.objects.filter(club=club, merged_into__isnull=True).order_by(
        "guest", "pk"
    ):
        found.setdefault(name_key(player.name), player)
    return found


def _season_of(seasons: Sequence[Season], day: datetime.date) -> Season | None:
    return next((s for s in seasons if s.starts_on <= day <= s.ends_on), None)


def history_rows_check(*, club: Club, rows: Sequence[dict[str, Any]]) -> HistoryPreview:
    """The events `rows` (as `spreadsheet_read` gives them) make for `club`, or a
    SpreadsheetError naming every row and column that cannot be taken."""
    problems: list[Problem] = []
    games = game_names()
    players = club_players_by_key(club=club)
    seasons = list(Season.objects.filter(club=club).order_by("starts_on", "pk"))
    events: dict[tuple[datetime.date, str, str], HistoryEvent] = {}
    seen: dict[tuple[datetime.date, str, str], dict[str, int]] = defaultdict(dict)
    # Events with a row refused: their places are not checked (the missing row would make
    # every place after it look wrong).
    refused: set[tuple[datetime.date, str]] = set()
    for row in rows:
        number = row["row"]
        game_id = games.get(name_key(str(row["game"])))
        if game_id is None:
            refused.add((row["date"], name_key(name_clean(str(row["event"])))))
            problems.append(
                _problem(
                    number,
                    "game",
                    _('There is no game "%(token)s"; expected one of %(expected)s.'),
                    token=row["game"],
                    expected=", ".join(get_variant(g).name for g in GAMES),
                )
            )
            continue
        bad = _cell_problems(row)
        if bad:
            problems.extend(bad)
            refused.add((row["date"], name_key(name_clean(str(row["event"])))))
            continue
        name, event_name = name_clean(str(row["player"])), name_clean(str(row["event"]))
        key = (row["date"], name_key(event_name), game_id)
        if name_key(name) in seen[key]:
            problems.append(
                _problem(
                    number,
                    "player",
                    _("%(name)s is in this event already, on row %(other)d."),
                    name=name,
                    other=seen[key][name_key(name)],
                )
            )
            refused.add((row["date"], name_key(event_name)))
            continue
        seen[key][name_key(name)] = number
        event = events.get(key)
        if event is None:
            season = _season_of(seasons, row["date"])
            event = events[key] = HistoryEvent(row["date"], event_name, game_id, season)
        event.results.append(
            HistoryResult(
                number,
                name,
                players.get(name_key(name)),
                row["place"],
                row["total"],
                row.get("stage"),
            )
        )
    for event in events.values():
        if (event.date, name_key(event.name)) not in refused:
            problems.extend(_place_problems(event))
    problems.extend(_already_imported(club, list(events.values())))
    if problems:
        # As the reader lists them: enough to fix the file in one go, the rest counted.
        listed = sorted(problems, key=lambda p: p.row or 0)
        raise SpreadsheetError(listed[:PROBLEMS_SHOWN], more=max(0, len(listed) - PROBLEMS_SHOWN))
    ordered = sorted(events.values(), key=lambda e: (e.date, name_key(e.name), e.variant_id))
    for event in ordered:
        event.results.sort(key=lambda r: (r.place, name_key(r.name)))
    # A new player is stored as the file first spells them (by row).
    new: dict[str, str] = {}
    for result in sorted((r for e in ordered for r in e.results), key=lambda r: r.row):
        if result.player is None:
            new.setdefault(name_key(result.name), result.name)
    return HistoryPreview(
        events=ordered,
        new_players=sorted(new.values(), key=name_key),
        matched=len({r.player.pk for e in ordered for r in e.results if r.player is not None}),
        rows=len(rows),
    )


def _cell_problems(row: dict[str, Any]) -> list[Problem]:
    number, found = row["row"], []
    if row["place"] < 1:
        found.append(_problem(number, "place", _("A place is 1 or more.")))
    total: Decimal = row["total"]
    if abs(total) > MAX_TOTAL or total != total.quantize(Decimal("0.01")):
        found.append(
            _problem(
                number, "total", _("A total has at most two decimals and eight digits before them.")
            )
        )
    stage = row.get("stage")
    if stage is not None and stage < 1:
        found.append(_problem(number, "stage", _("A stage is 1 or more.")))
    if not name_clean(str(row["player"])):
        found.append(_problem(number, "player", _("The player's name is missing.")))
    if not name_clean(str(row["event"])):
        found.append(_problem(number, "event", _("The event's name is missing.")))
    return found


def _place_problems(event: HistoryEvent) -> list[Problem]:
    """An event's places run from 1 with ties as in any ranking: 1, 2, 2, 4 (a shared place
    takes the places after it). Every row whose place does not fit is named."""
    found = []
    places = sorted(result.place for result in event.results)
    for result in event.results:
        expected = 1 + sum(place < result.place for place in places)
        if result.place != expected:
            found.append(
                _problem(
                    result.row,
                    "place",
                    _(
                        "Place %(place)d does not follow the places above it in %(event)s: "
                        "it should be %(expected)d."
                    ),
                    place=result.place,
                    event=event.name,
                    expected=expected,
                )
            )
    return found


def _already_imported(club: Club, events: list[HistoryEvent]) -> list[Problem]:
    """An event imported before (same date, name and game) is not imported twice: a second
    upload of one file, or a second click, saves nothing."""
    if not events:
        return []
    existing = {
        (day, name_key(name), game)
        for day, name, game in Event.objects.filter(
            club=club,
            format__in=format_ids(imported=True),
            date__in={e.date for e in events},
        ).values_list("date", "name", "variant_id")
    }
    return [
        _problem(
            event.results[0].row,
            "event",
            _("%(event)s of %(date)s has been imported already."),
            event=event.name,
            date=event.date.isoformat(),
        )
        for event in events
        if (event.date, name_key(event.name), event.variant_id) in existing
    ]


def _event_of(club: Club, planned: HistoryEvent, now: datetime.datetime) -> Event:
    variant = get_variant(planned.variant_id)
    return Event(
        club=club,
        season=planned.season,
        name=planned.name,
        date=planned.date,
        variant_id=variant.id,
        variant_options=variant.to_dict(),
        format=EventFormat.IMPORTED,
        status=EventStatus.FINISHED,
        finished_at=now,
        published_at=now,
        results_changed_at=now,
    )


def history_read(upload: IO[bytes] | Any) -> list[dict[str, Any]]:
    """The file's rows, or a SpreadsheetError naming every problem with its shape."""
    return spreadsheet_read(upload, columns=COLUMNS)


def history_preview(*, club: Club, upload: IO[bytes] | Any) -> HistoryPreview:
    """What importing `upload` would do for `club` (saves nothing)."""
    return history_rows_check(club=club, rows=history_read(upload))


def history_import(*, club: Club, upload: IO[bytes] | Any) -> HistoryPreview:
    """Import `upload`'s events for `club` in one transaction: new club players for the
    names the club has none of, an imported, published, finished event per date, name and
    game (in the season covering its date), its results; and every season touched marked
    for a new league table. Under the club's lock, so two imports never make one new
    player twice; all or nothing."""
    rows = history_read(upload)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        preview = history_rows_check(club=club, rows=rows)
        made = {
            name_key(player.name): player
            for player in Player.objects.bulk_create(
                Player(club=club, name=name, name_key=name_key(name))
                for name in preview.new_players
            )
        }
        now = timezone.now()
        events = Event.objects.bulk_create(
            _event_of(club, planned, now) for planned in preview.events
        )
        ImportedResult.objects.bulk_create(
            ImportedResult(
                event=event,
                player=result.player or made[name_key(result.name)],
                place=result.place,
                total=result.total,
                stage=result.stage,
            )
            for event, planned in zip(events, preview.events, strict=True)
            for result in planned.results
        )
        # Each season's league table hears of its new events once (marked out of date, and
        # recomputed on commit), however many events the file has there: a new event has
        # no cached page or stored result of its own to renew.
        told: set[int] = set()
        for event in events:
            if event.season_id is not None and event.season_id not in told:
                told.add(event.season_id)
                results_change(event_id=event.pk, reason="imported", seasons=[event.season_id])
    return preview
