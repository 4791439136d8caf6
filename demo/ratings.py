"""The demo club's ratings: every closed table of its nights, championships, series and
head-to-head events, and its imported past season, rated at load time (synchronously: a
fresh demo shows its rating lists at once, whatever the job queue is doing)."""

from __future__ import annotations

from ratings.services import ratings_rate_club
from tournaments.models import Club


def demo_ratings(club: Club) -> None:
    """Rate every game of the demo club from nothing (a second run gives the same numbers)."""
    ratings_rate_club(club=club)
