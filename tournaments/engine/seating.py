"""Reseating a series: who sits with whom, round after round, meeting as few earlier
tablemates as possible. Pure functions, no models, like `draw.py`, whose table sizes and
seeded draw they build on.

Three ways to seat a round:

* :func:`reseat` seats one round at random while avoiding repeats: tablemates who already met
  (``met``, from the rounds played, see :func:`meetings`) and, optionally, pairs the club
  would rather keep apart (``pair_cost``, e.g. players of the same club in an open event).
* :func:`plan_series` seats all the remaining rounds at once. Seating round by round paints
  itself into a corner (16 players at tables of 4 reseated greedily for 5 rounds mostly end
  with 8 repeats; planned together, always with none), so the search weighs them together.
* :func:`seat_by_standings` seats similar totals together (the leaders at table 1), as Skat
  series are seated by results.

The search (both :func:`reseat` and :func:`plan_series`) is the min-conflicts local search
known from the social golfer problem. Each round starts from
:func:`~tournaments.engine.draw.draw_tables` with a seed drawn from ``seed``. Each step picks a pair
in conflict at random (tablemates meeting again, or a pair ``pair_cost`` would rather part),
one of its two players and one round they share a table in, and makes the best swap of that
player with anyone at another table of that round, even when the best swap makes things
worse: that is what walks the search out of a local minimum (ties are broken at random, which
keeps it from cycling; a tabu list was tried and only slowed it down). After
``STALL_STEPS`` moves without a new best, it goes back to the best seating and shakes it
with a few random swaps. It stops at zero cost (nothing left to improve), when its budget of
evaluated swaps is spent, or at the deadline, and returns the best seating it saw.

Determinism and the time box: every choice comes from one ``random.Random(seed)`` and the
players are sorted first (by ``repr``, as ``draw_tables`` does, so a player's ``repr`` must
tell them apart), so the same players, history and seed give the same seating whatever the
input order. The search is bounded by its budget of evaluated swaps (:func:`default_budget`,
scaled to the problem, about a second of work at most), and that is what makes a rerun give
the same answer; the wall-clock ``deadline_s`` is only a safety net for a slow or overloaded
machine. When the deadline does cut the search short the seating is still valid (every
player seated once, tables within bounds) and as good as the search got, but a rerun may
differ: ``search.cut_short`` says so. A service should therefore store the tables it shows,
not only the seed.

What is minimized, for each pair of tablemates in each round: 1 when they had met before (in
``met`` or an earlier round of the plan; this is what the repeat count counts), plus
``SPREAD`` for each earlier meeting beyond the first, so unavoidable repeats fall on many
pairs rather than on one pair every round, plus ``pair_cost(a, b)`` when given. It must not
be negative, and is asked once per pair (in either order, then remembered); 0.5 makes two
players of one club at a table a lesser evil than a repeat, 2 a greater one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from tournaments.engine.draw import TableBounds, draw_tables, table_sizes

__all__ = [
    "SPREAD",
    "PairCost",
    "Search",
    "Seating",
    "SeriesPlan",
    "default_budget",
    "describe_seating",
    "meetings",
    "plan_series",
    "reseat",
    "seat_by_standings",
]

P = TypeVar("P", bound=Hashable)

PairCost = Callable[[P, P], float]

# The extra cost of each earlier meeting beyond the first: small enough that the number of
# repeated pairs is what is minimized first, large enough to spread unavoidable repeats.
SPREAD = 1 / 64

# Moves without a new best before the search goes back to the best seating and shakes it.
STALL_STEPS = 400
# The most of a round's other tables one step looks at: with a thousand players a step that
# looked everywhere would cost a millisecond, and a sample of tables finds a good swap anyway.
MAX_TABLES_LOOKED_AT = 24

# The budget: evaluated swaps per player and round, and the most whatever the size. One
# evaluation takes about 1.5 µs on a current machine, three times that with a pair_cost.
STEPS_PER_PLAYER_ROUND = 2_000
# What a move itself (choosing, swapping, counting again) costs, in evaluated swaps.
MOVE_STEPS = 5
MOST_STEPS = 600_000

# Pair counts are kept in bytearrays (a thousand players need a million of them); a history
# longer than this counts as this long, which changes nothing a search could do about it.
MOST_MEETINGS = 100
MOST_ROUNDS = 100

_EPS = 1e-9


@dataclass(frozen=True)
class Search:
    """How a search went: for logs, the bench and the director's preview."""

    budget: int  # evaluated swaps it was allowed
    steps: int  # evaluated swaps it made
    cut_short: bool  # stopped by the deadline before its budget: a rerun may differ
    seconds: float


