"""A club's settings: what its public pages show and who may confirm a deal; writes, as
services."""

from __future__ import annotations

from tournaments.models import Club


def club_settings_set(
    *,
    club: Club,
    public_confirmed_only: bool,
    publish_guest_pages: bool,
    directors_confirm_alone: bool,
    mail_tables: bool | None = None,
    time_zone: str | None = None,
) -> Club:
    """Save what the club's public pages show (confirmed results only; whether guests have
    record pages of their own), whether a director may confirm a deal they entered, and
    (when given) whether a confirmed draw mails each player their table and the club's time
    zone.

    Only the settings are saved: the pages read them on their next view. (A cached copy of
    a results page is checked against the event's results version; a cache that must follow
    these settings at once keys on them, or is dropped by its own receiver.)
    """
    club.public_confirmed_only = public_confirmed_only
    club.publish_guest_pages = publish_guest_pages
    club.directors_confirm_alone = directors_confirm_alone
    fields = ["public_confirmed_only", "publish_guest_pages", "directors_confirm_alone"]
    if mail_tables is not None:  # None (a caller that does not ask): the club keeps it
        club.mail_tables = mail_tables
        fields.append("mail_tables")
    if time_zone is not None:  # the form offers only real zones; the model validates too
        club.time_zone = time_zone
        fields.append("time_zone")
    club.save(update_fields=fields)
    return club
