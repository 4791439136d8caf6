"""The form that starts a print job from the event's manage page."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.print_jobs import RESULT_SHEETS, TABLE_SHEETS


class PrintJobForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Sheets"),
        choices=[(TABLE_SHEETS, _("score sheets")), (RESULT_SHEETS, _("result sheets"))],
    )
    stage = forms.IntegerField(label=_("Stage"), min_value=1, max_value=1000)
