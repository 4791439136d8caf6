"""The table's posts as Django forms: a deal's entry, a confirmation, a void, a seat.

A deal is entered as one deal form (who went out, the upper card, the winner…) and one form
per seat (its cards or points, buys, special hand…), of the family `scoring.families` picks for
the game. The posted names are the page's own (`out`, `p2_cards`, `upper`): the browser's
script and the tests use them. Each form reads and bounds its fields (numbers, seats,
lengths) and puts a bad value's error on that field; `to_entry()` gives the engine the
nested dict it reads (docs/rules.md, "What a score entry is"), and everything else is the
engine's to judge.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.forms.formsets import (
    INITIAL_FORM_COUNT,
    MAX_NUM_FORM_COUNT,
    MIN_NUM_FORM_COUNT,
    TOTAL_FORM_COUNT,
    ManagementForm,
)
from django.utils.translation import gettext_lazy

from rules import RuleViolation, Variant
from rules.entries import MAX_ENTRY_NUMBER
from rules.gin import HAND_SIZE as GIN_HAND_SIZE
from rules.limits import read_cards

# What a form may carry as its request id: the page makes a hex uuid; a retry sends it back.
REQUEST_ID = r"^[A-Za-z0-9_-]{1,64}$"

Choices = Sequence[tuple[str, Any]]


class _RequestForm(forms.Form):
    """The parts of a table's post that say which save it is: the version it was based on
    and the id that makes a double tap record once. A bad value counts as absent: a fresh
    id (the save then records once, as a new request) and version 0 (a clash, shown as such)."""

    expected_version = forms.IntegerField(
        min_value=0, max_value=1_000_000, required=False, widget=forms.HiddenInput
    )
    request_id = forms.RegexField(regex=REQUEST_ID, required=False, widget=forms.HiddenInput)

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
    number = forms.IntegerField(
        min_value=0, max_value=999, required=False, widget=forms.HiddenInput
    )
    # A correction says why, for the history (who, when, old, new and why).
    reason = forms.CharField(
        max_length=200,
        required=False,
        label=gettext_lazy("Why the correction"),
        help_text=gettext_lazy("Kept in the table's history with the change."),
        widget=forms.TextInput(attrs={"id": "correction-reason"}),
    )

    @classmethod
    def for_page(
        cls, *, number: int | None, expected_version: int, reason: str = ""
    ) -> DealMetaForm:
        """The fields of an entry page: its deal, the version it shows, a new id, and a
        correction's reason as typed."""
        initial = {
            "number": number,
            "request_id": uuid.uuid4().hex,
            "expected_version": expected_version,
            "reason": reason,
        }
        return cls(initial=initial, auto_id=False)

    @property
    def deal_number(self) -> int:
        return self._clean_value("number") or 0

    @property
    def correction_reason(self) -> str:
        return (self._clean_value("reason") or "").strip()


def pin_field() -> forms.RegexField:
    return forms.RegexField(
        # Six digits; four on events made before PINs grew.
        regex=r"^[0-9]{4,6}$",
        required=False,
        label=gettext_lazy("Your PIN"),
        error_messages={"invalid": gettext_lazy("A PIN is the digits on your slip: six, or four.")},
    )


class ConfirmForm(_RequestForm):
    pin = pin_field()


class VoidForm(_RequestForm):
    note = forms.CharField(max_length=200, required=False, label=gettext_lazy("Why"))


class SeatForm(forms.Form):
    """A seat as the page posts it: its position, or empty to let this phone's seat go; and
    the seat's PIN when the event asks for PINs."""

    seat = forms.IntegerField(min_value=0, max_value=9, required=False)
    pin = pin_field()


# -- a deal's fields ---------------------------------------------------------------------------

# No field of a deal is longer than this typed out (a laydown of every meld, in words): a
# longer post is refused before the engine reads it.
TEXT_LIMIT = 400
# The value the "nobody went out" choice posts (Rutupeli's exhausted stock).
NOBODY = "none"

