"""The clubs' events as iCalendar (RFC 5545): the club's feed of its published events and
one event's file for *Add to calendar*. Times are the club's wall-clock times in its own
time zone (with its VTIMEZONE), an event without a start time is a whole day, and each
event keeps one UID however often the feed is read, so a calendar updates it in place."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from django.conf import settings
from icalendar import Calendar
from icalendar import Event as CalendarEvent

from accounts.services import site_link
from tournaments.models import Club, Event


def event_uid(event: Event) -> str:
    """The event's one UID: its id and the site's host, never its name or date (which the
    director may change: the calendar then moves the event, not adds a second)."""
    return f"lappu-event-{event.pk}@{urlsplit(settings.SITE_URL).hostname}"


def _entry(event: Event, club: Club) -> CalendarEvent:
    entry = CalendarEvent()
    entry.add("uid", event_uid(event))
    entry.add("summary", event.name)
    entry.add("dtstamp", event.created_at)
    if event.start_time is None:
        entry.add("dtstart", event.date)
        entry.add("dtend", event.date + datetime.timedelta(days=1))
    else:
        start = datetime.datetime.combine(event.date, event.start_time)
        entry.add("dtstart", start.replace(tzinfo=ZoneInfo(club.time_zone)))
    if event.venue:
        entry.add("location", event.venue)
    entry.add("url", site_link(event.get_absolute_url()))
    entry.add("description", f"{club.name} · {site_link(event.get_absolute_url())}")
    return entry


def events_calendar(*, club: Club, events: Iterable[Event]) -> bytes:
    """The .ics of `events` (the caller decides which a reader may see: published ones)."""
    calendar = Calendar()
    calendar.add("prodid", "-//Lappu//Rummy club events//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", club.name)
    for event in events:
        calendar.add_component(_entry(event, club))
    # The VTIMEZONE of the club's zone, which the DTSTARTs name (RFC 5545 asks for it).
    calendar.add_missing_timezones()
    return calendar.to_ical()
