"""The demo's merged duplicate: a club player typed in again as a guest at one league night
(as happens at a busy check-in), then merged back by the director. The merges page lists it
with its Undo, and the league table shows the player once."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import F

from leagues.services import league_recompute
from tournaments.merge import player_merge
from tournaments.models import Club, EventStatus, Player, PlayerMerge, Registration, Seat


def demo_merges(club: Club) -> None:
    if PlayerMerge.objects.filter(club=club).exists():
        return
    # The season's first finished night, and the first of its club players by name.
    registration = (
        Registration.objects.filter(
            event__club=club,
            event__season__isnull=False,
            event__status=EventStatus.FINISHED,
            event__stages__tables__seats__player=F("player"),
            player__guest=False,
            player__user__isnull=True,
        )
        .select_related("event", "player")
        .order_by("event__date", "event__name", "player__name")
        .first()
    )
    if registration is None:
        return
    kept, event = registration.player, registration.event
    # The check-in's typo: the same person as a new guest, with the name spelt loosely.
    duplicate = Player.objects.create(club=club, name=kept.name.lower(), guest=True)
    Registration.objects.filter(pk=registration.pk).update(player=duplicate)
    Seat.objects.filter(player=kept, table__stage__event=event).update(player=duplicate)
    director = get_user_model().objects.get(username="director")
    player_merge(kept=kept, merged=duplicate, by=director, confirmed=True)
    if event.season_id is not None:
        league_recompute(season_id=event.season_id)
