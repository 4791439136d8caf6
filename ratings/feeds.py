"""A club's ratings in one game as JSON (version 1, described in README.md, "JSON feeds"):
every player whose record is public, best first, with the figures the rating comes from."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from ratings.display import PROVISIONAL_GAMES, provisional
from ratings.models import RatingRun
from ratings.selectors import club_ratings
from tournaments.models import Club

FEED_VERSION = 1


def ratings_feed(
    request: HttpRequest, *, club: Club, game: str, run: RatingRun | None
) -> dict[str, Any]:
    """The feed's body: stable keys, documented in README.md; a new key may be added within
    a version, none is renamed or dropped."""
    players = [
        {
            "rank": rating.rank,  # type: ignore[attr-defined]  # annotated (club_ratings)
            "player_id": rating.player_id,
            "name": rating.player.name,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "rating": round(rating.rating, 1),
            "games": rating.games,
            "last_played": rating.last_played.isoformat(),
            "provisional": provisional(rating.games),
            "player_url": request.build_absolute_uri(
                reverse("player_record", args=[club.slug, rating.player_id])
            ),
        }
        for rating in club_ratings(club=club, game=game, public=True).order_by("-rating", "pk")
    ]
    return {
        "version": FEED_VERSION,
        "document": "ratings",
        "club": {"slug": club.slug, "name": club.name},
        "game": game,
        "ratings_version": run.version if run else 0,
        "computed_at": run.computed_at.isoformat() if run and run.computed_at else None,
        "updating": bool(run and run.updating_since),
        "provisional_games": PROVISIONAL_GAMES,
        "url": request.build_absolute_uri(reverse("club_rating_list", args=[club.slug, game])),
        "players": players,
    }
