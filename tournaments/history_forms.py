"""The forms of a club's past-results import: the file, then the confirmation of its preview."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class HistoryUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Spreadsheet (CSV or XLSX)"),
        help_text=_(
            "Columns: date, game, event name, player, place, total, and optionally the stage "
            "reached; headers in English, Finnish or Hungarian. One row per player per event."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,text/csv"}),
    )


class HistoryConfirmForm(forms.Form):
    # The previewed file, kept on the server under this key until the director confirms.
    token = forms.RegexField(regex=r"^[A-Za-z0-9_-]{16,64}$", widget=forms.HiddenInput)
