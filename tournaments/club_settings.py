"""A club's settings for its public pages: writes, as services."""

from __future__ import annotations

from tournaments.models import Club


def club_public_settings_set(
    *, club: Club, public_confirmed_only: bool, publish_guest_pages: bool
) -> Club:
    """Save what the club's public pages show: confirmed results only, and whether guests
    have record pages of their own.

    Only the settings are saved: the pages read them on their next view. (A cached copy of
    a results page is checked against the event's `results_changed_at`; a cache that must
    follow these settings at once keys on them, or is dropped by its own receiver.)
    """
    club.public_confirmed_only = public_confirmed_only
    club.publish_guest_pages = publish_guest_pages
    club.save(update_fields=["public_confirmed_only", "publish_guest_pages"])
    return club