NOT_A_WHOLE_NUMBER = gettext_lazy("“%(value)s” is not a whole number.")
PICK_A_PLAYER = gettext_lazy("Pick a player.")
# The engine's own words for a count out of range, so the page says what the engine would.
NOT_PENALTY_POINTS = gettext_lazy(
    '"%(token)s" is not a number of penalty points: expected 0 or more.'
)
NOT_POINTS = gettext_lazy('"%(token)s" is not a number of points: expected 0 or more.')
# The engine's words for a Gin Römi hand of the wrong size (translated where it is shown).
GIN_HAND_SIZE_MESSAGE = "Seat %(seat)d's hand has %(count)d cards; a Gin Römi hand has ten."
CARDS_OR_POINTS = gettext_lazy(
    "Enter the cards left in hand or their points, not both: clear one of them."
)
NOT_BUYS = gettext_lazy('"%(token)s" is not a number of buys: expected 0 or more.')

_CARD_ATTRS = {"autocomplete": "off", "autocapitalize": "characters", "inputmode": "text"}
# The fields' examples read alike in every language the site speaks: suit signs, not the
# English letters (7D), and only the ranks whose letters are the same in Finnish and
# Hungarian (A, K; a Hungarian queen is D, a jack B). The engine reads each of them.
_HAND_EXAMPLE = "A♠ 2♠ 3♠ 4♥ 5♥ 6♥ 7♦ 8♦ 9♣ K♣"
# No `pattern`: the browser would refuse the form with its own bubble in its own language, and
# the live check would never hear of a bad number; the site says what is wrong, by the field.
_NUMBER_ATTRS = {"inputmode": "numeric", "class": "short"}


def _within_text_limit(value: str) -> None:
    if len(value) > TEXT_LIMIT:
        raise ValidationError(
            gettext_lazy(
                "This is longer than any hand: at most %(limit)d characters, not %(count)d."
            ),
            code="too_long",
            params={"limit": TEXT_LIMIT, "count": len(value)},
        )


class TextField(forms.CharField):
    """Cards or melds as typed, stripped, at most TEXT_LIMIT characters; empty is ""."""

    default_validators = [_within_text_limit]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)


class CountField(forms.IntegerField):
    """Points or buys as typed: a whole number from 0 to the engine's largest count, or
    nothing. A bad one is quoted back in the field, in the players' words."""

    def __init__(self, *, out_of_range: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.TextInput(attrs=_NUMBER_ATTRS))
        super().__init__(
            required=False,
            min_value=0,
            max_value=MAX_ENTRY_NUMBER,
            error_messages={"invalid": NOT_A_WHOLE_NUMBER, "out_of_range": out_of_range},
            **kwargs,
        )

    def to_python(self, value: Any) -> int | None:
        try:
            return super().to_python(value)
        except ValidationError:
            raise ValidationError(
                self.error_messages["invalid"], code="invalid", params={"value": value}
            ) from None

    def run_validators(self, value: Any) -> None:
        try:
            super().run_validators(value)
        except ValidationError:
            raise ValidationError(
                self.error_messages["out_of_range"],
                code="out_of_range",
                params={"token": value},
            ) from None


def _seat_choice(**kwargs: Any) -> forms.TypedChoiceField:
    """A seat of the table, one radio per player; the choices are the table's seats."""
    return forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": PICK_A_PLAYER},
        **kwargs,
    )


class _EntryPart(forms.Form):
    """What the deal form and the seat forms share: the page's ids (`f-p2_cards`, which the
    tap grids name), labels with no colon after them, and the choices the registry built."""

    def __init__(self, *args: Any, variant: Variant, choices: Mapping[str, Choices], **kwargs: Any):
        kwargs.setdefault("auto_id", "f-%s")
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.variant = variant
        for name, options in choices.items():
            field = self.fields.get(name)
            if isinstance(field, forms.ChoiceField):
                field.choices = self._blank(field, options)

    @staticmethod
    def _blank(field: forms.ChoiceField, options: Choices) -> list[tuple[str, Any]]:
        # A select starts with "nothing chosen"; radios have no such choice.
        blank = [] if isinstance(field.widget, forms.RadioSelect) else [("", "—")]
        return [*blank, *options]


