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
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any, cast

from django.db import IntegrityError, connection, transaction
from django.db.models import F, Field, Max, Model, Q
from django.utils import timezone

from ratings.engine import Skill, Step, rate_games, shown
from ratings.games import RATED_GAMES, GameKey, RatedGame, club_rated_games, from_key
from ratings.models import Rating, RatingRun, RatingStep
from scoring.public_cache import stamps_store
from tournaments.models import Club, Event

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
        first, read_from, appending = 1, None, False
        if since is not None:
            stored = (
                steps.filter(from_key(since)).order_by("seq").values_list("seq", flat=True).first()
            )
            last = (
                steps.order_by("-seq")
                .values_list("seq", "played_on", "event_id", "stage_number", "table_number")
                .first()
            )
            if stored is not None:
                first, read_from = stored, since
            elif last is not None:
                # Nothing stored from `since` on: the games after the last one rated are
                # appended (any a lost job left unrated before `since` with them).
                first, read_from = last[0] + 1, (last[1], last[2], last[3], last[4])
                appending = True
        # Every game when the replay starts at the first (a game never rated before
        # `since` is rated then too).
        games = club_rated_games(club_id=club_id, game=game, since=read_from)
        if appending and read_from is not None:
            after = read_from
            games = [g for g in games if g.key > after]
        playing = {p.player for g in games for p in g.placings}
        skills, last_played, replayed = _before(club_id, game, first, playing)
        players = replayed | playing
        rated = rate_games([g.placings for g in games], skills)
        replaced = steps.filter(seq__gte=first).order_by()
        # The events whose pages show these steps (their rating changes): their public
        # copies are out of date once this commits.
        shown_at = {g.event_id for g in games} | set(
            replaced.values_list("event_id", flat=True).distinct()
        )
        replaced.delete()
        _insert(RatingStep, STEP_FIELDS, _step_rows(club_id, game, first, games, rated))
        for g in games:
            for p in g.placings:
                last_played[p.player] = g.played_on
        ratings = Rating.objects.filter(club_id=club_id, game=game).order_by()
        if first > 1:
            ratings = ratings.filter(player_id__in=sorted(players))
        ratings.delete()
        _insert(
            Rating,
            RATING_FIELDS,
            (
                (club_id, game, player, skill.mu, skill.sigma, shown(skill.mu, skill.sigma),
                 skill.games, last_played[player])
                for player, skill in sorted(skills.items())
                if player in players
            ),
        )  # fmt: skip
        # Under the lock nobody else raises the version; an ask may have come meanwhile
        # (its UPDATE waits for this one's commit), hence the conditional clear.
        mine = RatingRun.objects.filter(pk=run.pk)
        mine.update(
            version=F("version") + 1, computed_at=timezone.now(), games=first - 1 + len(games)
        )
        # Nothing asked for since this computation began reading: it is current.
        mine.filter(Q(asked_at__isnull=True) | Q(asked_at__lte=started)).update(
            updating_since=None, asked_at=None
        )
        transaction.on_commit(partial(stamps_store, event_ids=sorted(shown_at)))
        run.refresh_from_db()
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
    club_id: int, game: str, first: int, playing: set[int]
) -> tuple[dict[int, Skill], dict[int, datetime.date], set[int]]:
    """Each player's skill after their last game before game `first` (a player with none
    is new), for the players of the games replayed (`playing`) and of the stored games
    from `first` on (the third value); the day of that last game.

    Read without a search for each player's last step before `first`: a player with a
    stored step from `first` on started it from their skill before (its `mu_before`,
    `sigma_before`); a player with none has their current rating as their skill before.
    At most three queries, whatever the history."""
    skills: dict[int, Skill] = {}
    days: dict[int, datetime.date] = {}
    replayed: set[int] = set()
    if first <= 1:
        return skills, days, replayed
    mine = RatingStep.objects.filter(club_id=club_id, game=game)
    for player, mu, sigma, games in (
        mine.filter(seq__gte=first)
        .order_by("seq")
        .values_list("player_id", "mu_before", "sigma_before", "games")
    ):
        if player not in replayed:
            replayed.add(player)
            if games > 1:
                skills[player] = Skill(mu=mu, sigma=sigma, games=games - 1)
    current = sorted(playing - replayed)
    if current:
        for player, mu, sigma, games, day in Rating.objects.filter(
            club_id=club_id, game=game, player_id__in=current
        ).values_list("player_id", "mu", "sigma", "games", "last_played"):
            skills[player] = Skill(mu=mu, sigma=sigma, games=games)
            days[player] = day
    # Who keeps a rating without playing a game replayed needs the day they last played.
    idle = sorted(player for player in replayed - playing if player in skills)
    if idle:
        days.update(
            mine.filter(seq__lt=first, player_id__in=idle)
            .order_by()
            .values("player_id")
            .annotate(day=Max("played_on"))
            .values_list("player_id", "day")
        )
    return skills, days, replayed


STEP_FIELDS = (
    "club_id", "game", "seq", "stage_number", "table_number", "player_id", "played_on",
    "event_id", "stage_id", "table_id", "place", "mu_before", "sigma_before", "mu", "sigma",
    "games",
)  # fmt: skip
RATING_FIELDS = ("club_id", "game", "player_id", "mu", "sigma", "rating", "games", "last_played")


def _step_rows(
    club_id: int, game: str, first: int, games: list[RatedGame], rated: list[list[Step[int]]]
) -> Iterable[tuple[object, ...]]:
    for seq, (played, steps) in enumerate(zip(games, rated, strict=True), start=first):
        for step in steps:
            yield (
                club_id, game, seq, played.stage_number, played.table_number, step.player,
                played.played_on, played.event_id, played.stage_id, played.table_id, step.place,
                step.before.mu, step.before.sigma, step.after.mu, step.after.sigma,
                step.after.games,
            )  # fmt: skip


def _insert(model: type[Model], fields: Sequence[str], rows: Iterable[tuple[object, ...]]) -> None:
    """Insert `rows` (values of `fields`, the columns' attribute names) in one query however
    many: on PostgreSQL one INSERT from UNNEST of one array per column, elsewhere one
    statement run for every row (`executemany`). bulk_create would send a batch per few
    dozen rows on SQLite (its limit of parameters) and spend seconds preparing a history's
    hundred thousand steps field by field."""
    rows = list(rows)
    if not rows:
        return
    opts = model._meta
    quote = connection.ops.quote_name
    columns = [cast("Field[Any, Any]", opts.get_field(name)) for name in fields]
    names = ", ".join(quote(field.column) for field in columns)
    table = quote(opts.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in columns)
            cursor.execute(
                f"INSERT INTO {table} ({names}) SELECT * FROM UNNEST({arrays})",
                [list(values) for values in zip(*rows, strict=True)],
            )
        else:
            marks = ", ".join(["%s"] * len(fields))
            cursor.executemany(
                f"INSERT INTO {table} ({names}) VALUES ({marks})", cast("list[Any]", rows)
            )
