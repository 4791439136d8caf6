"""Forms for an event's settings that the director may change while it runs."""

from __future__ import annotations

from django import forms
from django.utils.text import capfirst

from tournaments.models import Event, RankingMode

# The model's words (label, help), so the form and the admin say the same thing.
_RANKING_MODE = Event._meta.get_field("ranking_mode")


class RankingModeForm(forms.Form):
    ranking_mode = forms.ChoiceField(
        label=capfirst(_RANKING_MODE.verbose_name),
        help_text=_RANKING_MODE.help_text,
        choices=RankingMode.choices,
    )
