"""What one version of a deal changed against the one before: (what, old, new) lines."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

SEAT_FIELDS = {"out", "by", "winner"}


def _labels() -> dict[str, str]:
    return {
        "out": _("went out"),
        "by": _("knocked or went römi"),
        "winner": _("won the deal"),
        "ending": _("ending"),
        "upper": _("upper card"),
        "knock_card": _("knock card"),
        "laydown": _("melds"),
        "ravaytys": _("räväytys"),
        "cards": _("cards"),
        "points": _("points"),
        "buys": _("buys"),
        "special": _("special hand"),
        "drop_out": _("drops out"),
        "reenter": _("buys back in"),
        "hands": _("hand"),
        "deadwood": _("deadwood"),
    }


def _flatten(entry: Any) -> dict[tuple[str, int | None, str], Any]:
    """(field, seat, part) → value: `players.2.cards` is ("players", 2, "cards")."""
    flat: dict[tuple[str, int | None, str], Any] = {}
    for key, value in (entry or {}).items():
        if key == "players" and isinstance(value, list):
            for seat, line in enumerate(value):
                for part, item in (line or {}).items():
                    flat[(key, seat, part)] = item
        elif key in {"hands", "deadwood"} and isinstance(value, list):
            for seat, item in enumerate(value):
                flat[(key, seat, key)] = item
        else:
            flat[(key, None, key)] = value
    return flat


def _shown(field: str, value: Any, names: list[str]) -> str:
    if value is None or value == "" or value is False:
        return "—"
    if value is True:
        return _("yes")
    if field in SEAT_FIELDS and isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    if isinstance(value, list):
        return " / ".join(str(item) for item in value)
    return str(value)


def entry_changes(
    old: dict[str, Any] | None, new: dict[str, Any], names: list[str]
) -> list[tuple[str, str, str]]:
    """Every field the new entry changed, in the reader's language, seats by player name."""
    if old is None:
        return []
    labels = _labels()
    before, after = _flatten(old), _flatten(new)
    lines = []
    for key in sorted(
        set(before) | set(after), key=lambda k: (k[1] if k[1] is not None else -1, k[0], k[2])
    ):
        _field, seat, part = key
        if _shown(part, before.get(key), names) == _shown(part, after.get(key), names):
            continue
        what = labels.get(part, part)
        if seat is not None:
            what = f"{names[seat] if seat < len(names) else seat + 1}: {what}"
        lines.append(
            (what, _shown(part, before.get(key), names), _shown(part, after.get(key), names))
        )
    return lines
