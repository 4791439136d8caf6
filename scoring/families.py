"""How each family of games is entered on the site: the one place that knows.

The engine says how a deal of a game is entered (`Variant.family`: "contract", "gin",
"tizlapos"); this registry gives each family its deal form and per-seat form, its template
partial, its words for the history page and the choices its fields offer, built from the
engine's own constants. Views and templates ask `family_of(variant)` once and never compare
a game's id.

`DealEntry` is one deal on the page: the family's deal form and one form per seat, read
from a post, from a stored entry (a correction) or blank; `to_entry()` is what the engine
judges, and `add_violation()` puts the engine's verdict on the field it names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.forms import BoundField
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from rules import RuleViolation, Variant, game_spec
from rules.gin import ENDINGS as GIN_ENDINGS
from rules.tizlapos import ENDINGS as TIZ_ENDINGS
from rules.tizlapos import SPECIALS
from scoring.forms import (
    Choices,
    ContractDealForm,
    ContractSeatForm,
    DealEntryForm,
    GinDealForm,
    GinSeatForm,
    SeatEntryForm,
    SeatFormSet,
    TizDealForm,
    TizSeatForm,
    seat_formset,
)
from scoring.i18n import violation_text
from tournaments.models import Seat

Words = str | Promise

# The players' words for the engine's values; a value the engine adds later shows as itself
# until it has words here (tests/scoring/test_entry_forms.py says which are missing).
ENDING_WORDS: Mapping[str, Words] = {
    "knock": gettext_lazy("Knock"),
    "romi": gettext_lazy("Römi"),
    "void": gettext_lazy("Void: the stock ran out"),
}
SPECIAL_WORDS: Mapping[str, Words] = {
    "royal": gettext_lazy("Royal flush"),
    "piccolo": gettext_lazy("Piccolo"),
    "colour_flush": gettext_lazy("Colour flush"),
    "figure_flush": gettext_lazy("Figure flush"),
}


def _choices(values: Sequence[str], words: Mapping[str, Words]) -> Choices:
    return tuple((value, words.get(value, value)) for value in values)


# What a change of each part of an entry is called on the history page.
_SEAT_LINE_WORDS: Mapping[str, Words] = {
    "cards": gettext_lazy("cards"),
    "points": gettext_lazy("points"),
}


def _never(variant: Variant) -> bool:
    return False


def _records_ravaytys(variant: Variant) -> bool:
    """Whether a deal of this contract game records a räväytys (going out in one turn with
    no earlier laydown): the game's spec says so."""
    return game_spec(variant).records_ravaytys


@dataclass(frozen=True)
class EntryFamily:
    """How the games of one family are entered, shown and described."""

    name: str
    deal_form: type[DealEntryForm]
    seat_form: type[SeatEntryForm]
    template: str
    # Entry key (or a seat line's part) → its words on the history page.
    labels: Mapping[str, Words]
    # The entry keys whose value is a seat: the history page names the player.
    seat_keys: frozenset[str]
    # The entry keys (or seat line parts) that hold cards: shown with their suit signs.
    card_keys: frozenset[str]
    # A field's choices (beyond the table's seats), from the engine's constants.
    choices: Mapping[str, Choices]
    # What a field holds when nothing was picked: the engine's usual ending.
    initial: Mapping[str, str]
    records_ravaytys: Callable[[Variant], bool] = _never

    @property
    def formset(self) -> type[SeatFormSet]:
        return seat_formset(self.seat_form)


FAMILIES: Mapping[str, EntryFamily] = {
    family.name: family
    for family in (
        EntryFamily(
            name="contract",
            deal_form=ContractDealForm,
            seat_form=ContractSeatForm,
            template="scoring/entry/contract.html",
            labels={
                "out": gettext_lazy("went out"),
                "laydown": gettext_lazy("melds"),
                "ravaytys": gettext_lazy("räväytys"),
                **_SEAT_LINE_WORDS,
                "buys": gettext_lazy("buys"),
            },
            seat_keys=frozenset({"out"}),
            card_keys=frozenset({"cards", "laydown"}),
            choices={},
            initial={},
            records_ravaytys=_records_ravaytys,
        ),
        EntryFamily(
            name="gin",
            deal_form=GinDealForm,
            seat_form=GinSeatForm,
            template="scoring/entry/gin.html",
            labels={
                "ending": gettext_lazy("ending"),
                "by": gettext_lazy("knocked or went römi"),
                "upper": gettext_lazy("upper card"),
                "hands": gettext_lazy("hand"),
                "deadwood": gettext_lazy("deadwood"),
            },
            seat_keys=frozenset({"by"}),
            card_keys=frozenset({"upper", "hands"}),
            choices={"ending": _choices(GIN_ENDINGS, ENDING_WORDS)},
            initial={"ending": "knock"},
        ),
        EntryFamily(
            name="tizlapos",
            deal_form=TizDealForm,
            seat_form=TizSeatForm,
            template="scoring/entry/tizlapos.html",
            labels={
                "winner": gettext_lazy("won the deal"),
                "ending": gettext_lazy("ending"),
                "knock_card": gettext_lazy("knock card"),
                **_SEAT_LINE_WORDS,
                "special": gettext_lazy("special hand"),
                "drop_out": gettext_lazy("drops out"),
                "reenter": gettext_lazy("buys back in"),
            },
            seat_keys=frozenset({"winner"}),
            card_keys=frozenset({"cards", "knock_card"}),
            choices={
                "ending": _choices(TIZ_ENDINGS, ENDING_WORDS),
                "special": _choices(SPECIALS, SPECIAL_WORDS),
            },
            initial={"ending": "romi"},
        ),
    )
}


