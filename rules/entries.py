"""The checks every variant's deal entry shares, before its own fields are read.

An entry arrives as a JSON-like dict, as it was typed (a form, a spreadsheet, the command
line), so it may hold anything: a string where a number belongs, a key nobody knows, one
player too many. The contract games, Gin Römi and Tízlapos each read their own fields, but
report a malformed entry, an unknown key, a wrong number of players, a seat that is not at
the table and penalty points that are not a number alike (the same message, code and
field), so the site shows the same error whichever game is played.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeGuard, TypeVar

from rules.errors import RuleViolation, token_text
from rules.i18n import _
from rules.results import DealScore

if TYPE_CHECKING:
    # Only for the annotations: the variants module uses is_int from here.
    from rules.variants import Variant

__all__ = [
    "MAX_ENTRY_NUMBER",
    "bad_entry",
    "bad_score",
    "deal_number",
    "entry_mapping",
    "entry_seat",
    "is_count",
    "is_int",
    "line_points",
    "read_players",
    "stored_scores",
    "table_seats",
]

_Player = TypeVar("_Player")

# The largest number a count in an entry (points, buys) may be; a larger one is no count a
# player made but a slip, and is quoted back rather than computed with.
MAX_ENTRY_NUMBER = 1_000_000


def is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number; ``True`` is an ``int`` to Python, not to a player."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_count(value: object, most: int = MAX_ENTRY_NUMBER) -> TypeGuard[int]:
    """Whether ``value`` is a whole number from 0 to ``most``."""
    return is_int(value) and 0 <= value <= most


def bad_entry(field: str | None, where: str) -> RuleViolation:
    """The violation for an entry whose shape is wrong at ``where`` (not a player's slip)."""
    return RuleViolation(
        _("The score entry is malformed at %(where)s."),
        code="bad_entry",
        field=field,
        where=where,
    )


def entry_mapping(
    data: object, keys: frozenset[str], where: str | None = None
) -> Mapping[str, object]:
    """``data`` as a mapping holding none but ``keys``, or the violation that says why not.

    ``where`` is the field of a nested mapping (``"players.2"``); unknown keys are reported
    under it (``"players.2.colour"``). Without it ``data`` is the whole entry: a non-mapping
    is reported with no field, and unknown keys as fields of their own.
    """
    if not isinstance(data, Mapping):
        raise bad_entry(where, "entry" if where is None else where)
    for key in data:
        if key not in keys:
            name = token_text(key)
            path = name if where is None else f"{where}.{name}"
            raise bad_entry(path, path)
    return data


def read_players(
    variant: Variant,
    data: Mapping[str, object],
    parse_player: Callable[[Variant, int, object], _Player],
) -> tuple[_Player, ...]:
    """The entry's ``players`` list, one line per seat, each read by ``parse_player``.

    The number of lines must be a number of players the variant is played by; that is
    checked before any line is read, so a wrong count is the error shown, not a line's.
    """
    raw_players = data.get("players")
    if not isinstance(raw_players, list | tuple):
        raise bad_entry("players", "players")
    if not variant.min_players <= len(raw_players) <= variant.max_players:
        raise RuleViolation(
            _("%(game)s is played by %(min)d to %(max)d players; this entry has %(count)d."),
            code="player_count",
            field="players",
            game=variant.name,
            min=variant.min_players,
            max=variant.max_players,
            count=len(raw_players),
        )
    return tuple(parse_player(variant, seat, raw) for seat, raw in enumerate(raw_players))


def seat_token(value: object) -> str:
    """A bad seat as the player would say it: entries count from 0, people from 1."""
    return token_text(value + 1 if is_int(value) else value)


def entry_seat(value: object, field: str, seats: int) -> int:
    """``value`` as a seat of a table of ``seats``: counted from 0 in the entry, from 1 in
    the message, which is what a player reads."""
    if not (is_int(value) and 0 <= value < seats):
        raise RuleViolation(
            _('"%(token)s" is not a seat at this table: expected a seat from 1 to %(count)d.'),
            code="bad_seat",
            field=field,
            token=seat_token(value),
            count=seats,
        )
    return value


def line_points(
    variant: Variant, line: Mapping[str, object], where: str, not_allowed: str
) -> int | None:
    """The ``points`` of the player line at ``where``: None when not typed, else 0 or more.

    ``not_allowed`` is the caller's message (marked for translation there, worded for its
    own entry) for points typed in a variant that prices the cards itself.
    """
    points = line.get("points")
    if points is None:
        return None
    if not variant.allow_points_entry:
        raise RuleViolation(
            not_allowed,
            code="points_not_allowed",
            field=f"{where}.points",
            game=variant.name,
        )
    if not is_count(points):
        raise RuleViolation(
            _('"%(token)s" is not a number of penalty points: expected 0 or more.'),
            code="bad_points",
            field=f"{where}.points",
            token=token_text(points),
        )
    return points


def deal_number(variant: Variant, number: object) -> int:
    """``number`` as a deal of a table of ``variant`` (from 1), or the violation."""
    if is_int(number) and 1 <= number <= variant.max_deals:
        return number
    if variant.is_contract_game:
        variant.contract(number)  # raises: the game's own words for a deal it does not have
    raise RuleViolation(
        _("There is no deal %(deal)s: a table of %(game)s scores deals 1 to %(count)d."),
        code="bad_deal",
        field="deal",
        deal=number if is_int(number) and number.bit_length() <= 64 else token_text(number),
        game=variant.name,
        count=variant.max_deals,
    )


# -- the deal scores a table has stored --------------------------------------------------


def bad_score(number: int | None, where: str, field: str = "deals") -> RuleViolation:
    """The violation for stored scores of the wrong shape: deal ``number``'s at ``where``,
    or (without a number) the table's."""
    if number is None:
        return RuleViolation(
            _("The table's scores are malformed at %(where)s."),
            code="bad_score",
            field=field,
            where=where,
        )
    return RuleViolation(
        _("The score of deal %(number)d is malformed at %(where)s."),
        code="bad_score",
        field=field,
        number=number,
        where=where,
    )


def table_seats(variant: Variant, seats: object) -> int:
    """``seats`` as the size of a table of ``variant``, or the violation."""
    if not is_count(seats, 1000):
        raise bad_score(None, "seats", "seats")
    if not variant.min_players <= seats <= variant.max_players:
        raise RuleViolation(
            _("%(game)s is played by %(min)d to %(max)d players; this table has %(count)d."),
            code="player_count",
            field="seats",
            game=variant.name,
            min=variant.min_players,
            max=variant.max_players,
            count=seats,
        )
    return seats


def stored_scores(variant: Variant, seats: int, deals: object) -> Sequence[DealScore]:
    """``deals`` as a table's deal scores in order, each a :class:`DealScore` with a whole
    number of points per seat and its flags in a mapping; else the violation.

    The scores come from storage, not from the engine's hand, so nothing about their shape
    is taken on trust; what the flags say is each game's to check.
    """
    if isinstance(deals, str | bytes | bytearray) or not isinstance(deals, Sequence):
        raise bad_score(None, "deals")
    if len(deals) > variant.max_deals:
        number = variant.max_deals + 1
        if variant.is_contract_game:
            template = _("%(game)s has %(count)d deals; there is no deal %(number)d.")
        else:
            template = _(
                "A table of %(game)s scores at most %(count)d deals; there is no deal %(number)d."
            )
        raise RuleViolation(
            template,
            code="too_many_deals",
            field="deals",
            game=variant.name,
            count=variant.max_deals,
            number=number,
        )
    for number, deal in enumerate(deals, 1):
        if not isinstance(deal, DealScore):
            raise bad_score(number, "deal")
        points = deal.points
        if (
            not isinstance(points, tuple | list)
            or len(points) != seats
            or not all(is_int(p) and abs(p) <= MAX_ENTRY_NUMBER for p in points)
        ):
            raise bad_score(number, "points")
        if not isinstance(deal.flags, Mapping):
            raise bad_score(number, "flags")
    return deals
