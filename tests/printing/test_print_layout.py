"""The notice-board sheets at their fullest (issue 31): a season's league table of many
events and long names, in every language and on every paper, and the championship boards'
heads. No number or name prints over another or past its cell's border, no head is broken
mid-word, and a language takes no more pages than another's words need."""

from __future__ import annotations

import pytest

from formats.finish import event_finish
from leagues.services import season_league
from printing.boards import board_document, league_document
from printing.pdf import PAPERS
from tests.support.championship import entry, play
from tests.support.factories import ClubFactory
from tests.support.headtohead import h2h_event, pair_and_confirm, pairs_of
from tests.support.headtohead import play as play_match
from tests.support.leagues import night, players_of, season_of
from tests.support.printing import explained_championship
from tests.support.sheets import (
    overlapping_words,
    page_words,
    png,
    words_broken_mid_word,
    words_outside_their_cells,
)
from tournaments.event_formats import EventFormat
from tournaments.models import Player

pytestmark = [pytest.mark.django_db, pytest.mark.layout]

LANGUAGES = ("fi", "hu", "en")
# The longest realistic names: 30 characters, accents, a double name.
LONGEST_NAMES = [
    "Kristiina Väisänen-Lindqvist", "Szentgyörgyiné Kovács Ágnes", "Äijälä-Heikkinen Väinö Ilmari",
    "Nagy-Horváth Lőrinc Zsigmond", "Öberg-Lindqvist Åsa Kristiina", "Pöllänen-Rönkkö Iiro Tapani",
]  # fmt: skip
# A season of weekly club nights, autumn to Christmas, six of a club of 24 at each.
NIGHTS = 16
CLUB = [f"{name[:28]} {letter}" for letter in "ABCD" for name in LONGEST_NAMES]


def _long_season(kind: str, nights: int = NIGHTS):
    """A season of `nights` nights of six players of the longest names, each night's
    penalties uneven, so that the league's numbers are as wide as they get: an average per
    game with two decimals, or a penalty total of four digits."""
    club = ClubFactory(language="fi")
    season = season_of(club)
    season.league_scheme = {"kind": kind, "points": [10, 7, 5, 3, 1], "best_n": nights - 3}
    season.save()
    players = players_of(club, *CLUB)
    for day in range(nights):
        order = [players[(day * 5 + seat * 4) % len(players)] for seat in range(6)]
        event = night(season, order, day=day + 1, finish=False)
        (table,) = event.stages.get().tables.all()
        # Odd penalties, a different spread each night: averages like 37,43 and 10,86.
        scheme = [entry(deal % 6, [0 if s == deal % 6 else 5 * (s + (day + deal) % 5 + 1) for s in range(6)])
                  for deal in range(7)]  # fmt: skip
        table.deals.all().delete()
        play(table, scheme)
        event_finish(event=event, confirmed=True)
    return season


# Sixteen nights (the smallest numbers, across the paper), ten (across, larger) and six
# (down the paper).
@pytest.mark.parametrize(
    ("kind", "nights"), [("average", NIGHTS), ("penalty_total", NIGHTS), ("average", 10),
                         ("penalty_total", 6)]
)  # fmt: skip
def test_a_long_seasons_league_table_is_readable_in_every_language(kind, nights):
    season = _long_season(kind, nights)
    league = season_league(season=season)
    assert len(league.events) == nights
    pages = {}
    for language in LANGUAGES:
        for size in PAPERS:
            document = league_document(season=season, language=language, size=size)
            pdf = document.write_pdf()
            words = page_words(pdf)
            where = f"{kind} {nights} {language} {size}"
            if size == "A4":
                png(pdf, f"print-league-long-{kind}-{nights}-{language}", dpi=60)
            assert words_outside_their_cells(document) == [], where
            assert overlapping_words(pdf, words) == [], where
            pages[language, size] = len(words)
    # 24 players: two pages, a line a player, in every language and on either paper.
    assert set(pages.values()) == {2}, pages


def _named_longest(event) -> None:
    players = Player.objects.filter(club=event.club).order_by("pk")
    for player, name in zip(players, CLUB, strict=False):
        player.name = name
        player.save(update_fields=["name"])


def _swiss():
    """Two rounds of a Swiss Gin event of eight: its standings have wins, matches, byes."""
    event = h2h_event(players=8, format=EventFormat.SWISS, rounds=3)
    _named_longest(event)
    for number in (1, 2):
        stage = pair_and_confirm(event, seed=number)
        for table, pair in zip(stage.tables.order_by("number"), pairs_of(stage), strict=True):
            play_match(table, min(pair))
    return event


def test_the_boards_heads_break_between_words_and_stay_in_their_cells():
    """A championship's standings and bracket ("Saavutettu vaihe", "Elért szakasz") and a
    Swiss event's standings ("Győzelmek", "Mérkőzések"): every head whole on its lines,
    inside its column, in every language and on every paper (issue 31)."""
    championship = explained_championship()  # players of long names, two stages
    boards = [("standings", championship), ("bracket", championship), ("standings", _swiss())]
    found = []
    for kind, event in boards:
        for language in LANGUAGES:
            for size in PAPERS:
                document = board_document(kind=kind, event=event, language=language, size=size)
                where = f"{kind} {event.format} {language} {size}"
                found += [(where, *bad) for bad in words_broken_mid_word(document)]
                found += [(where, *bad) for bad in words_outside_their_cells(document)]
                if size == "A4" and language == "hu":
                    png(document.write_pdf(), f"print-{kind}-{event.format}-hu", dpi=60)
    assert found == [], "\n".join(map(str, found))
