from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from rules import VARIANT_IDS, get_variant
from tournaments.models import Event, Player, RegistrationStatus, Seat


class LanguageForm(forms.Form):
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    next = forms.CharField(required=False, widget=forms.HiddenInput)


def _variant_choices() -> list[tuple[str, str]]:
    return [(variant_id, get_variant(variant_id).name) for variant_id in VARIANT_IDS]


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    variant_id = forms.ChoiceField(label=_("Game"), choices=_variant_choices)
    preferred_table_size = forms.IntegerField(
        label=_("Preferred table size"), min_value=2, max_value=6, initial=4
    )
    allow_points_entry = forms.BooleanField(
        label=_("Allow points instead of cards"),
        required=False,
        initial=True,
        help_text=_("Players may type a hand's points when they did not keep the cards."),
    )
    require_laydown = forms.BooleanField(
        label=_("Require the winner's melds"),
        required=False,
        help_text=_(
            "Contract games: the player who went out enters the melds, checked against the contract."
        ),
    )
    confirm_needs_pin = forms.BooleanField(
        label=_("Confirmations need the player's PIN"),
        required=False,
        help_text=_(
            "Each player gets a short PIN on the seating list; confirming a deal asks for it."
        ),
    )

    # The game's house rules set on this form; the rest keep the game's defaults.
    RULE_FIELDS = ("allow_points_entry", "require_laydown")

    def event_fields(self) -> dict[str, Any]:
        """The cleaned form as `event_create`'s arguments: the event's own fields, and the
        house rules as the game's options."""
        data = dict(self.cleaned_data)
        options = {name: data.pop(name) for name in self.RULE_FIELDS}
        return {**data, "options": options}


class GuestForm(forms.Form):
    name = forms.CharField(label=_("Guest's name"), max_length=120)


class RegistrationForm(forms.Form):
    """Check in one of the club's players, or a guest by name."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), required=False)
    name = forms.CharField(max_length=120, required=False)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(club=event.club)  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not (data.get("name") or "").strip():
            raise forms.ValidationError(_("Pick a player or type a guest's name."))
        return data


class RegistrationStatusForm(forms.Form):
    status = forms.ChoiceField(choices=RegistrationStatus.choices)


class SwapForm(forms.Form):
    """Two different seats of the event's tables, to swap their players."""

    first = forms.ModelChoiceField(queryset=Seat.objects.none())
    second = forms.ModelChoiceField(queryset=Seat.objects.none(), label=_("Swap with"))

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seats = Seat.objects.filter(table__stage__event=event)
        self.fields["first"].queryset = seats  # type: ignore[attr-defined]
        self.fields["second"].queryset = seats  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("first") or not data.get("second") or data["first"] == data["second"]:
            raise forms.ValidationError(_("Pick two different seats to swap."))
        return data