# -- one seat's line ---------------------------------------------------------------------------


class SeatEntryForm(_EntryPart):
    """One seat's line of a deal: its cards left in hand, or its points where the event
    allows typed points. Its fields post as `p{seat}_{name}` (`p2_cards`), no formset prefix."""

    cards = TextField(
        label=gettext_lazy("Cards left in hand"),
        widget=forms.TextInput(attrs={**_CARD_ATTRS, "placeholder": "A K 7 7"}),
    )
    points = CountField(label=gettext_lazy("…or points"), out_of_range=NOT_PENALTY_POINTS)

    def __init__(self, *args: Any, seat: int, **kwargs: Any) -> None:
        self.seat = seat
        super().__init__(*args, **kwargs)
        if not self.variant.allow_points_entry:
            del self.fields["points"]

    def add_prefix(self, field_name: str) -> str:
        return f"p{self.seat}_{field_name}"

    # Whether a hand with both its cards and its points typed is refused (the player says
    # which); Gin Römi's deal form pairs the two hands up instead.
    refuses_cards_and_points = True

    def clean(self) -> dict[str, Any] | None:
        data = super().clean() or {}
        both = data.get("cards") and data.get("points") is not None
        if both and self.refuses_cards_and_points and "points" in self.fields:
            self.add_error("points", CARDS_OR_POINTS)
        return data

    def line(self) -> dict[str, Any]:
        """This seat's line of the engine's entry: the cards, else the points typed."""
        cards = self.cleaned_data["cards"] or None
        return {"cards": cards, "points": None if cards else self.cleaned_data.get("points")}


class ContractSeatForm(SeatEntryForm):
    buys = CountField(label=gettext_lazy("Buys"), out_of_range=NOT_BUYS)

    def line(self) -> dict[str, Any]:
        return {**super().line(), "buys": self.cleaned_data["buys"] or 0}


class GinSeatForm(SeatEntryForm):
    cards = TextField(
        label=gettext_lazy("Hand (10 cards)"),
        widget=forms.TextInput(attrs={**_CARD_ATTRS, "placeholder": _HAND_EXAMPLE}),
    )
    points = CountField(label=gettext_lazy("…or deadwood points"), out_of_range=NOT_POINTS)
    refuses_cards_and_points = False

    def line(self) -> dict[str, Any]:
        # Gin Römi reads both hands or both deadwood counts: the deal form pairs them up.
        return {"cards": self.cleaned_data["cards"], "points": self.cleaned_data.get("points")}


class TizSeatForm(SeatEntryForm):
    # The engine reads the whole hand and finds its melds, not the cards left over.
    cards = TextField(
        label=gettext_lazy("Hand (10 cards)"),
        widget=forms.TextInput(attrs={**_CARD_ATTRS, "placeholder": _HAND_EXAMPLE}),
    )
    special = forms.ChoiceField(required=False, label=gettext_lazy("Special hand"))
    drop_out = forms.BooleanField(required=False, label=gettext_lazy("Drops out"))
    reenter = forms.BooleanField(required=False, label=gettext_lazy("Buys back in"))

    def line(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            **super().line(),
            "special": data["special"] or None,
            "drop_out": data["drop_out"],
            "reenter": data["reenter"],
        }


class SeatFormSet(forms.BaseFormSet):
    """One form per seat, as many as the table seats. The page posts no management form:
    the table says how many seats there are."""

    def __init__(self, data: Any = None, *, seats: Sequence[int], **kwargs: Any) -> None:
        self.positions = list(seats)
        kwargs.setdefault("auto_id", "f-%s")
        super().__init__(data, prefix="seats", **kwargs)

    def total_form_count(self) -> int:
        return len(self.positions)

    def initial_form_count(self) -> int:
        return len(self.positions)

    @functools.cached_property
    def management_form(self) -> ManagementForm:
        count = len(self.positions)
        counts = {TOTAL_FORM_COUNT: count, INITIAL_FORM_COUNT: count}
        counts |= {MIN_NUM_FORM_COUNT: 0, MAX_NUM_FORM_COUNT: count}
        form = ManagementForm(
            {f"{self.prefix}-{k}": v for k, v in counts.items()}, prefix=self.prefix
        )
        form.full_clean()
        return form

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        kwargs = super().get_form_kwargs(index)
        return kwargs if index is None else {**kwargs, "seat": self.positions[index]}


