"""`{% series_standings_of event as series %}` and `{% series_preview_of event as series %}`:
a series' cumulative standings for the public page and its next round for the manage page,
for the includes that need nothing but the event (the pages' views know no series)."""

from __future__ import annotations

from django import template

from formats.series import SeriesPreview, SeriesStandings, series_preview, series_standings
from tournaments.models import Event

register = template.Library()


@register.simple_tag
def series_standings_of(event: Event) -> SeriesStandings:
    return series_standings(event=event)


@register.simple_tag
def series_preview_of(event: Event) -> SeriesPreview:
    return series_preview(event=event)
