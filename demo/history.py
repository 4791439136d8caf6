"""The demo club's last season, brought in from a spreadsheet as a club starting on Lappu
would: three imported nights whose league table and records count them, marked imported."""

from __future__ import annotations

import datetime
import io
import random

from leagues.services import league_recompute
from tournaments.event_formats import format_ids
from tournaments.history import history_import
from tournaments.models import Club, Event, Season

HISTORY_SEASON = "Spring 2026"
# The club's own players (demo.loader's), as the club's spreadsheet spells them: one name
# written differently, which the import matches all the same.
HISTORY_PLAYERS = ["Aino", "eero", "Helmi", "Jussi", "Kaisa", "Lauri", "Mervi", "Niilo"]
HISTORY_NIGHTS = [
    (datetime.date(2026, 2, 7), "Rutupeli", "Helmikuun ilta"),
    (datetime.date(2026, 3, 7), "Räväytys", "Maaliskuun ilta"),
    (datetime.date(2026, 4, 4), "Rutupeli", "Huhtikuun ilta"),
]


def history_csv() -> bytes:
    """Last season's results as the club kept them: a Finnish-headed CSV, semicolons and
    decimal commas (what Excel saves in Finland); one shared place."""
    rng = random.Random(2026)
    lines = ["päivämäärä;peli;tapahtuma;pelaaja;sija;pisteet"]
    for day, game, name in HISTORY_NIGHTS:
        totals = sorted(rng.randint(20, 400) for _ in HISTORY_PLAYERS)
        totals[2] = totals[1]  # level for second: both are second, nobody third
        players = rng.sample(HISTORY_PLAYERS, len(HISTORY_PLAYERS))
        for index, (player, total) in enumerate(zip(players, totals, strict=True)):
            place = 1 + sum(other < total for other in totals)
            shown = f"{total},5" if index == len(players) - 1 else str(total)
            lines.append(f"{day:%-d.%-m.%Y};{game};{name};{player};{place};{shown}")
    return ("\n".join(lines) + "\n").encode()


def demo_history(club: Club) -> None:
    """Last season and its three imported nights (once: a second run changes nothing)."""
    season, _created = Season.objects.get_or_create(
        club=club,
        name=HISTORY_SEASON,
        defaults={"starts_on": datetime.date(2026, 1, 1), "ends_on": datetime.date(2026, 5, 31)},
    )
    if Event.objects.filter(club=club, format__in=format_ids(imported=True)).exists():
        return
    history_import(club=club, upload=io.BytesIO(history_csv()))
    league_recompute(season_id=season.pk)
