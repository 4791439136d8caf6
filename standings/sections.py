"""Sections that the apps above standings add to an event's public results (the ratings'
changes, say): standings may not import them, so they register here when they load (in
their AppConfig.ready) and the live part renders what each gives for the event.

A section is a function of the event giving a template and its context, or None when it has
nothing to show. It runs whenever the live part is rendered (then cached under the event's
results version): it reads in a fixed number of queries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tournaments.models import Event

EventSection = Callable[[Event], tuple[str, dict[str, Any]] | None]

_sections: list[EventSection] = []


def register_event_section(section: EventSection) -> None:
    if section not in _sections:
        _sections.append(section)


def event_sections(event: Event) -> list[tuple[str, dict[str, Any]]]:
    """What each registered section shows for `event`, in the order they registered."""
    return [shown for section in _sections if (shown := section(event)) is not None]
