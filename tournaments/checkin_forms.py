"""The check-in page's inputs: the search, one tap, a scanned code."""

from __future__ import annotations

from urllib.parse import urlsplit

from django import forms
from django.urls import Resolver404, resolve
from django.utils.translation import gettext_lazy as _


class CheckinSearchForm(forms.Form):
    q = forms.CharField(label=_("Find a name"), max_length=120, required=False)

    @property
    def search(self) -> str:
        return self.cleaned_data.get("q", "") if self.is_valid() else ""


class CheckinForm(forms.Form):
    """One tap: "in" checks the player in, "out" takes the check-in back."""

    here = forms.ChoiceField(choices=[("in", "in"), ("out", "out")])


class ScanForm(forms.Form):
    """What the camera read: a personal code's link (or its bare token)."""

    code = forms.CharField(max_length=500)

    def clean_code(self) -> str:
        code = self.cleaned_data["code"].strip()
        path = urlsplit(code).path if "/" in code else ""
        if not path:
            return code
        try:
            match = resolve(path)
        except Resolver404:
            match = None
        if match is None or match.url_name != "registration_qr":
            raise forms.ValidationError(_("This is not a Lappu check-in code."))
        return str(match.kwargs["token"])
