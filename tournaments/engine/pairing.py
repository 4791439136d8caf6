"""Head-to-head pairing for Gin Römi: round robin, Swiss rounds and the match standings.

Pure functions over plain values (players are any hashable ids), so a service can load the
event, call these and store what they return; nothing here touches the database.

A service runs an event round by round like this:

- **Round robin**: ``round_robin(players)`` once, when the event starts; store every round.
- **Swiss**: before each round, ``swiss_next(players, results, bye_value=..., seed=...)``
  (or, with the pieces at hand, ``h2h_standings`` then ``swiss_round``); show the returned
  :class:`Pairing` as a preview (its ``rematches`` say who meets again), store it, and
  record the bye as a :class:`Bye` result of that round.
- **Standings**: ``h2h_standings(players, results, bye_value=...)`` whenever a page shows
  the table; the bye's value is the event's setting, applied here, never stored per bye.

In every pair the first player sits in seat 0 and deals first, as in ``draw.draw_tables``.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

import networkx as nx

from core.places import place_text
from rules.errors import RulesError, RuleViolation
from rules.gin import Settlement
from rules.i18n import ngettext

__all__ = [
    "ROUND_ROBIN_MAX",
    "ROUND_ROBIN_MIN",
    "SWISS_MIN",
    "Bye",
    "ByeValue",
    "H2HStanding",
    "MatchResult",
    "Pairing",
    "Tiebreak",
    "h2h_standings",
    "min_cost_perfect_matching",
    "round_robin",
    "swiss_history",
    "swiss_next",
    "swiss_round",
]

P = TypeVar("P", bound=Hashable)

# A round robin of more than 12 is more evenings than a club season holds (11 rounds at
# one Gin game to 150 each); fewer than 3 is a single match, not a competition.
ROUND_ROBIN_MIN = 3
ROUND_ROBIN_MAX = 12
SWISS_MIN = 2


# -- values -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pairing(Generic[P]):
    """One round: the matches (first dealer first, top table first) and who sits out.

    ``rematches`` lists the pairs of ``pairs`` that have met before; a Swiss round has one
    only when no pairing without it exists, and the draw preview shows it.
    """

    pairs: tuple[tuple[P, P], ...]
    bye: P | None = None
    rematches: tuple[tuple[P, P], ...] = ()


@dataclass(frozen=True)
class MatchResult(Generic[P]):
    """A finished match: ``a`` sat in seat 0 (dealt first), ``b`` in seat 1.

    ``points_a`` and ``points_b`` are each side's final settlement points
    (``Settlement.final``): what the standings add up after match wins.
    """

    round: int
    a: P
    b: P
    winner: P
    points_a: int
    points_b: int

    @classmethod
    def from_settlement(cls, *, round: int, a: P, b: P, settlement: Settlement) -> MatchResult[P]:
        """The result of a finished game to 150, from its table standing's settlement."""
        return cls(
            round=round,
            a=a,
            b=b,
            winner=(a, b)[settlement.winner],
            points_a=settlement.final[0],
            points_b=settlement.final[1],
        )

    def loser(self) -> P:
        return self.b if self.winner == self.a else self.a

    def points_of(self, player: P) -> int:
        return self.points_a if player == self.a else self.points_b


@dataclass(frozen=True)
class Bye(Generic[P]):
    """``player`` sat out ``round`` (an odd count); it is worth the event's ``ByeValue``."""

    round: int
    player: P


@dataclass(frozen=True)
class ByeValue:
    """What a bye counts in the standings: an event setting, the same for every bye."""

    wins: int = 1
    points: int = 0

    def __post_init__(self) -> None:
        if self.wins < 0 or self.points < 0:
            raise ValueError(f"a bye cannot be worth less than nothing: {self}")


# Why a row is below the one above it: the first criterion that differed.
Tiebreak = Literal["wins", "points", "head_to_head"]


@dataclass(frozen=True)
class H2HStanding(Generic[P]):
    """One row of the head-to-head standings.

    ``wins`` and ``points`` include the byes' value. ``place`` is shared (``shared`` true,
    shown ``"=3"``) only when every criterion is equal. ``tiebreak`` is what put this row
    below the one above it (None on the first row and on a shared place).
    """

    place: int
    shared: bool
    player: P
    wins: int
    points: int
    played: int
    byes: int
    tiebreak: Tiebreak | None

    @property
    def place_label(self) -> str:
        return place_text(self.place, self.shared)