@functools.cache
def seat_formset(form: type[SeatEntryForm]) -> type[SeatFormSet]:
    """The formset of a family's seat form (made once per form class)."""
    return cast(type[SeatFormSet], forms.formset_factory(form, formset=SeatFormSet, extra=0))


# -- the deal as a whole -----------------------------------------------------------------------


class DealEntryForm(_EntryPart):
    """The deal-level fields of an entry; a family's form says which and builds the entry."""

    # The fields that name a seat: their choices are the table's seats.
    seat_fields: tuple[str, ...] = ()

    def __init__(
        self,
        *args: Any,
        seats: Sequence[tuple[int, str]],
        ravaytys: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        for name in self.seat_fields:
            self._add_choices(name, [(str(position), player) for position, player in seats])
        if not ravaytys:
            self.fields.pop("ravaytys", None)

    def to_entry(self, lines: list[dict[str, Any]]) -> dict[str, Any]:
        """The engine's entry from this form and the seats' lines (both valid)."""
        raise NotImplementedError

    @classmethod
    def initial_of(cls, entry: Mapping[str, Any]) -> tuple[dict[str, Any], list[Mapping[str, Any]]]:
        """The deal's fields and each seat's line of a stored entry, for a correction."""
        lines = entry.get("players")
        return dict(entry), [line if isinstance(line, Mapping) else {} for line in lines or []]

    def _add_choices(self, name: str, choices: Choices) -> None:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [*cast(Choices, field.choices), *choices]

    def _default(self, name: str) -> Any:
        return self.cleaned_data[name] or self.get_initial_for_field(self.fields[name], name)


class ContractDealForm(DealEntryForm):
    seat_fields = ("out",)

    out = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Who went out?"),
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": PICK_A_PLAYER},
    )
    ravaytys = forms.BooleanField(
        required=False, label=gettext_lazy("Räväytys: went out in one turn with no earlier laydown")
    )
    laydown = TextField(
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "7♥ 7♠ 7♦\n5♠ 6♠ 7♠ 8♠"})
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.variant.stock_out_ends_deal:
            self._add_choices("out", [(NOBODY, gettext_lazy("Nobody: the stock ran out"))])
        self.fields["laydown"].label = (
            gettext_lazy("Melds of the player who went out, one per line")
            if self.variant.require_laydown
            else gettext_lazy("Melds of the player who went out, one per line (optional)")
        )

    def to_entry(self, lines: list[dict[str, Any]]) -> dict[str, Any]:
        data = self.cleaned_data
        entry: dict[str, Any] = {}
        if data["out"]:  # else no "out": the engine says to say who went out
            entry["out"] = None if data["out"] == NOBODY else int(data["out"])
        # Cards or points typed for the player who went out go to the engine, which refuses
        # them on that field: never dropped without a word.
        entry["players"] = lines
        laydown = [line.strip() for line in data["laydown"].splitlines() if line.strip()]
        if laydown:
            entry["laydown"] = laydown
        if "ravaytys" in self.fields:
            entry["ravaytys"] = data["ravaytys"]
        return entry

    @classmethod
    def initial_of(cls, entry: Mapping[str, Any]) -> tuple[dict[str, Any], list[Mapping[str, Any]]]:
        deal, lines = super().initial_of(entry)
        if "out" in entry and entry["out"] is None:
            deal["out"] = NOBODY
        laydown = entry.get("laydown")
        deal["laydown"] = "\n".join(map(str, laydown)) if isinstance(laydown, list) else ""
        return deal, [{**line, "buys": line.get("buys") or None} for line in lines]


