"""The rating list's filters (django-filter), read from the address so a filtered list can
be shared: at least so many games, played in the last twelve months. A value the list does
not offer filters nothing."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ratings.models import Rating
from ratings.selectors import active_since


class RatingFilter(django_filters.FilterSet):
    min_games = django_filters.NumberFilter(
        label=_("At least this many games"), field_name="games", lookup_expr="gte", min_value=0
    )
    active = django_filters.ChoiceFilter(
        label=_("Active"),
        method="filter_active",
        choices=[("1", _("Played in the last 12 months"))],
        empty_label=_("Every player"),
    )

    class Meta:
        model = Rating
        fields = ("min_games", "active")

    def filter_active(self, queryset: QuerySet[Rating], name: str, value: Any) -> QuerySet[Rating]:
        return queryset.filter(last_played__gte=active_since()) if value == "1" else queryset

    @property
    def active_filters(self) -> bool:
        """Whether any offered value narrows the list."""
        self.form.is_valid()
        data = getattr(self.form, "cleaned_data", {})
        return any(data.get(name) not in (None, "", False) for name in self.filters)
