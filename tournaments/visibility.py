"""What a reader may see of a club's events, written once for every page, feed, PDF, cache
and record: whether an event is public, and which totals a reader is shown.

An event is public once the club has published it (`Event.published_at`). Before that only
its directors see its pages (tournaments.permissions.event_visible). A public output shows
only the results confirmed at the table when the club asks for it
(`Club.public_confirmed_only`); a director, on their own pages, sees every result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q

if TYPE_CHECKING:
    from tournaments.models import Club, Event


def is_public(event: Event) -> bool:
    """Whether anyone may see `event`'s pages, feeds and printouts."""
    return event.published_at is not None


def public_events_q(path: str = "") -> Q:
    """`is_public` as a filter. `path` leads from the model queried to its event, e.g.
    "table__stage__event" for deals, "" for events themselves."""
    return Q(**{f"{path}__published_at__isnull" if path else "published_at__isnull": False})


def confirmed_only(*, club: Club, director: bool = False) -> bool:
    """Whether the reader is shown only results confirmed at the table: the public when the
    club asks for it, never a director reading their own club's pages. Shared outputs (the
    public pages and their caches, feeds, exports, printouts) pass no `director`."""
    return club.public_confirmed_only and not director
