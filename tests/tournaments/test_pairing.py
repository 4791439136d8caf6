"""Head-to-head pairing: round robin, Swiss rounds and the match standings (no database)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError, RuleViolation
from rules.gin import Settlement
from tournaments.engine import pairing as pairing_module
from tournaments.engine.pairing import (
    Bye,
    ByeValue,
    H2HStanding,
    MatchResult,
    Pairing,
    h2h_standings,
    min_cost_perfect_matching,
    round_robin,
    swiss_next,
    swiss_round,
)

ONE_WIN = ByeValue(wins=1, points=0)


def rows(wins: Sequence[int], *, shared: bool = False) -> list[H2HStanding[int]]:
    """Standings rows for players 0, 1, 2, ... best first with these match wins."""
    return [
        H2HStanding(
            place=1 if shared else i + 1,
            shared=shared,
            player=i,
            wins=w,
            points=0,
            played=0,
            byes=0,
            tiebreak=None,
        )
        for i, w in enumerate(wins)
    ]


def everyone_once(pairing: Pairing[int], players: Sequence[int]) -> bool:
    seated = [p for pair in pairing.pairs for p in pair]
    if pairing.bye is not None:
        seated.append(pairing.bye)
    return sorted(seated) == sorted(players)


def key(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


def play(pairing: Pairing[int], number: int, rng: random.Random) -> list:
    """Random results for a round: a winner and plausible settlement points per match."""
    out: list = []
    for a, b in pairing.pairs:
        winner = rng.choice((a, b))
        loser_points = rng.choice((0, 60, 120, 140))
        win_points = 150 + rng.randint(0, 60) + 150 + (150 if loser_points == 0 else 0)
        points = {winner: win_points, (b if winner == a else a): loser_points}
        out.append(MatchResult(number, a, b, winner, points[a], points[b]))
    if pairing.bye is not None:
        out.append(Bye(number, pairing.bye))
    return out


# -- round robin --------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(3, 13))
def test_round_robin_everyone_meets_everyone_once(count):
    players = [f"p{i}" for i in range(count)]
    rounds = round_robin(players)

    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    met = Counter(frozenset(pair) for r in rounds for pair in r.pairs)
    assert set(met) == {frozenset((a, b)) for a in players for b in players if a < b}
    assert set(met.values()) == {1}
    for r in rounds:
        seated = [p for pair in r.pairs for p in pair] + ([r.bye] if r.bye else [])
        assert sorted(seated) == sorted(players)  # everyone exactly once a round
        assert len(r.pairs) == count // 2
    byes = Counter(r.bye for r in rounds)
    if count % 2:
        assert byes == Counter(players)  # one bye each
    else:
        assert byes == Counter({None: len(rounds)})


@pytest.mark.parametrize("count", range(3, 13))
def test_round_robin_alternates_the_first_dealer(count):
    players = list(range(count))
    seats: dict[int, list[int]] = {p: [] for p in players}
    for r in round_robin(players):
        for a, b in r.pairs:
            seats[a].append(0)
            seats[b].append(1)
    for sequence in seats.values():
        assert abs(sequence.count(0) - sequence.count(1)) <= 1
        same_as_before = sum(x == y for x, y in itertools.pairwise(sequence))
        if count % 2:
            assert same_as_before == 0  # strictly alternating, across the bye too
        else:
            streaks = zip(sequence, sequence[1:], sequence[2:], strict=False)
            assert not any(x == y == z for x, y, z in streaks)
    if count % 2 == 0:
        # Berger's tables: n - 2 repeated seats in all, the fewest a round robin allows.
        repeats = sum(sum(x == y for x, y in itertools.pairwise(s)) for s in seats.values())
        assert repeats == count - 2


def test_round_robin_keeps_the_given_order_for_round_one():
    assert round_robin(["a", "b", "c", "d"])[0].pairs == (("a", "d"), ("c", "b"))
    first = round_robin(["a", "b", "c", "d", "e"])[0]
    assert first.bye == "e"
    assert {frozenset(p) for p in first.pairs} == {frozenset("ad"), frozenset("bc")}


@pytest.mark.parametrize("count", [0, 1, 2, 13, 20])
def test_round_robin_size_is_refused_with_the_count(count):
    with pytest.raises(RuleViolation) as info:
        round_robin(list(range(count)))
    assert info.value.code == "round_robin_size"
    assert info.value.params == {"players": count, "min": 3, "max": 12}
    assert f"{count} player" in info.value.message


def test_round_robin_refuses_a_player_listed_twice():
    with pytest.raises(RulesError):
        round_robin(["a", "b", "a"])


# -- Swiss: the whole event ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("count", [16, 15])
def test_swiss_eight_rounds_without_a_rematch(count, seed):
    players = list(range(100, 100 + count))
    rng = random.Random(seed)
    results: list = []
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for number in range(1, 9):
        pairing = swiss_next(players, results, bye_value=ONE_WIN, seed=seed)
        assert everyone_once(pairing, players)
        assert pairing.rematches == ()
        for a, b in pairing.pairs:
            assert key(a, b) not in met
            met.add(key(a, b))
        if count % 2:
            assert pairing.bye not in byes  # nobody sits out twice in 8 rounds of 15
            byes.append(pairing.bye)
        else:
            assert pairing.bye is None
        results += play(pairing, number, rng)
    assert len(met) == 8 * (count // 2)


def test_swiss_second_round_pairs_winners_with_winners():
    players = list(range(16))
    rng = random.Random(3)
    results = play(swiss_next(players, [], bye_value=ONE_WIN, seed=3), 1, rng)
    wins = Counter(r.winner for r in results)
    second = swiss_next(players, results, bye_value=ONE_WIN, seed=3)
    assert all(wins[a] == wins[b] for a, b in second.pairs)
    # The top table is the two best winners of round one.
    table = h2h_standings(players, results, bye_value=ONE_WIN)
    assert set(second.pairs[0]) == {table[0].player, table[1].player}


def test_swiss_is_deterministic_and_the_seed_draws_round_one():
    players = list(range(12))
    first = swiss_next(players, [], bye_value=ONE_WIN, seed=7)
    assert first == swiss_next(players, [], bye_value=ONE_WIN, seed=7)
    draws = {swiss_next(players, [], bye_value=ONE_WIN, seed=s).pairs for s in range(5)}
    assert len(draws) > 1
    # Without a seed a shared place keeps the order given: 1-2, 3-4, ...
    unseeded = swiss_round(rows([0] * 6, shared=True), played_pairs=[], byes_had=[])
    assert unseeded.pairs == ((0, 1), (2, 3), (4, 5))


def test_swiss_leaders_meet_leaders():
    table = rows([2, 2, 1, 1, 1, 1, 0, 0])
    assert swiss_round(table, played_pairs=[], byes_had=[]).pairs == (
        (0, 1),
        (2, 3),
        (4, 5),
        (6, 7),
    )
    # 0 and 1 have met: each floats down to the next best, not further.
    pairing = swiss_round(table, played_pairs=[(0, 1)], byes_had=[])
    assert {key(*p) for p in pairing.pairs} == {key(0, 2), key(1, 3), key(4, 5), key(6, 7)}


def test_swiss_score_groups_come_before_rank():
    # 0 has met the other leaders, so two leaders must float down a group; then the rank
    # differences are the smallest possible: 0-4, 1-2, 3-5 (16 + 1 + 4).
    table = rows([3, 3, 3, 3, 2, 2])
    pairing = swiss_round(table, played_pairs=[(0, 1), (2, 0), (0, 3)], byes_had=[])
    assert {key(*p) for p in pairing.pairs} == {key(0, 4), key(1, 2), key(3, 5)}
    assert pairing.rematches == ()


def test_swiss_rematch_only_when_unavoidable():
    # Four players who have all met: any round is two rematches, and the pairing says so.
    table = rows([2, 2, 1, 1])
    history = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)]
    pairing = swiss_round(table, played_pairs=history, byes_had=[])
    assert everyone_once(pairing, [0, 1, 2, 3])
    assert len(pairing.rematches) == 2
    # One pair twice already: the round takes the pairs met once, not that one again.
    pairing = swiss_round(table, played_pairs=[*history, (0, 1), (2, 3)], byes_had=[])
    assert {key(*p) for p in pairing.rematches} != {key(0, 1), key(2, 3)}


def test_swiss_bye_goes_to_the_lowest_without_one():
    table = rows([2, 2, 1, 1, 0])
    assert swiss_round(table, played_pairs=[], byes_had=[]).bye == 4
    assert swiss_round(table, played_pairs=[], byes_had=[4]).bye == 3
    assert swiss_round(table, played_pairs=[], byes_had=[4, 3, 2]).bye == 1
    # Everyone has had one: the lowest among those with the fewest.
    assert swiss_round(table, played_pairs=[], byes_had=[0, 1, 2, 3, 4, 4]).bye == 3
    # Withdrawn players' byes and matches are ignored.
    assert swiss_round(table, played_pairs=[(4, 99)], byes_had=[99]).bye == 4


def test_swiss_bye_moves_up_rather_than_force_a_rematch():
    # 2 is lowest without a bye, but sitting it out leaves 0-1, who have met: 1 sits out.
    table = rows([1, 1, 0])
    pairing = swiss_round(table, played_pairs=[(0, 1)], byes_had=[])
    assert pairing.bye == 1
    assert {key(*p) for p in pairing.pairs} == {key(0, 2)}
    assert pairing.rematches == ()
    # A second bye is never the way out: 0 and 1 have sat out, so 2 does and 0-1 meet again.
    pairing = swiss_round(table, played_pairs=[(0, 1)], byes_had=[0, 1])
    assert pairing.bye == 2
    assert {key(*p) for p in pairing.rematches} == {key(0, 1)}


def test_swiss_balances_the_first_deal():
    # 0 dealt first twice, 1 second twice: now 1 deals first.
    pairing = swiss_round(rows([2, 2]), played_pairs=[(0, 5), (0, 6), (7, 1), (8, 1)], byes_had=[])
    assert pairing.pairs == ((1, 0),)
    # Level balance: whoever sat second last time deals first.
    pairing = swiss_round(rows([2, 2]), played_pairs=[(6, 0), (0, 5), (1, 7), (8, 1)], byes_had=[])
    assert pairing.pairs == ((1, 0),)
    # Nothing to go on: the higher-ranked deals first.
    assert swiss_round(rows([0, 0]), played_pairs=[], byes_had=[]).pairs == ((0, 1),)


def test_swiss_seats_stay_balanced_over_an_event():
    players = list(range(16))
    rng = random.Random(11)
    results: list = []
    for number in range(1, 9):
        results += play(swiss_next(players, results, bye_value=ONE_WIN, seed=11), number, rng)
    balance = Counter()
    for r in results:
        balance[r.a] += 1
        balance[r.b] -= 1
    assert max(abs(v) for v in balance.values()) <= 2


@pytest.mark.parametrize("count", [0, 1])
def test_swiss_needs_two_players(count):
    with pytest.raises(RuleViolation) as info:
        swiss_round(rows([0] * count), played_pairs=[], byes_had=[])
    assert info.value.code == "swiss_too_few"
    assert info.value.params == {"players": count, "min": 2}


def test_swiss_next_ranks_by_everyone_but_pairs_only_the_players_left():
    results = [MatchResult(1, 1, 2, 1, 300, 0), MatchResult(1, 3, 4, 3, 200, 100)]
    pairing = swiss_next([1, 2, 3], results, bye_value=ONE_WIN)  # 4 withdrew
    assert everyone_once(pairing, [1, 2, 3])
    assert pairing.bye == 2  # the lowest of those left
    assert pairing.pairs == ((1, 3),) or pairing.pairs == ((3, 1),)


# -- Swiss: properties checked by brute force ---------------------------------------------


def perfect_matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for matching in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *matching]


def fewest_rematches(
    players: list[int], met: Counter[frozenset[int]], byes: Counter[int]
) -> tuple[int, set[int]]:
    """The fewest rematches any pairing has, and the byes that achieve it with the fewest
    earlier meetings among those rematches (by brute force)."""
    if len(players) % 2 == 0:
        options = [(None, players)]
    else:
        fewest = min(byes[p] for p in players)
        options = [(p, [q for q in players if q != p]) for p in players if byes[p] == fewest]
    best: tuple[tuple[int, int], set[int]] = ((10**9, 0), set())
    for bye, rest in options:
        for matching in perfect_matchings(rest):
            cost = (
                sum(met[key(a, b)] > 0 for a, b in matching),
                sum(met[key(a, b)] for a, b in matching),
            )
            if cost < best[0]:
                best = (cost, set())
            if cost == best[0] and bye is not None:
                best[1].add(bye)
    return best[0][0], best[1]


def check_against_brute_force(
    pairing: Pairing[int], ranked: list[int], met: Counter[frozenset[int]], byes: Counter[int]
) -> None:
    assert everyone_once(pairing, ranked)
    rematches = [p for p in pairing.pairs if met[key(*p)]]
    assert sorted(pairing.rematches) == sorted(rematches)
    fewest, bye_options = fewest_rematches(ranked, met, byes)
    assert len(rematches) == fewest  # in particular none when a rematch-free pairing exists
    if pairing.bye is not None:
        # Among the byes that need no more rematches, the lowest-ranked.
        assert pairing.bye == max(bye_options, key=ranked.index)


@settings(max_examples=150, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=8),
    rounds=st.integers(min_value=0, max_value=7),
    seed=st.integers(min_value=0, max_value=2**16),
)
def test_swiss_random_results_never_rematch_while_avoidable(count, rounds, seed):
    players = list(range(count))
    rng = random.Random(seed)
    results: list = []
    for number in range(1, rounds + 2):
        # No seed: players sharing a place keep the standings' order, which the bye check
        # below needs (the seeded shuffle is covered by the next test's fixed ranks).
        pairing = swiss_next(players, results, bye_value=ONE_WIN)
        met = Counter(key(r.a, r.b) for r in results if isinstance(r, MatchResult))
        byes = Counter(r.player for r in results if isinstance(r, Bye))
        ranked = [row.player for row in h2h_standings(players, results, bye_value=ONE_WIN)]
        check_against_brute_force(pairing, ranked, met, byes)
        results += play(pairing, number, rng)


@settings(max_examples=300, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=8),
    history=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=30),
    bye_list=st.lists(st.integers(0, 7), max_size=8),
    wins=st.lists(st.integers(0, 6), min_size=8, max_size=8),
)
def test_swiss_any_history_fewest_rematches_and_lowest_bye(count, history, bye_list, wins):
    played = [(a, b) for a, b in history if a != b and a < count and b < count]
    table = rows(sorted(wins[:count], reverse=True))
    pairing = swiss_round(table, played_pairs=played, byes_had=bye_list)
    met = Counter(key(a, b) for a, b in played)
    byes = Counter(p for p in bye_list if p < count)
    check_against_brute_force(pairing, list(range(count)), met, byes)
    assert pairing == swiss_round(table, played_pairs=played, byes_had=bye_list)


# -- the matching: pruned, yet exact -----------------------------------------------------


def full_matching(nodes: int, cost: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    """A least-cost perfect matching by networkx over every edge."""
    graph = nx.Graph()
    graph.add_nodes_from(range(nodes))
    graph.add_weighted_edges_from(cost)
    matching = nx.min_weight_matching(graph)
    assert len(matching) * 2 == nodes
    return matching


def full_cost(nodes: int, cost: list[tuple[int, int, int]]) -> int:
    return cost_of(full_matching(nodes, cost), cost)


def cost_of(matching, cost) -> int:
    weight = {(i, j): w for i, j, w in cost}
    return sum(weight[(min(u, v), max(u, v))] for u, v in matching)


@st.composite
def matching_problems(draw):
    nodes = 2 * draw(st.integers(min_value=1, max_value=12))
    levels = draw(st.lists(st.integers(0, 3), min_size=nodes, max_size=nodes))
    tiers = draw(st.sampled_from(["flat", "lexicographic"]))
    cost = []
    for i in range(nodes):
        for j in range(i + 1, nodes):
            if tiers == "flat":
                weight = draw(st.integers(0, 60))
            else:  # like a Swiss round: a level gap dominates, a rare huge "rematch"
                weight = 10_000 * (levels[i] - levels[j]) ** 2 + (i - j) ** 2
                weight += draw(st.sampled_from([0] * 5 + [10**9]))
            cost.append((i, j, weight))
    # Some edges missing, but a perfect matching (0-1, 2-3, ...) always left.
    dropped = draw(st.sets(st.integers(0, len(cost) - 1), max_size=len(cost) // 3))
    cost = [
        e for k, e in enumerate(cost) if k not in dropped or (e[0] % 2 == 0 and e[1] == e[0] + 1)
    ]
    return nodes, cost, draw(st.sampled_from([None, levels]))


@settings(max_examples=200, deadline=None)
@given(problem=matching_problems())
def test_pruned_matching_is_as_cheap_as_over_every_edge(problem):
    nodes, cost, levels = problem
    matching = min_cost_perfect_matching(nodes, cost, levels)
    assert sorted(v for pair in matching for v in pair) == list(range(nodes))
    assert cost_of(matching, cost) == full_cost(nodes, cost)


@settings(max_examples=200, deadline=None)
@given(problem=matching_problems())
def test_the_dual_behind_the_pruning_is_feasible(problem):
    # What the pruning rests on: every perfect matching costs at least the dual's value
    # plus the reduced costs of its edges, each of them >= 0.
    nodes, cost, levels = problem
    reduced, twice_lower = pairing_module._reduced_costs(nodes, cost, levels)
    assert min(reduced) >= 0
    index = {(i, j): k for k, (i, j, _) in enumerate(cost)}
    simple = {(i, i + 1) for i in range(0, nodes, 2)}  # always among the edges
    for matching in (full_matching(nodes, cost), simple):
        edges = [index[(min(u, v), max(u, v))] for u, v in matching]
        assert 2 * cost_of(matching, cost) >= twice_lower + sum(reduced[k] for k in edges)


def test_a_mid_event_round_is_matched_over_few_edges(monkeypatch):
    players = list(range(64))
    rng = random.Random(5)
    results: list = []
    for number in range(1, 6):
        results += play(swiss_next(players, results, bye_value=ONE_WIN, seed=5), number, rng)
    sizes: list[int] = []
    real = pairing_module._matching

    def counting(nodes, cost):
        sizes.append(len(cost))
        return real(nodes, cost)

    monkeypatch.setattr(pairing_module, "_matching", counting)
    # No seed: the pairing ranks exactly as the table below does.
    pruned = swiss_next(players, results, bye_value=ONE_WIN)
    monkeypatch.setattr(pairing_module, "_reduced_costs", lambda *args: None)  # no pruning
    full = swiss_next(players, results, bye_value=ONE_WIN)
    assert len(sizes) == 3
    assert sizes[1] < 64 * 63 / 2 / 4  # the exact matching saw under a quarter of the pairs
    assert sizes[2] == 64 * 63 / 2

    table = h2h_standings(players, results, bye_value=ONE_WIN)
    rank = {row.player: i for i, row in enumerate(table)}
    wins = {row.player: row.wins for row in table}

    def spread(p: Pairing[int]) -> tuple[int, int]:
        return (
            sum((wins[a] - wins[b]) ** 2 for a, b in p.pairs),
            sum((rank[a] - rank[b]) ** 2 for a, b in p.pairs),
        )

    assert pruned.rematches == full.rematches == ()
    assert spread(pruned) == spread(full)


# -- standings ----------------------------------------------------------------------------


def places(table: list[H2HStanding[str]]) -> list[tuple[str, str]]:
    return [(row.place_label, row.player) for row in table]


def test_standings_by_wins_then_points():
    results = [
        MatchResult(1, "a", "b", "a", 400, 100),
        MatchResult(1, "c", "d", "d", 50, 350),
        MatchResult(2, "a", "d", "d", 120, 330),
        MatchResult(2, "b", "c", "b", 320, 0),
    ]
    table = h2h_standings(["a", "b", "c", "d"], results, bye_value=ONE_WIN)
    assert places(table) == [("1", "d"), ("2", "a"), ("3", "b"), ("4", "c")]
    assert [(r.wins, r.points, r.played) for r in table] == [
        (2, 680, 2),
        (1, 520, 2),
        (1, 420, 2),
        (0, 50, 2),
    ]
    assert [r.tiebreak for r in table] == [None, "wins", "points", "wins"]


def test_standings_head_to_head_between_two():
    results = [
        MatchResult(1, "a", "b", "b", 150, 250),
        MatchResult(1, "c", "d", "c", 400, 0),
        MatchResult(2, "a", "c", "a", 250, 50),
        MatchResult(2, "b", "d", "d", 150, 300),
    ]
    # One win each; a and b 400 points each, and b won their match.
    table = h2h_standings(["a", "b", "c", "d"], results, bye_value=ONE_WIN)
    assert places(table) == [("1", "c"), ("2", "b"), ("3", "a"), ("4", "d")]
    assert [r.tiebreak for r in table] == [None, "points", "head_to_head", "points"]


def test_standings_mini_table_among_exactly_the_tied_group():
    # a, b, c level overall (2 wins, 600 points). Among them: a beat b, b beat c, c beat a:
    # a mini-table of one win each, split by points in those matches only (a 280, b 260,
    # c 200); the matches against d do not count in it.
    results = [
        MatchResult(1, "a", "b", "a", 150, 110),
        MatchResult(2, "b", "c", "b", 150, 60),
        MatchResult(3, "c", "a", "c", 140, 130),
        MatchResult(1, "c", "d", "c", 400, 0),
        MatchResult(2, "d", "a", "a", 0, 320),
        MatchResult(3, "b", "d", "b", 340, 0),
    ]
    table = h2h_standings(["a", "b", "c", "d"], results, bye_value=ONE_WIN)
    assert [(r.wins, r.points) for r in table[:3]] == [(2, 600)] * 3
    assert places(table) == [("1", "a"), ("2", "b"), ("3", "c"), ("4", "d")]
    assert [r.tiebreak for r in table] == [None, "head_to_head", "head_to_head", "wins"]


def test_standings_a_smaller_tie_gets_its_own_mini_table():
    # a, b, c, d level overall (3 wins, 600 points), and all have met. Among the four, a
    # beat everyone; b, c, d have one win and 300 points each there, so they are still
    # level. Among just those three (their matches against a left out): d 300, c 250, b 200.
    among = [
        ("a", "b", "a", 200, 100),
        ("a", "c", "a", 200, 50),
        ("a", "d", "a", 200, 0),
        ("b", "c", "b", 200, 50),
        ("c", "d", "c", 200, 100),
        ("d", "b", "d", 200, 0),
    ]
    outside = [(p, o, p, 150, 0) for p in "bcd" for o in "ef"]
    results = [MatchResult(n, *m) for n, m in enumerate(among + outside, start=1)]
    table = h2h_standings(["b", "c", "d", "a", "e", "f"], results, bye_value=ONE_WIN)
    assert [(r.wins, r.points) for r in table[:4]] == [(3, 600)] * 4
    assert places(table) == [
        ("1", "a"),
        ("2", "d"),
        ("3", "c"),
        ("4", "b"),
        ("=5", "e"),
        ("=5", "f"),
    ]
    assert [r.tiebreak for r in table] == [
        None,
        "head_to_head",
        "head_to_head",
        "head_to_head",
        "wins",
        None,
    ]


def test_standings_share_a_place_only_when_everything_is_equal():
    # Swiss: a and b level and never met; c and d level and never met.
    results = [
        MatchResult(1, "a", "c", "a", 300, 100),
        MatchResult(1, "b", "d", "b", 300, 100),
        MatchResult(1, "e", "f", "e", 250, 200),
    ]
    table = h2h_standings(["b", "a", "c", "d", "e", "f"], results, bye_value=ONE_WIN)
    assert places(table) == [
        ("=1", "b"),
        ("=1", "a"),  # in the order given: a shared place is never ordered
        ("3", "e"),
        ("4", "f"),
        ("=5", "c"),
        ("=5", "d"),
    ]
    assert [r.tiebreak for r in table] == [None, None, "points", "wins", "points", None]


def test_standings_partial_mini_table_leaves_the_rest_shared():
    # a, b, c level; a beat b, but c met neither: no mini-table, all three share.
    results = [
        MatchResult(1, "a", "b", "a", 200, 100),
        MatchResult(1, "c", "x", "c", 200, 0),
        MatchResult(2, "b", "y", "b", 200, 0),
        MatchResult(2, "x", "a", "x", 100, 100),
        MatchResult(3, "y", "c", "y", 0, 100),
        MatchResult(4, "x", "y", "x", 0, 0),
    ]
    table = h2h_standings(["a", "b", "c", "x", "y"], results, bye_value=ONE_WIN)
    assert [(r.wins, r.points) for r in table[1:4]] == [(1, 300)] * 3
    assert places(table) == [("1", "x"), ("=2", "a"), ("=2", "b"), ("=2", "c"), ("5", "y")]


def test_standings_count_the_bye_value():
    value = ByeValue(wins=1, points=150)
    results = [MatchResult(1, "a", "b", "a", 300, 50), Bye(1, "c")]
    table = h2h_standings(["a", "b", "c"], results, bye_value=value)
    by_player = {r.player: r for r in table}
    assert (by_player["c"].wins, by_player["c"].points) == (1, 150)
    assert (by_player["c"].played, by_player["c"].byes) == (0, 1)
    assert places(table) == [("1", "a"), ("2", "c"), ("3", "b")]
    nothing = h2h_standings(["a", "b", "c"], results, bye_value=ByeValue(wins=0))
    assert places(nothing) == [("1", "a"), ("2", "b"), ("3", "c")]


def test_standings_before_any_result_everyone_shares_first():
    table = h2h_standings(["a", "b", "c"], [], bye_value=ONE_WIN)
    assert places(table) == [("=1", "a"), ("=1", "b"), ("=1", "c")]


@pytest.mark.parametrize(
    "bad",
    [
        [MatchResult(1, "a", "z", "a", 0, 0)],  # z is not listed
        [MatchResult(1, "a", "b", "c", 0, 0)],  # the winner did not play
        [MatchResult(1, "a", "a", "a", 0, 0)],
        [MatchResult(1, "a", "b", "a", 0, 0), Bye(1, "b")],  # b twice in round 1
    ],
)
def test_standings_refuse_impossible_results(bad):
    with pytest.raises(RulesError):
        h2h_standings(["a", "b", "c"], bad, bye_value=ONE_WIN)


def test_bye_value_cannot_be_negative():
    with pytest.raises(ValueError):
        ByeValue(wins=-1)


@pytest.mark.parametrize("winner_seat", [0, 1])
def test_result_from_a_settlement(winner_seat):
    final = (460, 40) if winner_seat == 0 else (40, 460)
    settlement = Settlement(
        points=(160, 40) if winner_seat == 0 else (40, 160),
        deal_bonus=(150, 0) if winner_seat == 0 else (0, 150),
        game_bonus=(150, 0) if winner_seat == 0 else (0, 150),
        shutout_bonus=(0, 0),
        final=final,
        winner=winner_seat,
        result=420,
    )
    result = MatchResult.from_settlement(round=2, a="ann", b="bo", settlement=settlement)
    assert result.winner == ("ann", "bo")[winner_seat]
    assert (result.points_a, result.points_b) == final
    assert result.loser() == ("bo", "ann")[winner_seat]