@dataclass(frozen=True)
class Seating(Generic[P]):
    """One round's tables, in seat order (the first player of a table deals first).

    ``repeated_pairs`` are the tablemates who had met before, table by table, so a preview
    can say who meets again; ``repeats`` is how many they are. ``extra_cost`` is the sum of
    ``pair_cost`` over tablemates (0 without one). ``search`` is None when the tables were
    only described (:func:`describe_seating`), not searched for.
    """

    tables: list[list[P]]
    repeated_pairs: list[frozenset[P]]
    extra_cost: float = 0.0
    search: Search | None = None

    @property
    def repeats(self) -> int:
        return len(self.repeated_pairs)


@dataclass(frozen=True)
class SeriesPlan(Generic[P]):
    """The next rounds of a series, each a :class:`Seating`.

    A round's repeated pairs are the tablemates who met in ``met`` or in an earlier round of
    the plan, so ``repeats`` is the total the series would add.
    """

    rounds: list[Seating[P]]
    search: Search

    @property
    def repeats(self) -> int:
        return sum(seating.repeats for seating in self.rounds)

    @property
    def extra_cost(self) -> float:
        return sum(seating.extra_cost for seating in self.rounds)


def meetings(rounds: Iterable[Iterable[Iterable[P]]]) -> dict[frozenset[P], int]:
    """How often each pair of players shared a table in ``rounds`` (each a list of tables):
    the ``met`` that :func:`reseat` and :func:`plan_series` take."""
    met: dict[frozenset[P], int] = {}
    for tables in rounds:
        for table in tables:
            seated = list(table)
            for i, a in enumerate(seated):
                for b in seated[i + 1 :]:
                    pair = frozenset((a, b))
                    met[pair] = met.get(pair, 0) + 1
    return met


def describe_seating(
    tables: Sequence[Sequence[P]],
    *,
    met: Mapping[frozenset[P], int],
    pair_cost: PairCost[P] | None = None,
) -> Seating[P]:
    """The repeats (and pair costs) of any tables: a round seated by standings, a
    director's own change, a stored draw shown again."""
    repeated: list[frozenset[P]] = []
    extra = 0.0
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                pair = frozenset((a, b))
                if met.get(pair, 0) > 0:
                    repeated.append(pair)
                if pair_cost is not None:
                    extra += pair_cost(a, b)
    return Seating(tables=[list(t) for t in tables], repeated_pairs=repeated, extra_cost=extra)


def default_budget(players: int, rounds: int = 1, *, with_pair_cost: bool = False) -> int:
    """The evaluated swaps a search may make: scaled to the problem, capped at about a second
    of work (a third as many with a ``pair_cost``, whose evaluations cost three times as
    much). 16 players for 5 rounds get 180 000; the hardest of 300 seeds needed 51 000."""
    steps = min(MOST_STEPS, 20_000 + STEPS_PER_PLAYER_ROUND * players * rounds)
    return steps // 3 if with_pair_cost else steps


def reseat(
    players: Sequence[P],
    *,
    bounds: TableBounds,
    met: Mapping[frozenset[P], int],
    seed: int,
    deadline_s: float = 2.0,
    pair_cost: PairCost[P] | None = None,
    budget: int | None = None,
) -> Seating[P]:
    """Seat one round at random, meeting as few earlier tablemates as the search can.

    Table sizes come from :func:`~tournaments.engine.draw.table_sizes` (which raises
    ``RuleViolation`` when the players cannot be seated). With no history and no
    ``pair_cost`` this is ``draw_tables(players, bounds, seed=seed)`` itself. Pairs in
    ``met`` with a player not in ``players`` (a withdrawal) are ignored. ``budget``
    overrides :func:`default_budget`.

    Give every round its own seed (the stage's): the search starts from the seed's plain
    draw, and a seed already used for a round played would start it from all of that
    round's repeats (it still undoes them, only ten times slower).
    """
    plan = plan_series(
        players,
        rounds=1,
        bounds=bounds,
        met=met,
        seed=seed,
        deadline_s=deadline_s,
        pair_cost=pair_cost,
        budget=budget,
    )
    only = plan.rounds[0]
    return Seating(
        tables=only.tables,
        repeated_pairs=only.repeated_pairs,
        extra_cost=only.extra_cost,
        search=plan.search,
    )


