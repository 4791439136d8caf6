"""Each club's language, as the shared cache keeps it for the club's pages and table links.

A phone that scans a club's QR code without saying which of the site's languages it reads
gets the club's (tournaments.middleware.ClubLanguageMiddleware). That must cost the table's
polls no query: the language is kept in the public pages' cache (core.conditional) under
the club's slug and under each table's link, read from the database only when missing, and
dropped when the club is saved (tournaments.signals). A cache of one process's own cannot
hear of a save made in another process, so there it is kept only for a minute.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from core.conditional import cache_add, cache_delete_many, cache_get
from tournaments.models import Club, Table

# Shared (Redis): every process hears of a save, so the limit only bounds how long a value
# read in a race with one lasts. A process's own: how long another process's save may go
# unnoticed.
SHARED_TTL = 15 * 60
OWN_TTL = 60


def club_key(slug: str) -> str:
    return f"lappu:clublang:{slug}"


def table_key(key: str) -> str:
    return f"lappu:tablelang:{key}"


def club_language(*, slug: str | None = None, key: str | None = None) -> str:
    """The language of the club at `slug`, or of the club whose table's link is `key`; ""
    when there is no such club or table (not kept: a made-up address fills no cache, and
    its page asks the database anyway)."""
    if slug is None and key is None:
        return ""
    cache_key = club_key(slug) if slug is not None else table_key(str(key))
    held = cache_get(cache_key)
    if isinstance(held, str):
        return held
    if slug is not None:
        language = Club.objects.filter(slug=slug).values_list("language", flat=True).first()
    else:
        links = Table.everything.filter(entry_key=key)
        language = links.values_list("stage__event__club__language", flat=True).first()
    if not language:
        return ""
    # A read that raced with a save (read before its commit, stored after the commit's own
    # drop) keeps the old language until the TTL: a rare moment, a short limit.
    cache_add(cache_key, language, _ttl())
    return language


def _ttl() -> int:
    return SHARED_TTL if getattr(settings, "PUBLIC_CACHE_SHARED", False) else OWN_TTL


def club_language_forget(*, club: Club, tables: bool = True) -> None:
    """Drop what is kept of `club`'s language (its slug's, and unless `tables` is False its
    tables' links'): at once (this transaction's own reads, and a test's, whose transaction
    never commits) and again on commit, after any read that raced with the save."""
    keys = [club_key(club.slug)]
    if tables:
        links = Table.everything.filter(stage__event__club=club).values_list("entry_key", flat=True)
        keys += [table_key(link) for link in links]
    cache_delete_many(keys)
    transaction.on_commit(lambda: cache_delete_many(keys))
