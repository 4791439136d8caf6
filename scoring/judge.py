"""A table judged as a whole: which deal, if any, stops its standing from being computed.

A deal can be right on its own and wrong in its table (a Tízlapos re-entry of a player who
is still in, a Gin deal after the game reached 150), and a correction of an early deal can
make a later one wrong. The services refuse any save after which the table cannot be
scored; the selectors use the same reading to show a table whose stored deals cannot be
scored (old data, a future rule change) as needing the director, instead of failing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules import DealScore, RulesError, RuleViolation, TableStanding, table_standing
from rules.i18n import _

log = logging.getLogger(__name__)

Rows = list[tuple[int, DealScore]]


class StoredDeal(Protocol):
    number: int
    points: Any
    flags: Any

    @property
    def is_voided(self) -> bool: ...


@dataclass(frozen=True)
class TableProblem:
    """The first deal the table cannot be scored with, and why."""

    number: int
    reason: RuleViolation


def deal_scores(deals: Iterable[StoredDeal]) -> Rows:
    """(number, score) of every deal that counts, in deal order; voided deals do not."""
    return [
        (deal.number, DealScore(points=tuple(deal.points), flags=dict(deal.flags)))
        for deal in deals
        if not deal.is_voided
    ]


def ravaytys_out(flags: Any) -> int | None:
    """The seat that went out with a räväytys in a deal (from the deal's flags, as the
    engine sets them), else None: the one reading every count of räväytys uses."""
    if not isinstance(flags, dict) or flags.get("ravaytys") is not True:
        return None
    out = flags.get("went_out")
    return out if isinstance(out, int) and not isinstance(out, bool) else None


def ravaytys_counts(rows: Rows, seats: int) -> list[int]:
    """Per seat, the deals of `rows` (those a standing counts) it went out with a räväytys;
    zeros in the other games."""
    counts = [0] * seats
    for _number, score in rows:
        out = ravaytys_out(score.flags)
        if out is not None and 0 <= out < seats:
            counts[out] += 1
    return counts


def _renumbered(error: RuleViolation, numbers: Sequence[int]) -> RuleViolation:
    # The engine counts deals by position; with a voided deal set aside, position and deal
    # number differ, and the player reads deal numbers.
    params = dict(error.params)
    for key in ("number", "next", "ended"):
        value = params.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= len(numbers):
            params[key] = numbers[value - 1]
    return RuleViolation(error.template, code=error.code, field=error.field, **params)


def _empty_standing(seats: int) -> TableStanding:
    return TableStanding(
        totals=(0,) * seats,
        lower_is_better=True,
        finished=False,
        ranking=tuple(range(seats)),
        winner=None,
    )


def standing_and_problem(
    variant: Any, seats: int, rows: Rows
) -> tuple[TableStanding, TableProblem | None]:
    """The table's standing, or, when some deal cannot be scored, the standing of the deals
    before it and that deal. Never raises: one table's data must not break a page."""
    try:
        return table_standing(variant, seats, [score for _n, score in rows]), None
    except (RuleViolation, RulesError, TypeError, ValueError, KeyError, IndexError) as error:
        if not isinstance(error, RuleViolation):
            log.warning("table cannot be scored: %r", error)
    numbers = [number for number, _score in rows]
    previous = _empty_standing(seats)
    for count in range(len(rows) + 1):
        try:
            standing = table_standing(variant, seats, [score for _n, score in rows[:count]])
        except (RuleViolation, RulesError, TypeError, ValueError, KeyError, IndexError) as error:
            reason = (
                _renumbered(error, numbers)
                if isinstance(error, RuleViolation)
                else RuleViolation(
                    _("The stored scores do not fit the game's rules."), code="unscorable"
                )
            )
            # Even no deal at all fails when the table itself does not fit the game (its
            # seats): the first deal is then the one named.
            at = numbers[count - 1] if count else (numbers[0] if numbers else 0)
            return previous, TableProblem(number=at, reason=reason)
        previous = standing
    # Scored whole on the second try: the first failure was not in the data.
    return previous, None


def judge_change(
    variant: Any, seats: int, rows: Rows, *, number: int, score: DealScore | None = None
) -> TableStanding:
    """The table's standing with deal `number` set to `score` (None: taken out).

    Refused (RuleViolation) when the table could not be scored afterwards, unless the change
    moves the first unscorable deal later (a director repairing a table deal by deal). The
    message is the engine's own when the changed deal is at fault, and names the later deal
    otherwise.
    """
    _standing, before = standing_and_problem(variant, seats, rows)
    changed = [(n, s) for n, s in rows if n != number]
    if score is not None:
        changed.append((number, score))
    changed.sort(key=lambda row: row[0])
    standing, after = standing_and_problem(variant, seats, changed)
    if after is None or (before is not None and after.number > before.number):
        return standing
    if after.number == number:
        raise after.reason
    if before is not None and after.number == before.number:
        raise RuleViolation(
            _("Deal %(number)d cannot be scored: %(reason)s Correct or void it first."),
            code="unscorable_deal",
            number=after.number,
            reason=after.reason,
        )
    raise RuleViolation(
        _("With this change, deal %(number)d can no longer be scored: %(reason)s"),
        code="breaks_later_deal",
        number=after.number,
        reason=after.reason,
    )
