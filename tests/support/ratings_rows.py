"""Stored ratings written straight into the tables the computation fills (ratings.models):
the pages and feeds are tested on rows whose figures the test chooses."""

from __future__ import annotations

import datetime

from django.utils import timezone

from ratings.models import Rating, RatingRun, RatingStep
from tests.support.events import seated_event
from tests.support.factories import ClubFactory
from tournaments.models import Club, Event, Player

GAME = "rutupeli"


def run_for(
    club: Club, *, game: str = GAME, version: int = 1, games: int = 1, **fields
) -> RatingRun:
    run, _ = RatingRun.objects.update_or_create(
        club=club,
        game=game,
        defaults={"version": version, "games": games, "computed_at": timezone.now(), **fields},
    )
    return run


def rating_for(
    player: Player,
    *,
    mu: float,
    sigma: float = 2.0,
    games: int = 12,
    last_played: datetime.date | None = None,
    game: str = GAME,
) -> Rating:
    return Rating.objects.create(
        club=player.club,
        game=game,
        player=player,
        mu=mu,
        sigma=sigma,
        rating=mu - 3 * sigma,
        games=games,
        last_played=last_played or timezone.localdate(),
    )


def rated_club(
    count: int, *, club: Club | None = None, game: str = GAME
) -> tuple[Club, list[Player]]:
    """A club with `count` rated players: the first the best (mu 40, then one less each)."""
    club = club or ClubFactory()
    players = Player.objects.bulk_create(
        Player(club=club, name=f"Rated {index + 1:03d}") for index in range(count)
    )
    for index, player in enumerate(players):
        rating_for(player, mu=40.0 - index, game=game)
    run_for(club, game=game, games=count)
    return club, players


def rated_event(*, players: int = 4, club: Club | None = None) -> tuple[Event, list[Player]]:
    """A real seated event whose every player has two rated games at it (seq 1 and 2)."""
    event, tables = seated_event(variant_id=GAME, players=players, club=club)
    seated = [seat.player for table in tables for seat in table.seats.order_by("position")]
    for seq in (1, 2):
        for place, player in enumerate(seated, start=1):
            before = 25.0 + (seq - 1) * (len(seated) - place)
            RatingStep.objects.create(
                club=event.club,
                game=GAME,
                seq=seq,
                player=player,
                played_on=event.date,
                event=event,
                table=tables[0],
                stage=tables[0].stage,
                place=place,
                mu_before=before,
                sigma_before=8.0 - seq + 1,
                mu=before + (len(seated) - place) - 1.5,
                sigma=8.0 - seq,
            )
    return event, seated
