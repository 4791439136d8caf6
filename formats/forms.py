"""The director's forms for closing a championship stage: a tie-break, and the close."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.engine.advancement import PendingTie, TieBreakMethod


class TieBreakForm(forms.Form):
    """How a tie was settled: the method, the tied players best first (one list each), a
    note. The players offered are exactly the tie's; the service checks it again."""

    method = forms.ChoiceField(label=_("How it was settled"))
    note = forms.CharField(label=_("Note"), max_length=200, required=False)

    def __init__(self, *args: Any, tie: PendingTie[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tie = tie
        self.fields["method"].choices = [  # type: ignore[attr-defined]
            (value, gettext(label)) for value, label in TieBreakMethod.choices()
        ]
        players = [(str(p.player), p.name) for p in tie.players]
        self.place_names: list[str] = []
        for index, placing in enumerate(tie.players, start=1):
            name = f"place_{index}"
            self.fields[name] = forms.TypedChoiceField(
                label=gettext("Place %(place)d") % {"place": tie.place + index - 1},
                choices=players,
                coerce=int,
                initial=str(placing.player),
            )
            self.place_names.append(name)

    @property
    def place_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.place_names]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        order = [data.get(name) for name in self.place_names]
        if None not in order and len(set(order)) != len(order):
            raise forms.ValidationError(gettext("Pick each tied player once."))
        return data

    def order(self) -> list[int]:
        return [self.cleaned_data[name] for name in self.place_names]


class StageCloseForm(forms.Form):
    """The stage the page showed: closing it twice, or another one, is refused."""

    stage = forms.IntegerField(min_value=1, max_value=32767, widget=forms.HiddenInput)


class DriftDecisionForm(forms.Form):
    """The director's decision on a closed stage whose corrected scores would now decide
    otherwise: the stage, the drift the page showed (its token), and the choice."""

    stage = forms.IntegerField(min_value=1, max_value=32767, widget=forms.HiddenInput)
    token = forms.CharField(max_length=64, widget=forms.HiddenInput)
    choice = forms.ChoiceField(
        choices=[("kept", _("Keep the decision")), ("reopened", _("Reopen the stage"))]
    )
