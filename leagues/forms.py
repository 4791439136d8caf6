"""The director's form for a season's league scheme."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.i18n import violation_text
from rules import RuleViolation
from tournaments.engine.league import LeagueKind, LeagueScheme, TieOrder

KIND_CHOICES = [
    (LeagueKind.PLACEMENT.value, _("placement points: points by the place at each event")),
    (LeagueKind.PENALTY_TOTAL.value, _("penalty points: the totals added up, fewest first")),
    (LeagueKind.AVERAGE.value, _("average per game: penalty points per deal, fewest first")),
]
TIE_CHOICES = [("", "—")] + [(tie.value, _(tie.label)) for tie in TieOrder]
TIE_FIELDS = ("tie_1", "tie_2", "tie_3")
# The longest points table a club may type (a place past its end scores 0).
MAX_PLACES = 50


class LeagueSchemeForm(forms.Form):
    """Every part of a :class:`~tournaments.engine.league.LeagueScheme`, and why it changes;
    `scheme` is the checked scheme once the form is valid."""

    kind = forms.ChoiceField(label=_("How the events add up"), choices=KIND_CHOICES)
    points = forms.CharField(
        label=_("Points per place"),
        required=False,
        max_length=400,
        help_text=_("For places 1, 2, 3 … separated by commas, e.g. 10, 7, 5, 3, 1."),
    )
    scale_by_table = forms.BooleanField(
        label=_("Scale the points by the size of the field"),
        required=False,
        help_text=_("A small field hands out as many points per player on average as a big one."),
    )
    best_n = forms.IntegerField(
        label=_("Best events counted"),
        required=False,
        min_value=1,
        max_value=1000,
        help_text=_("Leave empty to count every event."),
    )
    min_events = forms.IntegerField(
        label=_("Events needed to be ranked"), min_value=0, max_value=1000, initial=0
    )
    tie_1 = forms.ChoiceField(label=_("First tie-break"), choices=TIE_CHOICES, required=False)
    tie_2 = forms.ChoiceField(label=_("Second tie-break"), choices=TIE_CHOICES, required=False)
    tie_3 = forms.ChoiceField(label=_("Third tie-break"), choices=TIE_CHOICES, required=False)
    note = forms.CharField(
        label=_("Why it changes"),
        max_length=200,
        help_text=_("Shown with the change on the league table."),
    )

    def __init__(self, *args: Any, scheme: LeagueScheme | None = None, **kwargs: Any) -> None:
        if scheme is not None and "initial" not in kwargs:
            kwargs["initial"] = scheme_initial(scheme)
        super().__init__(*args, **kwargs)
        self.scheme: LeagueScheme | None = None

    def clean_points(self) -> list[int]:
        text = self.cleaned_data.get("points", "")
        parts = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
        if len(parts) > MAX_PLACES:
            raise forms.ValidationError(
                gettext("At most %(count)d places.") % {"count": MAX_PLACES}
            )
        values = []
        for part in parts:
            if not (part.isascii() and part.isdigit() and len(part) <= 6):
                raise forms.ValidationError(
                    gettext("“%(value)s” is not a whole number of points.") % {"value": part[:20]}
                )
            values.append(int(part))
        return values

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        ties = [data[name] for name in TIE_FIELDS if data.get(name)]
        try:
            self.scheme = LeagueScheme(
                kind=LeagueKind(data["kind"]),
                points=tuple(data["points"]),
                scale_by_table=bool(data["scale_by_table"]),
                best_n=data.get("best_n"),
                min_events=data["min_events"],
                tie_order=tuple(TieOrder(tie) for tie in ties),
            )
        except RuleViolation as error:
            field = error.field if error.field in self.fields else None
            if error.field == "tie_order":
                field = "tie_1"
            self.add_error(field, violation_text(error))
        return data


def scheme_initial(scheme: LeagueScheme) -> dict[str, Any]:
    """The form's initial values for `scheme`."""
    ties = [tie.value for tie in scheme.tie_order] + ["", "", ""]
    return {
        "kind": scheme.kind.value,
        "points": ", ".join(str(p) for p in scheme.points),
        "scale_by_table": scheme.scale_by_table,
        "best_n": scheme.best_n,
        "min_events": scheme.min_events,
        **{name: ties[index] for index, name in enumerate(TIE_FIELDS)},
    }
