"""`{% series_preview_of event as series %}`: a series' next round for the manage page's
include, which has nothing but the event (the page's view knows no series). The public
page's rounds come with the event's standings (`standings.standings`)."""

from __future__ import annotations

from django import template

from formats.series import SeriesPreview, series_preview
from tournaments.models import Event

register = template.Library()


@register.simple_tag
def series_preview_of(event: Event) -> SeriesPreview:
    return series_preview(event=event)
