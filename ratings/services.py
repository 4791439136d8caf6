"""Writing the ratings: a club's games in one game rated from a point of its history on.

`ratings_update` is the one write. It replays from the first stored game at or after
`since` (every game when None): the steps from there on are deleted, each player starts
from their skill after the game before, and the games from there on are read again and
rated forward. A stage closed after every game already rated is a replay of its own tables
alone (the incremental path); a correction of an older table replays from that table on, so
a later correction is replayed in place and everything before it stays as it was.

One computation of a club's game at a time: the write takes a lock of its own for the
club and game (PostgreSQL's advisory lock; SQLite serialises writes by itself) for its
whole transaction, so two replays never interleave; a killed worker leaves the last
finished computation, whole (its transaction rolls back, and the queue gives the job out
again).
"""

from __future__ import annotations

import datetime
import zlib
from collections.abc import Iterable

from django.db import IntegrityError, connection, transaction
from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone

from ratings.engine import Skill, Step, rate_games, shown
from ratings.games import RATED_GAMES, GameKey, RatedGame, club_rated_games, from_key
from ratings.models import Rating, RatingRun, RatingStep
from tournaments.models import Club, Event

BATCH = 5000
# The first half of the advisory lock's key: the ratings' own (no other lock uses it).
LOCK_CLASS = 0x5241  # "RA"


def ratings_recompute(*, club: Club, game: str) -> RatingRun:
    """Rate every game of `game` at `club` from nothing; the finished computation."""
    return ratings_update(club_id=club.pk, game=game, since=None)


def ratings_rate_club(*, club: Club) -> list[RatingRun]:
    """Rate every game of every rated game at `club` from nothing (the demo, the tests)."""
    return [ratings_recompute(club=club, game=game) for game in RATED_GAMES]


def ratings_update(*, club_id: int, game: str, since: GameKey | None) -> RatingRun:
    """Replay `game` at club `club_id` from its first game at `since` or later (from the
    first game when None); store the steps, the ratings and the finished computation."""
    with transaction.atomic():
        _lock(club_id, game)
        started = timezone.now()
        run = _run(club_id, game)
        steps = RatingStep.objects.filter(club_id=club_id, game=game)
        if since is None:
            first = 1
        else:
            first = (
                steps.filter(from_key(since)).order_by("seq").values_list("seq", flat=True).first()
            )
            if first is None:  # nothing stored from there on: append after the last game
                first = (steps.aggregate(last=Max("seq"))["last"] or 0) + 1
        replayed = set(steps.filter(seq__gte=first).values_list("player_id", flat=True).distinct())
        # From the first game on; every game when the replay starts at the first (a game
        # never rated before `since` is rated then too).
        games = club_rated_games(club_id=club_id, game=game, since=since if first > 1 else None)
        players = replayed | {p.player for g in games for p in g.placings}
        skills, last_played = _before(club_id, game, first, players)
        rated = rate_games([g.placings for g in games], skills)
        steps.filter(seq__gte=first).delete()
        RatingStep.objects.bulk_create(_steps(club_id, game, first, games, rated), batch_size=BATCH)
        for g in games:
            for p in g.placings:
                last_played[p.player] = g.played_on
        Rating.objects.filter(club_id=club_id, game=game, player_id__in=sorted(players)).delete()
        Rating.objects.bulk_create(
            [
                Rating(
                    club_id=club_id,
                    game=game,
                    player_id=player,
                    mu=skills[player].mu,
                    sigma=skills[player].sigma,
                    rating=shown(skills[player].mu, skills[player].sigma),
                    games=skills[player].games,
                    last_played=last_played[player],
                )
                for player in sorted(players)
                if player in skills
            ],
            batch_size=BATCH,
        )
        run.version += 1
        run.computed_at = timezone.now()
        run.games = first - 1 + len(games)
        fields = ["version", "computed_at", "games"]
        if run.asked_at is None or run.asked_at <= started:
            # Nothing was asked for since this computation began reading: it is current.
            run.updating_since = run.asked_at = None
            fields += ["updating_since", "asked_at"]
        run.save(update_fields=fields)
        return run