def family_of(variant: Variant) -> EntryFamily:
    """The entry family of `variant`'s game: the one dispatch on the kind of game."""
    return FAMILIES[variant.family]


# Engine lists with one item per seat, and the seat form's field each item is typed in.
_SEAT_LISTS = {"hands": "cards", "deadwood": "points"}


def flatten_entry(entry: Any) -> dict[tuple[str, int | None, str], Any]:
    """A stored entry's values by (key, seat, part), in the entry's order: `players.2.cards`
    is ("players", 2, "cards"), `hands.1` ("hands", 1, "hands"), `upper` ("upper", None,
    "upper")."""
    flat: dict[tuple[str, int | None, str], Any] = {}
    for key, value in (entry or {}).items():
        if key == "players" and isinstance(value, list):
            for seat, line in enumerate(value):
                for part, item in (line or {}).items():
                    flat[(key, seat, part)] = item
        elif key in _SEAT_LISTS and isinstance(value, list):
            for seat, item in enumerate(value):
                flat[(key, seat, key)] = item
        else:
            flat[(key, None, key)] = value
    return flat


def field_of(engine_field: str | None) -> tuple[int | None, str] | None:
    """Where an engine error belongs on the page: (seat, field name), the seat None for the
    deal form; None when the error names no field. `players.2.cards` → (2, "cards"),
    `players.2` → (2, "cards"), `hands.1` → (1, "cards"), `deadwood.0` → (0, "points"),
    `laydown.1` → (None, "laydown"), `upper` → (None, "upper")."""
    parts = (engine_field or "").split(".")
    head, index = parts[0], parts[1] if len(parts) > 1 else ""
    seat = int(index) if index.isascii() and index.isdigit() else None
    if head == "players" and seat is not None:
        return seat, parts[2] if len(parts) > 2 else "cards"
    if head in _SEAT_LISTS and seat is not None:
        return seat, _SEAT_LISTS[head]
    return (None, head) if head else None


class DealEntry:
    """One deal as the entry page shows and posts it: the family's deal form and a form per
    seat. Bound to a post (`data`), or showing a stored entry (`stored`, a correction), or
    blank."""

    def __init__(
        self,
        variant: Variant,
        seats: Sequence[Seat],
        *,
        data: Mapping[str, Any] | None = None,
        stored: Mapping[str, Any] | None = None,
    ) -> None:
        self.variant = variant
        self.seats = list(seats)
        self.family = family_of(variant)
        deal_initial, lines = self.family.deal_form.initial_of(stored) if stored else ({}, [])
        self.deal = self.family.deal_form(
            data,
            variant=variant,
            choices=self.family.choices,
            seats=[(seat.position, seat.player.name) for seat in self.seats],
            ravaytys=self.family.records_ravaytys(variant),
            initial={**self.family.initial, **deal_initial},
        )
        self.seat_forms = self.family.formset(
            data,
            seats=[seat.position for seat in self.seats],
            initial=lines[: len(self.seats)] or None,
            form_kwargs={"variant": variant, "choices": self.family.choices},
        )

    def is_valid(self) -> bool:
        """Whether every field reads (both forms are checked, so every error is found) and
        no error has been added since."""
        return all([self.deal.is_valid(), self.seat_forms.is_valid()])

    def to_entry(self) -> dict[str, Any]:
        """The engine's entry dict (only once `is_valid()`)."""
        return self.deal.to_entry([form.line() for form in self.seat_forms])

    def add_violation(self, error: RuleViolation) -> None:
        """Put the engine's error on the field it names; one with no field on the page goes
        above the form, never lost."""
        message = violation_text(error, self.names)
        place = field_of(error.field)
        seat, name = place if place else (None, "")
        forms = self.seat_forms.forms
        form = self.deal if seat is None else forms[seat] if seat < len(forms) else None
        if form is not None and name in form.fields:
            form.add_error(name, message)
        else:
            self.deal.add_error(None, message)

    @property
    def names(self) -> list[str]:
        """The players' names in seat order: the engine's messages name them."""
        return [seat.player.name for seat in self.seats]

    @property
    def seat_rows(self) -> list[tuple[Seat, SeatEntryForm]]:
        return list(zip(self.seats, self.seat_forms, strict=True))

    @property
    def fields(self) -> list[BoundField]:
        """Every field on the page, the deal's then each seat's: each has its error slot."""
        return [field for form in (self.deal, *self.seat_forms) for field in form]

    def non_field_errors(self) -> list[str]:
        errors = [*self.deal.non_field_errors(), *self.seat_forms.non_form_errors()]
        return [str(error) for error in errors]

    def messages(self) -> list[str]:
        """Every error, those above the form first: the live check lists them."""
        return [*self.non_field_errors(), *(str(e) for field in self.fields for e in field.errors)]
