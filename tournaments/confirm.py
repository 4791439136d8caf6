"""A director's action that cannot be taken back is asked on a page of its own first.

The button on the manage page (or a table's history) posts as before; without `confirm` in
the post, the view answers with `confirm_page`, which repeats the post with `confirm=yes`
and a way back. No script is needed (the site's CSP allows none inline for a confirm()),
and the service refuses the action unless told it was confirmed.
"""

from __future__ import annotations

from collections.abc import Mapping

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class ConfirmForm(forms.Form):
    """The confirmation page's own field: only `yes` confirms."""

    confirm = forms.ChoiceField(choices=[("yes", "yes")], required=False)

    @property
    def confirmed(self) -> bool:
        return self.is_valid() and self.cleaned_data["confirm"] == "yes"


def confirmed(request: HttpRequest) -> bool:
    return ConfirmForm(request.POST).confirmed


def confirm_page(
    request: HttpRequest,
    *,
    title: str,
    question: str,
    action: str,
    button: str,
    back: str,
    fields: Mapping[str, object] | None = None,
) -> HttpResponse:
    """Ask before `action` is posted again with `fields` and `confirm=yes`."""
    context = {
        "title": title,
        "question": question,
        "action": action,
        "button": button,
        "back": back,
        "fields": dict(fields or {}),
    }
    return render(request, "tournaments/confirm.html", context)