def plan_series(
    players: Sequence[P],
    *,
    rounds: int,
    bounds: TableBounds,
    met: Mapping[frozenset[P], int],
    seed: int,
    deadline_s: float = 5.0,
    pair_cost: PairCost[P] | None = None,
    budget: int | None = None,
) -> SeriesPlan[P]:
    """Seat the next ``rounds`` rounds of a series together, minimizing the repeats across
    all of them (and ``pair_cost``).

    ``met`` holds the meetings of the rounds already played (:func:`meetings`). Every round
    seats all of ``players``; when they change between rounds (a late entry, a withdrawal),
    plan again with the players now present and the history so far. The plan's first round
    starts from ``draw_tables(players, bounds, seed=seed)``, so a one-round plan is
    :func:`reseat`.
    """
    started = time.perf_counter()
    if not 1 <= rounds <= MOST_ROUNDS:
        raise ValueError(f"a plan has 1 to {MOST_ROUNDS} rounds, not {rounds}")
    ordered = sorted(players, key=repr)
    index = {player: i for i, player in enumerate(ordered)}
    if len(index) != len(ordered):
        raise ValueError("a player is listed twice")
    table_sizes(len(ordered), bounds)  # says why, before any work, when they cannot be seated
    n = len(ordered)
    rng = random.Random(seed)
    start: list[list[list[int]]] = []
    for number in range(rounds):
        round_seed = seed if number == 0 else rng.getrandbits(64)
        drawn = draw_tables(ordered, bounds, seed=round_seed)
        start.append([[index[p] for p in table] for table in drawn])
    prior: dict[int, int] = {}
    for pair, times in met.items():
        if times <= 0 or len(pair) != 2:
            continue
        a, b = pair
        i, j = index.get(a), index.get(b)
        if i is not None and j is not None:
            prior[min(i, j) * n + max(i, j)] = int(min(times, MOST_MEETINGS))
    extra: Callable[[int, int], float] | None = None
    if pair_cost is not None:
        cost_of = pair_cost

        def extra(i: int, j: int) -> float:
            value = float(cost_of(ordered[i], ordered[j]))
            if not value >= 0:
                raise ValueError(f"pair_cost must be a number >= 0, not {value}")
            return value

    allowed = (
        default_budget(n, rounds, with_pair_cost=pair_cost is not None)
        if budget is None
        else budget
    )
    engine = _Engine(n, start, prior, extra, rng)
    engine.run(allowed, started + deadline_s)
    search = Search(
        budget=allowed,
        steps=engine.steps,
        cut_short=engine.cut_short,
        seconds=time.perf_counter() - started,
    )
    seatings: list[Seating[P]] = []
    history = {pair: times for pair, times in met.items() if times > 0}
    for tables in engine.best:
        named = [[ordered[i] for i in table] for table in tables]
        seatings.append(describe_seating(named, met=history, pair_cost=pair_cost))
        for pair, times in meetings([named]).items():
            history[pair] = history.get(pair, 0) + times
    return SeriesPlan(rounds=seatings, search=search)


def seat_by_standings(
    players_in_standing_order: Sequence[P], *, bounds: TableBounds, seed: int | None = None
) -> list[list[P]]:
    """Seat similar totals together: the leaders at table 1, the next ones at table 2, …

    Table sizes come from :func:`~tournaments.engine.draw.table_sizes` (larger tables first, so the
    leaders' table is never a smaller one). Within a table the seat order is the standing
    order, the best placed dealing first, unless ``seed`` is given: then each table is
    shuffled with it, so the first deal does not always fall to the leader. Repeats are not
    avoided (the standings decide); :func:`describe_seating` counts them for the preview.
    """
    sizes = table_sizes(len(players_in_standing_order), bounds)
    rng = random.Random(seed) if seed is not None else None
    tables: list[list[P]] = []
    start = 0
    for size in sizes:
        table = list(players_in_standing_order[start : start + size])
        if rng is not None:
            rng.shuffle(table)
        tables.append(table)
        start += size
    return tables


