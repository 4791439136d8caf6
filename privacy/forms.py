from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class RecordHiddenForm(forms.Form):
    """Hide a record page from the public, or show it again."""

    hidden = forms.BooleanField(label=_("Hide the record page from the public"), required=False)
