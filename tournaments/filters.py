"""The filters of the site's long lists (django-filter), read from the address so a
filtered list can be shared. A value the list does not offer filters nothing: the list is
shown whole, never an error."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from rules import VARIANT_IDS, get_variant
from tournaments.models import Club, Event, Season


def _game_choices() -> list[tuple[str, str]]:
    return [(variant_id, get_variant(variant_id).name) for variant_id in VARIANT_IDS]


class ClubEventFilter(django_filters.FilterSet):
    """The club page's events: by game, by season (the club's own), by part of the name."""

    game = django_filters.ChoiceFilter(
        label=_("Game"), field_name="variant_id", choices=_game_choices, empty_label=_("Every game")
    )
    season = django_filters.ModelChoiceFilter(
        label=_("Season"), queryset=Season.objects.none(), empty_label=_("Every season")
    )
    q = django_filters.CharFilter(
        label=_("Name"),
        field_name="name",
        lookup_expr="icontains",
        max_length=120,
        widget=forms.TextInput(attrs={"type": "search", "placeholder": _("Part of the name")}),
    )

    class Meta:
        model = Event
        fields = ("game", "season", "q")

    def __init__(self, data: Any, queryset: QuerySet[Event], *, club: Club) -> None:
        super().__init__(data, queryset=queryset)
        # Another club's season is not on offer: it filters nothing.
        self.filters["season"].queryset = Season.objects.filter(club=club)
        # The club is the page's: each season by its own name.
        self.form.fields["season"].label_from_instance = lambda season: season.name

    @property
    def active(self) -> bool:
        """Whether any offered value narrows the list (one it does not offer does not)."""
        self.form.is_valid()
        data = getattr(self.form, "cleaned_data", {})
        return any(data.get(name) not in (None, "") for name in self.filters)
