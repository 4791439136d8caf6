"""A championship with long names, explained by the sheets' tie-break lines."""

from __future__ import annotations

from formats.championship import championship_stage_close, tie_break_record
from tests.support.championship import championship, play, tied_scheme, winner_scheme
from tests.support.championship import entry as deal_entry
from tournaments.models import Player
from tournaments.services import stage_confirm

# Long names, as the clubs' players have them, so that a narrow column would wrap them.
LONG_NAMES = [
    "Kőrösiné Szabó Ágnes", "Äijälä-Heikkinen Väinö", "Szűcs Ödön Lőrinc", "Mäkelä Sirpa",
    "Öberg-Lindqvist Åsa", "Nagy-Horváth Lőrinc", "Heikkinen Jörö", "Tóth Zsófia Réka",
    "Lindqvist Ulla-Maija", "Bíró Gyula",
]  # fmt: skip


def _last_deal_scheme() -> list[dict]:
    """Seats 0 and 1 level on the total (50 each), seat 0 with fewer points in the last deal:
    the table's order sets seat 1 below by the last deal, not the total."""
    deals = [deal_entry(0, [0, 10, 50]) for _ in range(3)]
    deals += [deal_entry(1, [10, 0, 50]) for _ in range(2)]
    deals += [deal_entry(1, [20, 0, 50]), deal_entry(2, [10, 20, 0])]
    return deals


def long_named(event) -> None:
    for player, name in zip(
        Player.objects.filter(club=event.club).order_by("pk"), LONG_NAMES, strict=False
    ):
        player.name = name
        player.save(update_fields=["name"])


def explained_championship():
    """Nine players of long names: table 1 level on everything, settled by a card draw;
    table 2 level on the total, set apart by the last deal; a final of three, finished."""
    event, stage, director = championship(9)
    long_named(event)
    tables = list(stage.tables.order_by("number"))
    play(tables[0], tied_scheme(3))
    play(tables[1], _last_deal_scheme())
    play(tables[2], winner_scheme(3, winner=2))
    a, b, _c = tables[0].seats.order_by("position").values_list("player_id", flat=True)
    tie_break_record(table=tables[0], method="card_draw", order=[b, a], note="", by=director)
    final = championship_stage_close(stage=stage, by=director, seed=5)
    stage_confirm(stage=final)
    play(final.tables.get(), winner_scheme(3, winner=1))
    championship_stage_close(stage=final, by=director)
    event.refresh_from_db()
    return event
