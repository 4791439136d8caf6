"""The rating computation, pure: games in, each player's skill after each game out.

The model is openskill's Thurstone–Mosteller with full pairing (`ThurstoneMostellerFull`)
at its defaults (mu 25, sigma 25/3): every player of a game is a team of one, ranked by
their place, players sharing a place level. It suits the club's games better than
Plackett–Luce: a table is a set of pairwise results (who finished above whom), and a tie is
a result of its own, not an arbitrary order.

No Django here (the services feed it plain values and store what it returns), so that the
same games in the same order give the same numbers to the last digit, whether rated all at
once or one stage at a time: each game's update reads only the skills before it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from openskill.models import ThurstoneMostellerFull

# A player's rating is shown as "provisional" until they have played this many rated games.
PROVISIONAL_GAMES = 10

MODEL = ThurstoneMostellerFull()
MU: float = MODEL.mu
SIGMA: float = MODEL.sigma

P = TypeVar("P", bound=Hashable)


def shown(mu: float, sigma: float) -> float:
    """The rating a page shows: mu − 3·sigma, a cautious estimate (a newcomer starts at 0
    and climbs as the system grows sure of them)."""
    return mu - 3 * sigma


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Skill:
    """A player's skill after some games: openskill's mean and uncertainty, the number of
    rated games behind it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def rating(self) -> float:
        return shown(self.mu, self.sigma)


NEW = Skill()


@dataclass(frozen=True)
class Placing(Generic[P]):
    """One player's result in a game: their place (1 is best; equal places are a tie)."""

    player: P
    place: int


@dataclass(frozen=True)
class Step(Generic[P]):
    """What one game did to one of its players."""

    player: P
    place: int
    before: Skill
    after: Skill


def rate_game(placings: Sequence[Placing[P]], skills: Mapping[P, Skill]) -> list[Step[P]]:
    """Rate one game: each player's skill before (`skills`, NEW if absent) and after.
    `placings` in a fixed order (the caller's, best first): the same game always gives the
    same floats. A game of fewer than two players changes nobody (an empty list)."""
    if len(placings) < 2:
        return []
    before = [skills.get(p.player, NEW) for p in placings]
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
    rated = MODEL.rate(teams, ranks=[float(p.place) for p in placings])
    return [
        Step(
            player=p.player,
            place=p.place,
            before=old,
            after=Skill(mu=team[0].mu, sigma=team[0].sigma, games=old.games + 1),
        )
        for p, old, team in zip(placings, before, rated, strict=True)
    ]


def rate_games(
    games: Iterable[Sequence[Placing[P]]], skills: MutableMapping[P, Skill]
) -> list[list[Step[P]]]:
    """Rate `games` in order, from `skills` (updated in place: each player's skill after
    the last game); the steps of each game, in the games' order."""
    out: list[list[Step[P]]] = []
    for game in games:
        steps = rate_game(game, skills)
        for step in steps:
            skills[step.player] = step.after
        out.append(steps)
    return out