class _Engine:
    """The search over players numbered 0..n-1 (see the module's docstring).

    For a pair a < b, ``total[a*n+b]`` is how often they met, in ``prior`` and in the
    seating being searched, and ``planned[a*n+b]`` how often in the seating only (only
    that half of the square is used). A pair is in ``_bad`` while it sits together in some
    round and costs something there; the search ends when ``_bad`` is empty.
    """

    def __init__(
        self,
        n: int,
        start: list[list[list[int]]],
        prior: dict[int, int],
        extra: Callable[[int, int], float] | None,
        rng: random.Random,
    ) -> None:
        self.n = n
        self.rng = rng
        self.prior = prior
        self.extra_fn = extra
        self._extra_cache: dict[int, float] = {}
        most = max(prior.values(), default=0) + len(start) + 1
        # add[t]: the cost of one more meeting for a pair that has met t times.
        self.add = [0.0] + [1.0 + SPREAD * (t - 1) for t in range(1, most + 1)]
        self.tables = start
        self.steps = 0
        self.cut_short = False
        self._rebuild()
        self.best = self._copy()
        self.best_cost = self.cost

    def _extra(self, key: int) -> float:
        value = self._extra_cache.get(key)
        if value is None:
            assert self.extra_fn is not None
            value = self._extra_cache[key] = self.extra_fn(*divmod(key, self.n))
        return value

    def _rebuild(self) -> None:
        """Count everything again from ``self.tables``."""
        n, add = self.n, self.add
        self.total = total = bytearray(n * n)
        for key, times in self.prior.items():
            total[key] = times
        self.planned = planned = bytearray(n * n)
        self.table_of = [[0] * n for _ in self.tables]
        self.cost = 0.0
        self._bad: list[int] = []
        self._bad_at: dict[int, int] = {}
        pairs: list[int] = []
        for r, tables in enumerate(self.tables):
            where = self.table_of[r]
            for t, table in enumerate(tables):
                for i, a in enumerate(table):
                    where[a] = t
                    for b in table[i + 1 :]:
                        key = a * n + b if a < b else b * n + a
                        self.cost += add[total[key]]
                        if self.extra_fn is not None:
                            self.cost += self._extra(key)
                        total[key] += 1
                        planned[key] += 1
                        pairs.append(key)
        for key in pairs:
            self._check(key)

    def _check(self, key: int) -> None:
        """Put the pair in or out of the conflicts, as it now is."""
        bad = self.planned[key] > 0 and (
            self.total[key] > 1 or (self.extra_fn is not None and self._extra(key) > 0)
        )
        at = self._bad_at.get(key)
        if bad and at is None:
            self._bad_at[key] = len(self._bad)
            self._bad.append(key)
        elif not bad and at is not None:
            last = self._bad.pop()
            if last != key:
                self._bad[at] = last
                self._bad_at[last] = at
            del self._bad_at[key]

    def _swap(self, r: int, a: int, b: int) -> None:
        """Swap a and b, at two tables of round r, seat for seat."""
        n, total, planned = self.n, self.total, self.planned
        where = self.table_of[r]
        table_a, table_b = self.tables[r][where[a]], self.tables[r][where[b]]
        changed: list[int] = []
        for leaving, coming, table in ((a, b, table_a), (b, a, table_b)):
            for x in table:
                if x != leaving:
                    old = leaving * n + x if leaving < x else x * n + leaving
                    new = coming * n + x if coming < x else x * n + coming
                    total[old] -= 1
                    planned[old] -= 1
                    total[new] += 1
                    planned[new] += 1
                    changed += (old, new)
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = where[b], where[a]
        for key in changed:
            self._check(key)

    def _delta(self, r: int, a: int, b: int) -> float:
        """What swapping a and b in round r would change the cost by."""
        n, total, add = self.n, self.total, self.add
        where = self.table_of[r]
        delta = 0.0
        for leaving, coming, table in (
            (a, b, self.tables[r][where[a]]),
            (b, a, self.tables[r][where[b]]),
        ):
            for x in table:
                if x != leaving:
                    old = leaving * n + x if leaving < x else x * n + leaving
                    new = coming * n + x if coming < x else x * n + coming
                    delta += add[total[new]] - add[total[old] - 1]
                    if self.extra_fn is not None:
                        delta += self._extra(new) - self._extra(old)
        return delta

    def run(self, budget: int, deadline: float) -> None:
        """Search until nothing is left to improve, the budget is spent or the deadline."""
        n, rng, add = self.n, self.rng, self.add
        clock = time.perf_counter
        rounds = len(self.tables)
        has_extra = self.extra_fn is not None
        extra = self._extra
        stalled = 0
        at_best = True  # the seating searched is the best seen (then self.best may be stale)
        if len(self.tables[0]) < 2:
            return  # one table: nobody to swap with
        while self._bad and self.steps < budget:
            if clock() > deadline:
                self.cut_short = True
                break
            a, b = divmod(self._bad[rng.randrange(len(self._bad))], n)
            r = rng.choice([r for r in range(rounds) if self.table_of[r][a] == self.table_of[r][b]])
            p = a if rng.random() < 0.5 else b
            tables, total = self.tables[r], self.total
            own = self.table_of[r][p]
            mates = [x for x in tables[own] if x != p]
            # Inlined _delta, split into what depends on p only, on p and a table, and on q.
            leave_p = 0.0
            for x in mates:
                key = p * n + x if p < x else x * n + p
                leave_p += add[total[key] - 1] + (extra(key) if has_extra else 0.0)
            others = [t for t in range(len(tables)) if t != own]
            if len(others) > MAX_TABLES_LOOKED_AT:
                others = rng.sample(others, MAX_TABLES_LOOKED_AT)
            best_delta = float("inf")
            ties: list[int] = []
            for t in others:
                table = tables[t]
                join_p: dict[int, float] = {}
                for y in table:
                    key = p * n + y if p < y else y * n + p
                    join_p[y] = add[total[key]] + (extra(key) if has_extra else 0.0)
                join_all = sum(join_p.values())
                for q in table:
                    delta = join_all - join_p[q] - leave_p
                    for y in table:
                        if y != q:
                            key = q * n + y if q < y else y * n + q
                            delta -= add[total[key] - 1]
                            if has_extra:
                                delta -= extra(key)
                    for x in mates:
                        key = q * n + x if q < x else x * n + q
                        delta += add[total[key]]
                        if has_extra:
                            delta += extra(key)
                    if delta < best_delta - _EPS:
                        best_delta, ties = delta, [q]
                    elif delta <= best_delta + _EPS:
                        ties.append(q)
                self.steps += len(table)
            self.steps += MOVE_STEPS
            best_q = ties[0] if len(ties) == 1 else rng.choice(ties)
            if at_best and best_delta > -_EPS:
                # Leaving the best seating: keep a copy (only now, since copying every round
                # after each of a downhill run's moves would cost more than the moves).
                self.best = self._copy()
                at_best = False
            self._swap(r, p, best_q)
            self.cost += best_delta
            if self.cost < self.best_cost - _EPS:
                self.best_cost = self.cost
                at_best = True
                stalled = 0
            else:
                stalled += 1
                if stalled >= STALL_STEPS:
                    stalled = 0
                    self.tables = self._copy(self.best)
                    self._rebuild()
                    self._shake()
        if at_best:
            self.best = self._copy()

    def _copy(self, rounds: list[list[list[int]]] | None = None) -> list[list[list[int]]]:
        return [[list(t) for t in tables] for tables in (self.tables if rounds is None else rounds)]

    def _shake(self) -> None:
        """A few random swaps, so the search leaves the best seating by another way."""
        for _ in range(max(2, len(self._bad) // 2)):
            r = self.rng.randrange(len(self.tables))
            tables = self.tables[r]
            ta, tb = self.rng.sample(range(len(tables)), 2)
            a = self.rng.choice(tables[ta])
            b = self.rng.choice(tables[tb])
            self.cost += self._delta(r, a, b)
            self._swap(r, a, b)