Result = MatchResult[P] | Bye[P]


# -- round robin --------------------------------------------------------------------------


def round_robin(players: Sequence[P]) -> list[Pairing[P]]:
    """Every round of a round robin by the circle method, in the order to play them.

    Every pair meets exactly once: ``n - 1`` rounds for an even count, ``n`` for an odd one,
    where each player sits out exactly one round. The seats are those of Berger's tables:
    with an odd count every player alternates first and second dealer from match to match,
    with an even count nobody takes the same seat three times running and everyone deals
    first within one of half their matches (the fewest repeats a round robin allows).

    The first round pairs the list's first half against its second half reversed (an odd
    count's last player sits out first); shuffle the list first (with the event's seed)
    for a drawn schedule.
    """
    _require_distinct(players)
    count = len(players)
    if not ROUND_ROBIN_MIN <= count <= ROUND_ROBIN_MAX:
        raise RuleViolation(
            ngettext(
                "%(players)d player checked in; a round robin needs %(min)d to %(max)d.",
                "%(players)d players checked in; a round robin needs %(min)d to %(max)d.",
                count,
            ),
            code="round_robin_size",
            players=count,
            min=ROUND_ROBIN_MIN,
            max=ROUND_ROBIN_MAX,
        )
    # Index -1 is the empty chair of an odd count. It takes the fixed place of the circle:
    # then every real player turns with the circle, and the alternation below is perfect.
    ring = [-1, *range(count)] if count % 2 else list(range(count))
    size = len(ring)
    rounds: list[Pairing[P]] = []
    for number in range(size - 1):
        pairs: list[tuple[P, P]] = []
        bye: P | None = None
        for k in range(size // 2):
            top, bottom = ring[k], ring[size - 1 - k]
            if -1 in (top, bottom):
                bye = players[max(top, bottom)]
                continue
            # The fixed player changes seat every round; the turning ones every match
            # because their row position k changes parity as the circle turns.
            first_top = number % 2 == 0 if k == 0 else k % 2 == 0
            a, b = (top, bottom) if first_top else (bottom, top)
            pairs.append((players[a], players[b]))
        rounds.append(Pairing(pairs=tuple(pairs), bye=bye))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


# -- standings ----------------------------------------------------------------------------


def h2h_standings(
    players: Sequence[P], results: Iterable[Result[P]], *, bye_value: ByeValue
) -> list[H2HStanding[P]]:
    """The standings: match wins, then settlement points, then head-to-head.

    Players level on wins and points are ordered by a mini-table of the matches among
    exactly that group (wins, then points, in those matches only); a part of the group the
    mini-table leaves level gets its own mini-table among exactly that part, and so on.
    A mini-table is used only when every two of the group have met (always so in a round
    robin): in a Swiss event it would otherwise rank a player above one they never played.
    Players still level share a place ("=3"), listed in the order of ``players``: the
    standings never make up an order.

    ``results`` must name only ``players``, and a player at most once per round.
    """
    _require_distinct(players)
    known = set(players)
    wins: Counter[P] = Counter()
    points: Counter[P] = Counter()
    played: Counter[P] = Counter()
    byes: Counter[P] = Counter()
    matches: list[MatchResult[P]] = []
    seen: set[tuple[int, P]] = set()
    for result in results:
        for player in _players_of(result):
            if player not in known:
                raise RulesError(f"result {result!r} names {player!r}, who is not listed")
            if (result.round, player) in seen:
                raise RulesError(f"{player!r} appears twice in round {result.round}")
            seen.add((result.round, player))
        if isinstance(result, Bye):
            byes[result.player] += 1
            wins[result.player] += bye_value.wins
            points[result.player] += bye_value.points
            continue
        if result.a == result.b or result.winner not in (result.a, result.b):
            raise RulesError(f"impossible match result {result!r}")
        matches.append(result)
        wins[result.winner] += 1
        points[result.a] += result.points_a
        points[result.b] += result.points_b
        played[result.a] += 1
        played[result.b] += 1

    # Groups of equal (wins, points), best first; input order inside a group.
    groups: dict[tuple[int, int], list[P]] = defaultdict(list)
    for player in players:
        groups[(wins[player], points[player])].append(player)
    ordered: list[list[P]] = []  # runs of players sharing a place
    for key in sorted(groups, reverse=True):
        ordered.extend(_head_to_head(groups[key], matches))

    rows: list[H2HStanding[P]] = []
    place = 1
    previous: P | None = None
    for level in ordered:
        shared = len(level) > 1
        for index, player in enumerate(level):
            tiebreak: Tiebreak | None = None
            if previous is not None and index == 0:
                tiebreak = _separated_by(previous, player, wins, points)
            rows.append(
                H2HStanding(
                    place=place,
                    shared=shared,
                    player=player,
                    wins=wins[player],
                    points=points[player],
                    played=played[player],
                    byes=byes[player],
                    tiebreak=tiebreak,
                )
            )
        previous = level[-1]
        place += len(level)
    return rows


def _players_of(result: Result[P]) -> tuple[P, ...]:
    return (result.player,) if isinstance(result, Bye) else (result.a, result.b)


def _separated_by(above: P, below: P, wins: Counter[P], points: Counter[P]) -> Tiebreak:
    if wins[above] != wins[below]:
        return "wins"
    if points[above] != points[below]:
        return "points"
    return "head_to_head"


def _head_to_head(group: list[P], matches: Sequence[MatchResult[P]]) -> list[list[P]]:
    """``group`` (level on wins and points) split into runs of equal players, best first."""
    if len(group) == 1:
        return [group]
    members = set(group)
    wins: Counter[P] = Counter()
    points: Counter[P] = Counter()
    met: set[frozenset[P]] = set()
    for match in matches:
        if match.a in members and match.b in members:
            wins[match.winner] += 1
            points[match.a] += match.points_a
            points[match.b] += match.points_b
            met.add(frozenset((match.a, match.b)))
    if len(met) < len(group) * (len(group) - 1) // 2:
        return [group]  # some of them never met: no fair mini-table, a shared place
    levels: dict[tuple[int, int], list[P]] = defaultdict(list)
    for player in group:
        levels[(wins[player], points[player])].append(player)
    if len(levels) == 1:
        return [group]  # the mini-table separates nobody: a shared place
    runs: list[list[P]] = []
    for key in sorted(levels, reverse=True):
        # A smaller group has a mini-table of its own: only the matches among its members.
        runs.extend(_head_to_head(levels[key], matches))
    return runs


# -- Swiss --------------------------------------------------------------------------------


def swiss_history(results: Iterable[Result[P]]) -> tuple[list[tuple[P, P]], list[P]]:
    """``played_pairs`` (in the order played, first dealer first) and ``byes_had`` of
    ``results``, as :func:`swiss_round` takes them."""
    ordered = sorted(results, key=lambda result: result.round)
    pairs = [(r.a, r.b) for r in ordered if isinstance(r, MatchResult)]
    byes = [r.player for r in ordered if isinstance(r, Bye)]
    return pairs, byes


def swiss_next(
    players: Sequence[P],
    results: Sequence[Result[P]],
    *,
    bye_value: ByeValue,
    seed: int | None = None,
) -> Pairing[P]:
    """The next Swiss round for ``players`` (those still playing) after ``results``.

    ``results`` may name players who have withdrawn since: they count in the standings
    that rank the others, and are not paired.
    """
    everyone = list(dict.fromkeys([*players, *(p for r in results for p in _players_of(r))]))
    pairing = set(players)
    table = h2h_standings(everyone, results, bye_value=bye_value)
    played_pairs, byes_had = swiss_history(results)
    return swiss_round(
        [row for row in table if row.player in pairing],
        played_pairs=played_pairs,
        byes_had=byes_had,
        seed=seed,
    )


def swiss_round(
    standings: Sequence[H2HStanding[P]],
    *,
    played_pairs: Iterable[tuple[P, P]],
    byes_had: Iterable[P],
    seed: int | None = None,
) -> Pairing[P]:
    """Pair the players of ``standings`` (best first) for the next Swiss round.

    The pairing is a minimum-weight perfect matching over all pairs (exactly, however few
    of them :func:`min_cost_perfect_matching` needs to look at), with weights chosen so
    that, in this order of importance:

    1. nobody has a second bye while someone has had none (with an odd count);
    2. the fewest rematches: a pair meets again only when every pairing has a rematch;
       among as many rematches, the pairs that met least often before;
    3. the bye goes to the lowest-ranked player without one (a higher one only when the
       lowest would force a rematch);
    4. players meet others with as close a number of match wins as possible;
    5. then as close a rank as possible: leaders meet leaders (1-2, 3-4, ...).

    ``played_pairs`` are the matches so far in the order played, first dealer first (they
    balance who deals first); ``byes_had`` names a player once per bye. Players there who
    are not in ``standings`` (withdrawn) are ignored. Players sharing a place are taken in
    the order given, or shuffled by ``seed`` when one is given (a first round is all one
    shared place). The same input always gives the same pairing.
    """
    players = [row.player for row in standings]
    _require_distinct(players)
    count = len(players)
    if count < SWISS_MIN:
        raise RuleViolation(
            ngettext(
                "%(players)d player checked in; a Swiss round needs at least %(min)d.",
                "%(players)d players checked in; a Swiss round needs at least %(min)d.",
                count,
            ),
            code="swiss_too_few",
            players=count,
            min=SWISS_MIN,
        )
    ranked = _ranked(standings, seed)
    index = {player: i for i, player in enumerate(ranked)}
    by_player = {row.player: row.wins for row in standings}
    wins = [by_player[p] for p in ranked]

    met: Counter[tuple[int, int]] = Counter()
    balance = [0] * count  # matches as first dealer minus matches as second
    last_seat = [0] * count  # +1 dealt first last time, -1 second, 0 not played yet
    for a, b in played_pairs:
        i, j = index.get(a), index.get(b)
        if i is not None:
            balance[i] += 1
            last_seat[i] = 1
        if j is not None:
            balance[j] -= 1
            last_seat[j] = -1
        if i is not None and j is not None:
            met[(min(i, j), max(i, j))] += 1
    bye_count = Counter(index[p] for p in byes_had if p in index)

    levels = list(wins)
    if count % 2:
        # The empty chair is counted in the group of the player it most likely meets: the
        # lowest-ranked who may sit out. (Levels only speed the matching up.)
        fewest = min(bye_count[i] for i in range(count))
        levels.append(wins[max(i for i in range(count) if bye_count[i] == fewest)])
    matching = min_cost_perfect_matching(
        count + count % 2, _swiss_costs(count, wins, met, bye_count), levels
    )

    pairs: list[tuple[int, int]] = []
    bye: P | None = None
    for u, v in matching:
        i, j = min(u, v), max(u, v)
        if j == count:  # the empty chair
            bye = ranked[i]
        else:
            pairs.append((i, j))
    pairs.sort()
    seated = [_seat(i, j, balance, last_seat) for i, j in pairs]
    return Pairing(
        pairs=tuple((ranked[a], ranked[b]) for a, b in seated),
        bye=bye,
        rematches=tuple((ranked[a], ranked[b]) for a, b in seated if met[(min(a, b), max(a, b))]),
    )


def _ranked(standings: Sequence[H2HStanding[P]], seed: int | None) -> list[P]:
    """The players best first; a shared place in the given order or shuffled by ``seed``."""
    if seed is None:
        return [row.player for row in standings]
    rng = random.Random(seed)
    ranked: list[P] = []
    run: list[P] = []
    for position, row in enumerate(standings):
        run.append(row.player)
        following = standings[position + 1] if position + 1 < len(standings) else None
        if following is None or following.place != row.place:
            rng.shuffle(run)
            ranked.extend(run)
            run = []
    return ranked


Edge = tuple[int, int, int]  # node, node, cost


def _swiss_costs(
    count: int,
    wins: Sequence[int],
    met: Counter[tuple[int, int]],
    bye_count: Counter[int],
) -> list[Edge]:
    """The cost of every pair of players (node = rank) and, for an odd count, of each
    player who may sit out meeting the empty chair (node ``count``).

    Each criterion's weight unit is larger than the most all later criteria can add up to
    over one whole matching, so the matching settles them strictly in order; networkx
    stays exact with Python's integers however large they get.
    """
    edges_in_matching = (count + 1) // 2
    rank_total = edges_in_matching * (count - 1) ** 2  # the most criterion 5 can add up to
    win_unit = rank_total + 1
    spread = max(wins) - min(wins)
    bye_unit = rank_total + edges_in_matching * win_unit * spread**2 + 1
    again_unit = bye_unit * count  # each earlier meeting of a pair that meets again
    most_met = max(met.values(), default=0)
    rematch_unit = again_unit * (edges_in_matching * most_met + 1)

    cost: list[tuple[int, int, int]] = []
    for i in range(count):
        for j in range(i + 1, count):
            weight = win_unit * (wins[i] - wins[j]) ** 2 + (j - i) ** 2
            # The number of rematches first; only then how often those pairs met before.
            again = met[(i, j)]
            cost.append((i, j, weight + rematch_unit * (again > 0) + again_unit * again))
    if count % 2:
        fewest = min(bye_count[i] for i in range(count))
        # Only players with the fewest byes (no bye, while any remain) may sit out; the
        # lowest-ranked of them costs nothing, each place higher one bye unit more.
        cost.extend(
            (i, count, bye_unit * (count - 1 - i)) for i in range(count) if bye_count[i] == fewest
        )
    return cost


# Each node's cheapest edges that make the first, sparse matching (see below).
SPARSE_EDGES = 4


def min_cost_perfect_matching(
    nodes: int, cost: Sequence[Edge], levels: Sequence[int] | None = None
) -> set[tuple[int, int]]:
    """A minimum-cost perfect matching of nodes ``0 .. nodes - 1`` over the edges ``cost``
    (``(i, j, cost)`` with ``i < j``, costs >= 0, a perfect matching among them), exactly
    as a matching over all of them would cost, usually in a fraction of the time.

    ``levels`` (a number per node; the match wins) only speed it up, whatever they are.

    The blossom algorithm over every pair of 256 players takes seconds, and nearly all of
    those pairs could never be chosen. So a first matching is made over a few edges (each
    node's cheapest, and a greedy matching so that a perfect one exists among them); it
    costs some ``U``, and an optimal matching costs at most that. A feasible dual of the
    matching problem (:func:`_reduced_costs`) gives every perfect matching's cost as at
    least ``L`` plus the reduced costs of its edges, all >= 0; so no edge of an optimal
    matching has a reduced cost above ``U - L``, and the second matching, over just the
    edges within that bound, is optimal over all of them. A forced rematch or a bye
    further up makes ``U`` huge and leaves nearly every edge in: such a round costs the
    full matching's time (seconds for 256 players), never a worse pairing.
    """
    bound = _reduced_costs(nodes, cost, levels)
    if bound is None:
        return _perfect(nodes, cost)
    reduced, lower = bound
    # Reduced costs, not costs, pick the first edges: a float edge over an odd cut, which
    # some pair must take, is nobody's cheapest but is among the cheapest reduced.
    ordered = [cost[k] for k in sorted(range(len(cost)), key=lambda k: (reduced[k], cost[k]))]
    per_node = [0] * nodes
    sparse: set[Edge] = set()
    for edge in ordered:
        i, j, _ = edge
        if per_node[i] < SPARSE_EDGES or per_node[j] < SPARSE_EDGES:
            sparse.add(edge)
            per_node[i] += 1
            per_node[j] += 1
    # The greedy edges make sure the sparse ones hold a perfect matching.
    sparse.update(_greedy(nodes, ordered))
    first = _matching(nodes, sorted(sparse))
    if len(first) * 2 == nodes:
        weight_of = {(i, j): weight for i, j, weight in cost}
        upper = sum(weight_of[(min(u, v), max(u, v))] for u, v in first)
        slack = 2 * upper - lower  # doubled like the reduced costs
        kept = [edge for edge, r in zip(cost, reduced, strict=True) if r <= slack]
        if len(kept) < len(cost):
            best = _matching(nodes, kept)
            if len(best) * 2 == nodes:  # always: the first matching's edges are kept
                return best
    return _perfect(nodes, cost)


def _perfect(nodes: int, cost: Sequence[Edge]) -> set[tuple[int, int]]:
    best = _matching(nodes, cost)
    if len(best) * 2 != nodes:
        raise RulesError(f"no perfect matching of {nodes} nodes")
    return best


def _reduced_costs(
    nodes: int, cost: Sequence[Edge], levels: Sequence[int] | None
) -> tuple[list[int], int] | None:
    """Twice each edge's reduced cost under a feasible dual of the perfect-matching
    problem, and twice the dual's value, a lower bound on the cost of every perfect
    matching; None when a node has no edge.

    The dual has a value ``y(v)`` per node and ``z(k)`` per *odd cut*: when the nodes are
    ordered by level, a cut between two levels with an odd number of nodes above it is
    crossed by at least one edge of every perfect matching (someone floats down). It is
    feasible when each edge's cost covers ``y`` at both ends plus ``z`` of the odd cuts it
    crosses: ``z(k)`` is the least, over the edges crossing ``k``, of the edge's cost
    shared among its odd cuts, and ``y(v)`` half the least of what remains at ``v``. A
    perfect matching then costs ``sum(y) + sum(z)`` plus its edges' reduced costs (what
    remains of each edge's cost after ``y`` and ``z``), and more when it crosses a cut twice.
    Without the cuts a forced float would leave every float edge in play.
    """
    crossed: list[list[int]] = [[] for _ in cost]  # the odd cuts each edge crosses
    cut_dual: dict[int, int] = {}
    if levels is not None:
        values = sorted(set(levels), reverse=True)
        position = {value: k for k, value in enumerate(values)}
        sizes = Counter(levels)
        above = 0
        odd: list[int] = []  # cut k lies between values[k] and values[k + 1]
        for k, value in enumerate(values[:-1]):
            above += sizes[value]
            if above % 2:
                odd.append(k)
        for index, (i, j, weight) in enumerate(cost):
            low, high = sorted((position[levels[i]], position[levels[j]]))
            cuts = [k for k in odd if low <= k < high]
            crossed[index] = cuts
            for k in cuts:
                share = weight // len(cuts)  # rounding down keeps the dual feasible
                cut_dual[k] = min(cut_dual.get(k, share), share)
    remaining = [
        weight - sum(cut_dual[k] for k in cuts)
        for (_, _, weight), cuts in zip(cost, crossed, strict=True)
    ]
    twice_y = [-1] * nodes  # y(v) doubled: the least remaining cost at v
    for (i, j, _), left in zip(cost, remaining, strict=True):
        for v in (i, j):
            if twice_y[v] < 0 or left < twice_y[v]:
                twice_y[v] = left
    if min(twice_y, default=0) < 0:
        return None
    reduced = [
        2 * left - twice_y[i] - twice_y[j] for (i, j, _), left in zip(cost, remaining, strict=True)
    ]
    return reduced, sum(twice_y) + 2 * sum(cut_dual.values())


def _greedy(nodes: int, ordered: Sequence[Edge]) -> list[Edge]:
    """Edges taken cheapest first while both ends are free; a node with the fewest edges
    (the empty chair, which only some players may take) is matched first, so that on a
    complete graph of the others the result is perfect."""
    degree = [0] * nodes
    for i, j, _ in ordered:
        degree[i] += 1
        degree[j] += 1
    free = [True] * nodes
    taken: list[Edge] = []
    scarce = min(range(nodes), key=lambda v: (degree[v], v)) if nodes else None
    for edge in ordered:
        if scarce in edge[:2] and free[edge[0]] and free[edge[1]]:
            taken.append(edge)
            free[edge[0]] = free[edge[1]] = False
            break
    for edge in ordered:
        if free[edge[0]] and free[edge[1]]:
            taken.append(edge)
            free[edge[0]] = free[edge[1]] = False
    return taken


def _matching(nodes: int, cost: Sequence[Edge]) -> set[tuple[int, int]]:
    """The maximum-cardinality matching of least cost over ``cost``."""
    if not cost:
        return set()
    # Maximum weight of (top - cost) among the matchings of most edges is the least cost:
    # they all have the same number of edges. (networkx's min_weight_matching does this
    # with a copy of the graph.)
    top = max(weight for _, _, weight in cost) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(nodes))
    graph.add_weighted_edges_from((i, j, top - weight) for i, j, weight in cost)
    return set(nx.max_weight_matching(graph, maxcardinality=True))


def _seat(i: int, j: int, balance: list[int], last_seat: list[int]) -> tuple[int, int]:
    """Who of ranks ``i`` < ``j`` deals first: whoever has dealt first less often, then
    whoever sat second last time, then the higher-ranked."""
    if (balance[j], last_seat[j]) < (balance[i], last_seat[i]):
        return j, i
    return i, j


def _require_distinct(players: Sequence[P]) -> None:
    if len(set(players)) != len(players):
        raise RulesError("a player is listed twice")
