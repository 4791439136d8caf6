"""The rating computation alone (no database): Thurstone–Mosteller with full pairing at
openskill's defaults, ties level, the shown rating and its provisional mark."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce, ThurstoneMostellerFull

from ratings.engine import (
    MU,
    NEW,
    PROVISIONAL_GAMES,
    SIGMA,
    Placing,
    Skill,
    provisional,
    rate_game,
    rate_games,
    shown,
)


def table(*places: int) -> list[Placing[str]]:
    return [Placing(player=chr(ord("a") + index), place=p) for index, p in enumerate(places)]


def test_a_new_player_starts_at_openskills_defaults_and_is_shown_at_zero():
    assert (MU, SIGMA) == (25.0, 25.0 / 3)
    assert (NEW.mu, NEW.sigma, NEW.games) == (MU, SIGMA, 0)
    assert shown(NEW.mu, NEW.sigma) == pytest.approx(0.0)
    assert shown(30.0, 2.0) == 24.0


def test_a_tied_pair_is_rated_level_and_strictly_above_the_next_place():
    steps = rate_game(table(1, 2, 2, 4, 5), {})
    after = {step.player: step.after for step in steps}
    assert [step.place for step in steps] == [1, 2, 2, 4, 5]
    assert after["b"] == after["c"]  # level to the last digit
    ratings = [after[p].rating for p in "abcde"]
    assert ratings[0] > ratings[1] == ratings[2] > ratings[3] > ratings[4]
    assert all(s.before == NEW and s.after.games == 1 for s in steps)


def test_it_is_thurstone_mosteller_full_not_plackett_luce():
    model = ThurstoneMostellerFull()
    expected = model.rate([[model.rating()] for _ in range(5)], ranks=[1, 2, 2, 4, 5])
    steps = rate_game(table(1, 2, 2, 4, 5), {})
    assert [(s.after.mu, s.after.sigma) for s in steps] == [(t[0].mu, t[0].sigma) for t in expected]
    other = PlackettLuce()
    luce = other.rate([[other.rating()] for _ in range(5)], ranks=[1, 2, 2, 4, 5])
    assert [s.after.mu for s in steps] != [t[0].mu for t in luce]


def test_the_same_games_give_the_same_numbers_at_once_or_one_by_one():
    games = [table(1, 2, 3, 4), table(2, 1, 1, 4), table(4, 3, 2, 1), table(1, 1, 3, 4)]
    at_once: dict[str, Skill] = {}
    rate_games(games, at_once)
    one_by_one: dict[str, Skill] = {}
    for game in games:
        rate_games([game], one_by_one)
        # As a replay would: each player's skill stored and read back.
        one_by_one = {p: Skill(s.mu, s.sigma, s.games) for p, s in one_by_one.items()}
    assert at_once == one_by_one
    assert at_once["a"].games == 4


def test_a_game_of_one_rates_nobody_and_provisional_lasts_ten_games():
    assert rate_game(table(1), {}) == []
    assert PROVISIONAL_GAMES == 10
    assert provisional(9) and not provisional(10)
