"""Between the score-entry page's fields and the rules engine's entry dict.

The page posts flat fields (`out`, `p2_cards`, `upper`, …); the engine reads a nested
dict (RULES.md, "What a score entry is"). Both directions live here so the field names
are written once. Numbers that are not numbers are reported here, in the field they were
typed in; everything else is the engine's to judge.
"""

from __future__ import annotations

import functools
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# What a form may carry as its request id: the page makes a hex uuid; a retry sends it back.
REQUEST_ID = r"^[A-Za-z0-9_-]{1,64}$"


class _RequestForm(forms.Form):
    """The parts of a table's post that say which save it is: the version it was based on
    and the id that makes a double tap record once. A bad value counts as absent: a fresh
    id (the save then records once, as a new request) and version 0 (a clash, shown as such)."""

    expected_version = forms.IntegerField(min_value=0, max_value=1_000_000, required=False)
    request_id = forms.RegexField(regex=REQUEST_ID, required=False)

    def _clean_value(self, name: str) -> Any:
        return self.cleaned_data.get(name) if hasattr(self, "cleaned_data") else None

    @property
    def base_version(self) -> int:
        return self._clean_value("expected_version") or 0

    @property
    def save_id(self) -> str:
        return self._clean_value("request_id") or self._fresh_id

    @functools.cached_property
    def _fresh_id(self) -> str:
        return uuid.uuid4().hex


class DealMetaForm(_RequestForm):
    number = forms.IntegerField(min_value=0, max_value=999, required=False)

    @property
    def deal_number(self) -> int:
        return self._clean_value("number") or 0


class ConfirmForm(_RequestForm):
    pin = forms.RegexField(
        regex=r"^[0-9]{4}$",
        required=False,
        label=gettext_lazy("Your PIN"),
        error_messages={"invalid": gettext_lazy("A PIN is four digits.")},
    )


class VoidForm(_RequestForm):
    note = forms.CharField(max_length=200, required=False, label=gettext_lazy("Why"))


class SeatForm(forms.Form):
    """A seat as the page posts it: its position, or empty to let this phone's seat go."""

    seat = forms.IntegerField(min_value=0, max_value=9, required=False)


GIN = "gin_romi"
TIZLAPOS = "tizlapos_romi"


@dataclass
class EntryForm:
    variant: Any
    seats: int
    data: dict[str, str] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)

    def add_error(self, name: str, message: str) -> None:
        # An error for a field the page has no slot for is shown above the form, never lost.
        if name != "__all__" and name not in self.fields_on_page():
            name = "__all__"
        self.errors.setdefault(name, []).append(message)

    def value(self, name: str) -> str:
        return self.data.get(name, "")

    def fields_on_page(self) -> list[str]:
        """The fields the entry page shows for this game (each has an error slot)."""
        if self.variant.id == GIN:
            names = ["by", "upper"]
            parts = ["cards", "points"]
        elif self.variant.id == TIZLAPOS:
            names = ["winner", "knock_card"]
            parts = ["cards", "points", "special", "drop_out", "reenter"]
        else:
            names = ["out", "laydown"]
            parts = ["cards", "points", "buys"]
        if not self.variant.allow_points_entry:
            parts.remove("points")
        return names + [f"p{seat}_{part}" for seat in range(self.seats) for part in parts]


# No field of a deal is longer than this typed out (a laydown of every meld, in words): a
# longer post is refused before the engine reads it.
TEXT_LIMIT = 400


def _text(post: QueryDict, name: str) -> str:
    return (post.get(name) or "").strip()


def _refuse_long(form: EntryForm) -> None:
    for name, value in form.data.items():
        if len(value) > TEXT_LIMIT:
            form.data[name] = value[:TEXT_LIMIT]
            form.add_error(
                name,
                _("This is longer than any hand: at most %(limit)d characters, not %(count)d.")
                % {"limit": TEXT_LIMIT, "count": len(value)},
            )


def _number(form: EntryForm, name: str, *, allow_empty: bool = True) -> int | None:
    raw = form.value(name)
    if raw == "":
        return None
    if re.fullmatch(r"-?\d{1,6}", raw):
        return int(raw)
    form.add_error(name, _("“%(value)s” is not a whole number.") % {"value": raw})
    return None


def _seat(form: EntryForm, name: str) -> int | None:
    raw = form.value(name)
    if raw in {"", "none"}:
        return None
    if raw.isascii() and raw.isdigit() and int(raw) < form.seats:
        return int(raw)
    form.add_error(name, _("Pick a player."))
    return None