class GinDealForm(DealEntryForm):
    seat_fields = ("by",)

    ending = forms.ChoiceField(
        required=False, label=gettext_lazy("How did the deal end?"), widget=forms.RadioSelect
    )
    by = _seat_choice(label=gettext_lazy("Who knocked or went römi?"))
    upper = TextField(
        label=gettext_lazy("Upper card"),
        widget=forms.TextInput(
            attrs={"placeholder": "7♦", "autocapitalize": "characters", "autocomplete": "off"}
        ),
    )

    def to_entry(self, lines: list[dict[str, Any]]) -> dict[str, Any]:
        ending, by = self._default("ending"), self.cleaned_data["by"]
        hands = [line["cards"] for line in lines]
        deadwood: list[Any] | None = [line["points"] for line in lines]
        if all(hands):
            deadwood = None
        elif ending == "void" and not any(hands) and all(p is None for p in deadwood or []):
            deadwood = None  # a void deal scores nothing: its ending is the whole entry
        elif ending == "romi" and by in range(len(lines)) and deadwood is not None:
            deadwood = self._romi_deadwood(lines, by, deadwood)
        return {
            "ending": ending,
            "by": by,
            "upper": self.cleaned_data["upper"] or None,
            "hands": hands if all(hands) else None,
            "deadwood": deadwood,
        }

    def _romi_deadwood(self, lines: list[dict[str, Any]], by: int, typed: list[Any]) -> list[Any]:
        """A römi melds every card, so its player's blank deadwood is 0; the other hand,
        typed as cards with the römi player's left blank, is priced as the engine prices
        it (its own ten cards, its best melds)."""
        deadwood = list(typed)
        if deadwood[by] is None and not lines[by]["cards"]:
            deadwood[by] = 0
        for seat, line in enumerate(lines):
            if seat != by and deadwood[seat] is None and line["cards"]:
                deadwood[seat] = _gin_deadwood(self.variant, line["cards"], seat)
        return deadwood

    @classmethod
    def initial_of(cls, entry: Mapping[str, Any]) -> tuple[dict[str, Any], list[Mapping[str, Any]]]:
        hands, deadwood = entry.get("hands"), entry.get("deadwood")
        hands = hands if isinstance(hands, list) else []
        deadwood = deadwood if isinstance(deadwood, list) else []
        seats = max(len(hands), len(deadwood))
        lines: list[Mapping[str, Any]] = [
            {
                "cards": hands[seat] if seat < len(hands) else None,
                "points": deadwood[seat] if seat < len(deadwood) else None,
            }
            for seat in range(seats)
        ]
        return dict(entry), lines


def _gin_deadwood(variant: Variant, text: str, seat: int) -> int:
    """The deadwood of one Gin Römi hand of ten cards, as the engine counts it; a bad card or
    a wrong count is the engine's error on that hand."""
    field = f"hands.{seat}"
    cards = read_cards(variant, text, field, count=False)
    if len(cards) != GIN_HAND_SIZE:
        raise RuleViolation(
            GIN_HAND_SIZE_MESSAGE,
            code="hand_size",
            field=field,
            seat=seat + 1,
            count=len(cards),
            limit=GIN_HAND_SIZE,
        )
    return variant.best_arrangement(cards).deadwood


class TizDealForm(DealEntryForm):
    seat_fields = ("winner",)

    winner = _seat_choice(label=gettext_lazy("Who won the deal?"))
    ending = forms.ChoiceField(required=False, label=gettext_lazy("How?"), widget=forms.RadioSelect)
    knock_card = TextField(
        label=gettext_lazy("Knock card (a 2 or a 3)"),
        widget=forms.TextInput(attrs={"placeholder": "2♥", "autocomplete": "off"}),
    )

    def to_entry(self, lines: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "winner": self.cleaned_data["winner"],
            "ending": self._default("ending"),
            "knock_card": self.cleaned_data["knock_card"] or None,
            "players": lines,
        }
