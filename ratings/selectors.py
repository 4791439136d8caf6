"""Reads of the stored ratings: a club's list per game (public or as its directors see it),
a player's history per game, an event's rating changes, and the version a page's ETag is
built from. Every list is a fixed number of queries however many players it holds."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import F, QuerySet, Window
from django.db.models.functions import Rank
from django.utils import timezone

from ratings.display import ChartPoint, provisional, shown
from ratings.models import Rating, RatingRun, RatingStep
from rules import VARIANT_IDS
from tournaments.models import Club, Event, Player
from tournaments.privacy import public_records_filter
from tournaments.visibility import is_public

# "Active": played in this many days before today.
ACTIVE_DAYS = 365


def rating_runs(*, club: Club) -> list[RatingRun]:
    """The club's rated games (those with a computation asked for or done), in the order
    the site lists its games."""
    runs = list(RatingRun.objects.filter(club=club))
    order = {game: index for index, game in enumerate(VARIANT_IDS)}
    return sorted(runs, key=lambda run: (order.get(run.game, len(order)), run.game))


def rating_run(*, club: Club, game: str) -> RatingRun | None:
    return RatingRun.objects.filter(club=club, game=game).first()


def _visible_players(club: Club) -> QuerySet[Player]:
    # The one rule (tournaments.privacy), as a subquery on the ratings' players.
    return Player.objects.filter(public_records_filter(club=club), club=club)


def club_ratings(*, club: Club, game: str, public: bool) -> QuerySet[Rating]:
    """The club's ratings in `game`, best first, each with its `rank` (1 for the best, level
    ratings sharing a rank) and its player. `public`: only players whose record is public
    (tournaments.privacy); the club's directors see every player."""
    ratings = Rating.objects.filter(club=club, game=game, player__merged_into__isnull=True)
    if public:
        ratings = ratings.filter(player__in=_visible_players(club))
    return ratings.select_related("player").annotate(
        rank=Window(Rank(), order_by=F("rating").desc())
    )


def active_since(today: datetime.date | None = None) -> datetime.date:
    return (today or timezone.localdate()) - datetime.timedelta(days=ACTIVE_DAYS)


def ratings_fingerprint(*, club: Club, game: str, run: RatingRun | None) -> str:
    """What the rating list (and feed) of `game` shows depends on besides the page's query:
    the computation's version and state, and the rated players' names and privacy (a
    record hidden or a name corrected changes no rating, but does change the list). Two
    small queries, far cheaper than the list; the ETag is built from it."""
    people = Player.objects.filter(ratings__club=club, ratings__game=game).order_by("pk")
    text = repr(
        (
            run.version if run else None,
            run.computed_at if run else None,
            run.updating_since if run else None,
            club.publish_guest_pages,
            timezone.localdate(),  # "active in the last 12 months" moves with the day
            list(people.values_list("pk", "name", "guest", "record_hidden", "merged_into")),
        )
    )
    return hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()


# -- a player's history ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryRow:
    """One rated game of a player, as the page's table lists it."""

    number: int  # the player's own game number
    played_on: datetime.date
    event_name: str  # "" for an event the reader may not see
    place: int
    rating: float
    change: float
    mu: float
    band: float  # 3σ


@dataclass(frozen=True)
class Standing:
    """A player's rating in a game now: their last rated game's figures."""

    mu: float
    sigma: float
    games: int
    last_played: datetime.date

    @property
    def rating(self) -> float:
        return shown(self.mu, self.sigma)


@dataclass
class GameHistory:
    """A player's rating in one game now, and after each of their rated games."""

    game: str
    points: list[ChartPoint] = field(default_factory=list)
    rows: list[HistoryRow] = field(default_factory=list)
    rating: Standing | None = None

    @property
    def provisional(self) -> bool:
        return self.rating is None or provisional(self.rating.games)


def player_rating_history(*, player: Player, private: bool) -> list[GameHistory]:
    """`player`'s ratings per game with their history, in one query however many games.
    The rating now is the last step's (the stored Rating is written from that very step:
    reading it as well would cost the page a query for the same figures).
    `private`: the reader sees the club's private events (a director); for anyone else such
    an event's game still counts, without its name."""
    histories: dict[str, GameHistory] = {}
    steps = RatingStep.objects.filter(player=player, club_id=player.club_id).select_related("event")
    for step in steps.order_by("game", "seq"):
        history = histories.setdefault(step.game, GameHistory(game=step.game))
        number = len(history.points) + 1
        history.points.append(
            ChartPoint(seq=number, rating=step.rating, mu=step.mu, sigma=step.sigma)
        )
        visible = private or is_public(step.event)
        history.rows.append(
            HistoryRow(
                number=number,
                played_on=step.played_on,
                event_name=step.event.name if visible else "",
                place=step.place,
                rating=step.rating,
                change=step.rating - step.rating_before,
                mu=step.mu,
                band=3 * step.sigma,
            )
        )
        history.rating = Standing(
            mu=step.mu, sigma=step.sigma, games=number, last_played=step.played_on
        )
    order = {game: index for index, game in enumerate(VARIANT_IDS)}
    return sorted(histories.values(), key=lambda h: (order.get(h.game, len(order)), h.game))


# -- an event's rating changes --------------------------------------------------------------------


@dataclass(frozen=True)
class RatingChange:
    """A player's rating before the event's first rated game and after its last."""

    player_id: int
    name: str
    before: float
    after: float
    games: int

    @property
    def change(self) -> float:
        return self.after - self.before

    @property
    def size(self) -> float:
        return abs(self.change)


def event_rating_changes(*, event: Event) -> list[RatingChange]:
    """Each rated player's change over `event` in its game (from the event's rating steps:
    the first step's before, the last step's after), the biggest gain first. One query."""
    steps = (
        RatingStep.objects.filter(event=event, game=event.variant_id)
        .select_related("player")
        .order_by("player_id", "seq")
    )
    return sorted(_changes(steps), key=lambda change: (-change.change, change.name))


def _changes(steps: Iterable[RatingStep]) -> list[RatingChange]:
    first: dict[int, RatingStep] = {}
    last: dict[int, RatingStep] = {}
    count: dict[int, int] = {}
    for step in steps:
        first.setdefault(step.player_id, step)
        last[step.player_id] = step
        count[step.player_id] = count.get(step.player_id, 0) + 1
    return [
        RatingChange(
            player_id=player_id,
            name=start.player.name,
            before=start.rating_before,
            after=last[player_id].rating,
            games=count[player_id],
        )
        for player_id, start in first.items()
    ]