def entry_from_post(variant: Any, seats: int, post: QueryDict) -> tuple[dict[str, Any], EntryForm]:
    """The engine's entry dict from the posted fields, and the form with any number errors."""
    names = ["out", "laydown", "ravaytys", "ending", "by", "upper", "winner", "knock_card"]
    for seat in range(seats):
        names += [
            f"p{seat}_{part}"
            for part in ("cards", "points", "buys", "special", "drop_out", "reenter")
        ]
    form = EntryForm(variant=variant, seats=seats, data={name: _text(post, name) for name in names})
    _refuse_long(form)
    if variant.id == GIN:
        entry = _gin(form)
    elif variant.id == TIZLAPOS:
        entry = _tizlapos(form)
    else:
        entry = _contract(form)
    return entry, form


def _cards_or_points(form: EntryForm, seat: int) -> dict[str, Any]:
    cards = form.value(f"p{seat}_cards") or None
    points = _number(form, f"p{seat}_points")
    return {"cards": cards, "points": None if cards else points}


def _contract(form: EntryForm) -> dict[str, Any]:
    out_raw = form.value("out")
    entry: dict[str, Any] = {"out": _seat(form, "out"), "players": []}
    if out_raw == "":
        entry.pop("out")  # the engine says "say who went out"
    for seat in range(form.seats):
        player = _cards_or_points(form, seat)
        if entry.get("out") == seat:
            player = {"cards": None, "points": None}
        player["buys"] = _number(form, f"p{seat}_buys") or 0
        entry["players"].append(player)
    laydown = [line.strip() for line in form.value("laydown").splitlines() if line.strip()]
    if laydown:
        entry["laydown"] = laydown
    if form.variant.id == "ravaytys":
        entry["ravaytys"] = form.value("ravaytys") == "on"
    return entry


def _gin(form: EntryForm) -> dict[str, Any]:
    hands = [form.value("p0_cards"), form.value("p1_cards")]
    deadwood = [_number(form, "p0_points"), _number(form, "p1_points")]
    return {
        "ending": form.value("ending") or "knock",
        "by": _seat(form, "by"),
        "upper": form.value("upper") or None,
        "hands": hands if all(hands) else None,
        "deadwood": None if all(hands) else deadwood,
    }


def _tizlapos(form: EntryForm) -> dict[str, Any]:
    players = []
    for seat in range(form.seats):
        player = _cards_or_points(form, seat)
        player.update(
            special=form.value(f"p{seat}_special") or None,
            drop_out=form.value(f"p{seat}_drop_out") == "on",
            reenter=form.value(f"p{seat}_reenter") == "on",
        )
        players.append(player)
    return {
        "winner": _seat(form, "winner"),
        "ending": form.value("ending") or "romi",
        "knock_card": form.value("knock_card") or None,
        "players": players,
    }


def post_from_entry(variant: Any, entry: dict[str, Any]) -> dict[str, str]:
    """The form's field values for a stored entry: a correction starts from what was saved."""
    data: dict[str, str] = {}

    def put(name: str, value: Any) -> None:
        if value is None or value is False:
            return
        data[name] = "on" if value is True else str(value)

    players = entry.get("players") or []
    for seat, player in enumerate(players):
        put(f"p{seat}_cards", player.get("cards"))
        put(f"p{seat}_points", player.get("points"))
        put(f"p{seat}_buys", player.get("buys") or None)
        put(f"p{seat}_special", player.get("special"))
        put(f"p{seat}_drop_out", player.get("drop_out"))
        put(f"p{seat}_reenter", player.get("reenter"))
    for seat, hand in enumerate(entry.get("hands") or []):
        put(f"p{seat}_cards", hand)
    for seat, points in enumerate(entry.get("deadwood") or []):
        put(f"p{seat}_points", points)
    put("out", "none" if "out" in entry and entry["out"] is None else entry.get("out"))
    for name in ("ending", "by", "upper", "winner", "knock_card", "ravaytys"):
        put(name, entry.get(name))
    if entry.get("laydown"):
        data["laydown"] = "\n".join(entry["laydown"])
    return data


def field_for(engine_field: str | None) -> str:
    """The page field an engine error belongs to: `players.2.cards` → `p2_cards`."""
    if not engine_field:
        return "__all__"
    parts = engine_field.split(".")
    if parts[0] == "players" and len(parts) >= 2 and parts[1].isdigit():
        suffix = parts[2] if len(parts) > 2 else "cards"
        return f"p{parts[1]}_{suffix}"
    if parts[0] in {"hands", "deadwood"} and len(parts) >= 2 and parts[1].isdigit():
        return f"p{parts[1]}_{'cards' if parts[0] == 'hands' else 'points'}"
    if parts[0] == "laydown":
        return "laydown"
    return (
        parts[0]
        if parts[0] in {"out", "ending", "by", "upper", "winner", "knock_card", "ravaytys"}
        else "__all__"
    )