def ratings_ask(*, club_id: int, game: str) -> None:
    """Say that `game` at club `club_id` is being updated (a computation is queued): the
    pages show so until one that began after this finishes."""
    now = timezone.now()
    updated = RatingRun.objects.filter(club_id=club_id, game=game).update(asked_at=now)
    if updated:
        RatingRun.objects.filter(club_id=club_id, game=game, updating_since__isnull=True).update(
            updating_since=now
        )
        return
    try:
        with transaction.atomic():
            RatingRun.objects.create(club_id=club_id, game=game, asked_at=now, updating_since=now)
    except IntegrityError:  # created meanwhile by another: mark it
        ratings_ask(club_id=club_id, game=game)


def ratings_ask_many(*, event_ids: Iterable[int]) -> dict[tuple[int, str], GameKey]:
    """For a change reaching many events (players merged): each club's rated game the
    events are of, with the earliest point the change reaches (one query)."""
    since: dict[tuple[int, str], GameKey] = {}
    for event_id, club_id, game, day in Event.objects.filter(
        pk__in=list(event_ids), variant_id__in=RATED_GAMES
    ).values_list("pk", "club_id", "variant_id", "date"):
        key: GameKey = (day, event_id, 0, 0)
        if (club_id, game) not in since or key < since[(club_id, game)]:
            since[(club_id, game)] = key
    return since


def _lock(club_id: int, game: str) -> None:
    if connection.vendor != "postgresql":
        return  # SQLite: one writer at a time already
    key = zlib.crc32(f"{club_id}:{game}".encode()) & 0x7FFFFFFF
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_CLASS, key])


def _run(club_id: int, game: str) -> RatingRun:
    run = RatingRun.objects.filter(club_id=club_id, game=game).first()
    if run is None:
        try:
            with transaction.atomic():
                run = RatingRun.objects.create(club_id=club_id, game=game)
        except IntegrityError:  # an ask created it meanwhile
            run = RatingRun.objects.get(club_id=club_id, game=game)
    return run


def _before(
    club_id: int, game: str, first: int, players: set[int]
) -> tuple[dict[int, Skill], dict[int, datetime.date]]:
    """Each of `players`' skill after their last game before game `first`, and that game's
    day (a player with none starts new). One query."""
    skills: dict[int, Skill] = {}
    days: dict[int, datetime.date] = {}
    if first <= 1 or not players:
        return skills, days
    mine = RatingStep.objects.filter(club_id=club_id, game=game, seq__lt=first)
    latest = mine.filter(player_id=OuterRef("player_id")).order_by("-seq").values("seq")[:1]
    for player, mu, sigma, games, day in mine.filter(
        player_id__in=sorted(players), seq=Subquery(latest)
    ).values_list("player_id", "mu", "sigma", "games", "played_on"):
        skills[player] = Skill(mu=mu, sigma=sigma, games=games)
        days[player] = day
    return skills, days


def _steps(
    club_id: int, game: str, first: int, games: list[RatedGame], rated: list[list[Step[int]]]
) -> Iterable[RatingStep]:
    for seq, (played, steps) in enumerate(zip(games, rated, strict=True), start=first):
        for step in steps:
            yield RatingStep(
                club_id=club_id,
                game=game,
                seq=seq,
                stage_number=played.stage_number,
                table_number=played.table_number,
                player_id=step.player,
                played_on=played.played_on,
                event_id=played.event_id,
                stage_id=played.stage_id,
                table_id=played.table_id,
                place=step.place,
                mu_before=step.before.mu,
                sigma_before=step.before.sigma,
                mu=step.after.mu,
                sigma=step.after.sigma,
                games=step.after.games,
            )
