"""The rating list's django-tables2 table: the page's (sortable, paged) and the downloads'
(every row, the rating's figures as numbers)."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from core.tables import NUMBER, BaseTable, DateColumn, TemplateColumn
from ratings.display import provisional
from ratings.models import Rating

RATINGS_PER_PAGE = 50


class RatingTable(BaseTable):
    rank = tables.Column(verbose_name="#", order_by=("-rating", "player__name"), attrs=NUMBER)
    name = TemplateColumn(
        template_name="ratings/cells/name.html",
        verbose_name=_("Player"),
        accessor="player__name",
        order_by=("player__name",),
    )
    rating = tables.Column(verbose_name=_("Rating"), attrs=NUMBER, order_by=("-rating",))
    games = tables.Column(verbose_name=_("Games"), attrs=NUMBER)
    last_played = DateColumn(verbose_name=_("Last played"), short=True)
    provisional = tables.Column(
        verbose_name=_("Provisional"), accessor="games", orderable=False, visible=False
    )

    class Meta(BaseTable.Meta):
        empty_text = _("No player matches these filters.")
        # The best first, as the rank says; a header sorts otherwise.
        order_by = ("rank",)

    def __init__(self, *args: Any, show_hidden: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.show_hidden = show_hidden

    def render_rating(self, value: float) -> str:
        return number_format(value, decimal_pos=1)

    def value_rating(self, value: float) -> float:
        return round(value, 1)

    def value_name(self, record: Rating) -> str:
        return record.player.name

    def value_provisional(self, value: int) -> str:
        return "*" if provisional(value) else ""
