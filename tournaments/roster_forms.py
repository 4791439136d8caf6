"""The roster's forms: one player, a pasted list, a spreadsheet, and the preview's confirm."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.core import signing
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Player
from tournaments.names import name_key
from tournaments.roster import NAME_MAX, ROSTER_MAX_ROWS, RosterRow

# A preview's rows travel back with its confirm, signed: the server keeps nothing between
# the preview and the confirm (two tabs, two previews, no session to grow or expire half
# way), and a tampered list is refused instead of imported. A day is long enough for a
# director to read 2,000 rows and short enough that an old page is not replayed.
_SALT = "tournaments.roster.preview"
PREVIEW_MAX_AGE = 24 * 60 * 60


def preview_token(*, club: Club, rows: list[RosterRow]) -> str:
    data = [[row.row, row.name, row.home_club] for row in rows]
    return signing.dumps({"club": club.pk, "rows": data}, salt=_SALT, compress=True)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)
    home_club = forms.CharField(
        label=_("Home club (optional)"), max_length=NAME_MAX, required=False
    )
    new_person = forms.BooleanField(label=_("Add a new person anyway"), required=False)


class PlayerRenameForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX)


class RosterPasteForm(forms.Form):
    names = forms.CharField(
        label=_("Names, one per line"),
        # Room for ROSTER_MAX_ROWS names of full length, and no more.
        max_length=ROSTER_MAX_ROWS * (NAME_MAX + 2),
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
    )


class RosterFileForm(forms.Form):
    file = forms.FileField(
        label=_("Spreadsheet (CSV or XLSX)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,text/csv"}),
    )


class RosterConfirmForm(forms.Form):
    """The preview's rows (signed) and the look-alike rows the director adds anyway."""

    rows = forms.CharField(widget=forms.HiddenInput)
    add = forms.TypedMultipleChoiceField(coerce=int, required=False)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.roster_rows = self._rows(self.data.get("rows")) if self.is_bound else None
        numbers = [row.row for row in self.roster_rows or []]
        self.fields["add"].choices = [(n, n) for n in numbers]  # type: ignore[attr-defined]

    def _rows(self, token: object) -> list[RosterRow] | None:
        try:
            data = signing.loads(str(token or ""), salt=_SALT, max_age=PREVIEW_MAX_AGE)
            if data["club"] != self.club.pk:
                return None
            return [
                RosterRow(row=int(n), name=str(a), home_club=str(b)) for n, a, b in data["rows"]
            ]
        except (signing.BadSignature, KeyError, TypeError, ValueError):
            return None

    def clean_rows(self) -> list[RosterRow]:
        if self.roster_rows is None:
            raise forms.ValidationError(
                _("This preview is too old or was changed: paste or upload the list again."),
                code="bad_preview",
            )
        return self.roster_rows


class RosterFilter(django_filters.FilterSet):
    """The roster's search (accents, case and spacing ignored) and kind of player."""

    KINDS = (
        ("own", _("Club players")),
        ("account", _("With an account")),
        ("guest", _("Guests")),
    )

    q = django_filters.CharFilter(
        label=_("Name"),
        method="by_name",
        max_length=NAME_MAX,
        widget=forms.TextInput(attrs={"type": "search", "placeholder": _("Part of the name")}),
    )
    kind = django_filters.ChoiceFilter(
        label=_("Players"), choices=KINDS, method="by_kind", empty_label=_("Everyone")
    )

    class Meta:
        model = Player
        fields = ("q", "kind")

    def by_name(self, queryset: QuerySet[Player], name: str, value: str) -> QuerySet[Player]:
        key = name_key(value)
        return queryset.filter(name_key__contains=key) if key else queryset

    def by_kind(self, queryset: QuerySet[Player], name: str, value: str) -> QuerySet[Player]:
        if value == "guest":
            return queryset.filter(guest=True)
        if value == "account":
            return queryset.filter(user__isnull=False)
        return queryset.filter(guest=False)

    @property
    def active(self) -> bool:
        self.form.is_valid()
        data = getattr(self.form, "cleaned_data", {})
        return any(data.get(name) not in (None, "") for name in self.filters)
