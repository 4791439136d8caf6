"""The director's tie-break precedence for an event: one choice per position after the
total, set to the event's (the game's usual order until the director changes it)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext

from core.i18n import violation_text
from rules import RuleViolation
from tournaments.engine.tiebreaks import (
    TOTAL,
    allowed_tie_breaks,
    default_tie_breaks,
    tie_break_label,
    tie_break_precedence,
)
from tournaments.models import Event


def _field_name(position: int) -> str:
    return f"tie_break_{position}"


class TieBreaksForm(forms.Form):
    """The total, then the chosen tie-breaks, the first position first; a position left
    empty is skipped. `cleaned_data["order"]` is what `event_tie_breaks_set` takes: empty
    when the choice is the game's usual order, so that the event follows the game."""

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        names = [name for name in allowed_tie_breaks(event.variant_id) if name != TOTAL]
        choices = [("", gettext("—")), *((name, gettext(tie_break_label(name))) for name in names)]
        self.default = default_tie_breaks(event.variant_id)
        current = tie_break_precedence(event.tie_breaks or None, game=event.variant_id)[1:]
        for position in range(1, len(names) + 1):
            self.fields[_field_name(position)] = forms.ChoiceField(
                label=gettext("Tie-break %(position)d") % {"position": position},
                choices=choices,
                required=False,
                initial=current[position - 1] if position <= len(current) else "",
            )
        self.positions = len(names)

    @property
    def position_fields(self) -> list[forms.BoundField]:
        return [self[_field_name(position)] for position in range(1, self.positions + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        order = [
            data[_field_name(position)]
            for position in range(1, self.positions + 1)
            if data.get(_field_name(position))
        ]
        try:
            chosen = tie_break_precedence([TOTAL, *order], game=self.event.variant_id)
        except RuleViolation as error:
            raise forms.ValidationError(violation_text(error)) from None
        data["order"] = [] if chosen == self.default else list(chosen)
        return data

    @property
    def order(self) -> list[str]:
        """The chosen precedence once the form is valid (empty: the game's usual order)."""
        return list(self.cleaned_data.get("order", []))

    @property
    def default_labels(self) -> list[str]:
        """The game's usual order, in the reader's words."""
        return [gettext(tie_break_label(name)) for name in self.default]
