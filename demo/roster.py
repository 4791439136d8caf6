"""The demo club's roster: players without accounts brought in from a list, and a guest of a
past event whose name, typed again at check-in ("olli uusi"), is asked about instead of
becoming a second player."""

from __future__ import annotations

from tournaments.models import Club, Event, Player
from tournaments.roster import RosterRow, roster_import
from tournaments.services import registration_guest_add

ROSTER = ("Hilkka Hakala", "Kőrösi Éva", "Aatu Mäkelä", "Örkényi-Szentgyörgyi Zsófia", "Jussi Kivi")
RETURNING_GUEST = "Olli Uusi"


def demo_roster(club: Club, *, past_event_name: str) -> None:
    """Idempotent: the import skips who is there already; the guest is added once."""
    rows = [RosterRow(row=n, name=name) for n, name in enumerate(ROSTER, start=2)]
    roster_import(club=club, rows=rows, add_anyway=())
    past = Event.objects.filter(club=club, name=past_event_name).first()
    if past is not None and not Player.objects.filter(club=club, name=RETURNING_GUEST).exists():
        registration_guest_add(event=past, name=RETURNING_GUEST, checked_in=False)
