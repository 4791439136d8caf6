"""Is a player's record public? The one rule every page, feed, PDF and league table asks,
and the one write that changes its answer for a player (hiding the record).

A club's own player's record is public with the events they play; a guest's (who never
agreed to a page of their own) only when the club publishes guests' pages; and nobody's
once the record is hidden (by the player, or by a director for a player without an
account). A hidden record's page is for the club's directors and the player alone; the
standings keep the name the club publishes, without a link.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q

from tournaments.changes import results_change
from tournaments.models import Club, Player, Registration


def record_public_for(*, club: Club, guest: bool, hidden: bool) -> bool:
    """The rule itself, on a player's two facts (a league table's stored row has them
    without the player's model)."""
    if hidden:
        return False
    return not guest or club.publish_guest_pages


def record_public(*, player: Player) -> bool:
    """Whether anyone may open `player`'s record page, and whether pages link to it."""
    return record_public_for(club=player.club, guest=player.guest, hidden=player.record_hidden)


def public_records_filter(*, club: Club) -> Q:
    """The rule as a filter on the club's players: the combinations of the two facts that
    `record_public_for` lets through (derived from it, never written a second time)."""
    allowed = [
        Q(guest=guest, record_hidden=hidden)
        for guest in (False, True)
        for hidden in (False, True)
        if record_public_for(club=club, guest=guest, hidden=hidden)
    ]
    return functools.reduce(operator.or_, allowed, Q(pk__in=[]))


def public_record_ids(*, club: Club, player_ids: Iterable[int]) -> set[int]:
    """Which of `player_ids` (players of `club`) have a public record: one query, for a
    list that links names (standings, league tables, feeds)."""
    ids = set(player_ids)
    if not ids:
        return set()
    found = Player.objects.filter(public_records_filter(club=club), club=club, pk__in=ids)
    return set(found.values_list("pk", flat=True))


def player_events(*, player: Player) -> list[int]:
    """The events `player` is registered for or seated at (whose pages name them)."""
    registered = Registration.objects.filter(player=player).values_list("event_id", flat=True)
    seated = player.seats.values_list("table__stage__event_id", flat=True)
    return sorted(set(registered) | set(seated))


def announce_player_changed(*, player: Player) -> None:
    """Every event naming `player` has changed for its readers (a link gone, a name
    changed): its cached pages are dropped and its season's league table recomputed, as
    after any results change (tournaments.changes)."""
    for event_id in player_events(player=player):
        results_change(event_id=event_id, reason="privacy")


def player_record_hide(*, player: Player, hidden: bool) -> Player:
    """Hide `player`'s record from the public (or show it again); the views check that the
    person is the player or a director of the club."""
    with transaction.atomic():
        Player.objects.filter(pk=player.pk).update(record_hidden=hidden)
        player.record_hidden = hidden
        announce_player_changed(player=player)
    return player


def director_decides_privacy(*, player: Player) -> bool:
    """Whether the club's directors hide the record and hand out the data of `player`: for
    a player without an account; one with an account decides for themself ("My data")."""
    return player.user_id is None
