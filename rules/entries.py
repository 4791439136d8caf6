"""The checks every variant's deal entry shares, before its own fields are read.

An entry arrives as a JSON-like dict, as it was typed (a form, a spreadsheet, the command
line), so it may hold anything: a string where a number belongs, a key nobody knows, one
player too many. The contract games, Gin Römi and Tízlapos each read their own fields, but
report a malformed entry, an unknown key, a wrong number of players, a seat that is not at
the table and penalty points that are not a number alike (the same message, code and
field), so the site shows the same error whichever game is played.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypeGuard, TypeVar

from rules.errors import RuleViolation
from rules.i18n import _

if TYPE_CHECKING:
    # Only for the annotations: the variants module uses is_int from here.
    from rules.variants import Variant

__all__ = ["bad_entry", "entry_mapping", "entry_seat", "is_int", "line_points", "read_players"]

_Player = TypeVar("_Player")


def is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number; ``True`` is an ``int`` to Python, not to a player."""
    return isinstance(value, int) and not isinstance(value, bool)


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
            path = str(key) if where is None else f"{where}.{key}"
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
    return str(int(str(value)) + 1) if is_int(value) else str(value)


def entry_seat(value: object, field: str, seats: int) -> int:
    """``value`` as a seat of a table of ``seats``: counted from 0 in the entry, from 1 in
    the message, which is what a player reads."""
    if not is_int(value) or not 0 <= int(str(value)) < seats:
        raise RuleViolation(
            _('"%(token)s" is not a seat at this table: expected a seat from 1 to %(count)d.'),
            code="bad_seat",
            field=field,
            token=seat_token(value),
            count=seats,
        )
    return int(str(value))


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
    if not is_int(points) or int(str(points)) < 0:
        raise RuleViolation(
            _('"%(token)s" is not a number of penalty points: expected 0 or more.'),
            code="bad_points",
            field=f"{where}.points",
            token=str(points),
        )
    return int(str(points))
