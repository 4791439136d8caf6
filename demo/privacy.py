"""The demo's privacy: one player of the series whose record page is hidden from the public
(the standings keep the name, without a link), and one erased (the series' standings show
"Former player 1" where the name was, with the same results)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from privacy.services import player_erase
from tournaments.models import Club, Erasure, Player
from tournaments.privacy import player_record_hide

# Two of the series' players (demo.loader.FORMAT_PLAYERS[12:28]), neither with an account.
HIDDEN_INDEX, ERASED_INDEX = 12, 13


def demo_privacy(club: Club, format_players: list[str]) -> None:
    """Hide one record and erase one player, once (re-running changes nothing)."""
    hidden = Player.objects.filter(club=club, name=format_players[HIDDEN_INDEX]).first()
    if hidden is not None and not hidden.record_hidden:
        player_record_hide(player=hidden, hidden=True)
    if Erasure.objects.filter(club=club).exists():
        return
    erased = Player.objects.filter(club=club, name=format_players[ERASED_INDEX]).first()
    director = get_user_model().objects.filter(username="director").first()
    if erased is not None and director is not None:
        player_erase(player=erased, by=director, confirmed=True)
