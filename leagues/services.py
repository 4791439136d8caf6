"""Writes of a season's league table: its scheme (a change is recorded, never silent), the
stored table recomputed, and the mark that says it is out of date.

The table is stored with the season (``Season.league_rows``, ``league_computed_at``). A
result that feeds it marks it out of date (``league_stale_since``, by
:mod:`leagues.receivers`, in the result's own transaction) and queues its
recomputation on commit; :func:`season_league` recomputes in the request when the stored
table is out of date, so the page is right even when no worker ran.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Sequence

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from leagues.selectors import (
    ROWS_VERSION,
    SeasonLeague,
    league_compute,
    league_is_fresh,
    league_view,
    season_scheme,
)
from rules import RuleViolation
from rules.i18n import _
from tournaments.engine.league import LeagueScheme
from tournaments.models import Role, Season, SeasonSchemeChange
from tournaments.permissions import club_allows

log = logging.getLogger(__name__)

# How long a page may show a table out of date while the queued job recomputes it.
STALE_GRACE_SECONDS = 30
# The longest a recomputation holds its lock (a crashed request's lock expires by then).
LOCK_SECONDS = 120


def _lock_key(season_id: int) -> str:
    return f"league-computing:{season_id}"


def _lock(season_id: int) -> bool:
    """Whether this request may recompute now (no other is at it)."""
    try:
        return bool(cache.add(_lock_key(season_id), 1, timeout=LOCK_SECONDS))
    except Exception:  # the cache is down: recompute (a duplicate run is harmless)
        log.warning("could not take the league lock of season %s", season_id)
        return True


def _unlock(season_id: int) -> None:
    try:
        cache.delete(_lock_key(season_id))
    except Exception:
        log.warning("could not release the league lock of season %s", season_id)


def league_mark_stale(*, season_id: int) -> None:
    """Say the season's stored table is out of date from now (a result that feeds it
    changed). Each mark moves the time on, so a recomputation that started before it
    does not clear it (see :func:`league_recompute`)."""
    Season.objects.filter(pk=season_id).update(league_stale_since=timezone.now())


def league_mark_stale_many(*, season_ids: Sequence[int]) -> None:
    """:func:`league_mark_stale` for many seasons in one UPDATE."""
    Season.objects.filter(pk__in=season_ids).update(league_stale_since=timezone.now())


def league_recompute(*, season_id: int, only_if_stale: bool = False) -> Season | None:
    """Compute the season's table from its results now and store it; None when the season
    is gone. Safe to run twice, and at once with another: each stores a whole table.

    The out-of-date mark is cleared only if no result changed while this ran (the mark
    is still the one read at the start); otherwise it stays, and the next read or task
    computes again. With ``only_if_stale`` a table already current is left as it is.
    """
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    if season is None:
        return None
    if only_if_stale and league_is_fresh(season):
        return season
    mark = season.league_stale_since
    payload = league_compute(season=season, previous=season.league_rows)
    computed_at = timezone.now()
    payload["computed_at"] = computed_at.isoformat()
    with transaction.atomic():
        Season.objects.filter(pk=season_id).update(
            league_rows=payload, league_computed_at=computed_at
        )
        Season.objects.filter(pk=season_id, league_stale_since=mark).update(league_stale_since=None)
    season.league_rows, season.league_computed_at = payload, computed_at
    season.league_stale_since = (
        Season.objects.filter(pk=season_id).values_list("league_stale_since", flat=True).first()
    )
    return season


def _usable(season: Season) -> bool:
    """Whether the stored table is one to show while a newer one is computed: of this
    layout and this scheme (a scheme change is never shown on the old scheme's table)."""
    stored = season.league_rows
    return (
        isinstance(stored, dict)
        and stored.get("version") == ROWS_VERSION
        and stored.get("scheme") == season_scheme(season).to_dict()
    )


def _grace() -> datetime.timedelta:
    seconds = getattr(settings, "LEAGUE_STALE_GRACE_SECONDS", STALE_GRACE_SECONDS)
    return datetime.timedelta(seconds=seconds)


def season_league(*, season: Season) -> SeasonLeague:
    """The season's league table for a page or feed: a read that may write, so it is right
    with no worker at all.

    The stored table while it is current (no query). Out of date, it is recomputed here and
    stored, unless it was computed less than ``STALE_GRACE_SECONDS`` ago (the queued job
    will follow: a hall refreshing the page during a night in play must not recompute it
    on every view, so a page is at most that far behind) or another request is recomputing
    it right now; then the stored table is shown, ``stale`` and saying so. A table never computed, or computed
    under another scheme, is always recomputed at once.
    """
    if league_is_fresh(season):
        return league_view(season, season.league_rows or {}, recomputed=False)
    computed = season.league_computed_at
    locked = False
    if _usable(season) and computed is not None:
        locked = timezone.now() - computed >= _grace() and _lock(season.pk)
        if not locked:
            return league_view(season, season.league_rows or {}, recomputed=False, stale=True)
    try:
        fresh = league_recompute(season_id=season.pk) or season
    finally:
        if locked:
            _unlock(season.pk)
    season.league_rows = fresh.league_rows
    season.league_computed_at = fresh.league_computed_at
    season.league_stale_since = fresh.league_stale_since
    return league_view(season, season.league_rows or {}, recomputed=True)


def season_league_scheme_set(
    *,
    season: Season,
    scheme: LeagueScheme,
    by: User | AnonymousUser,
    note: str,
) -> SeasonSchemeChange | None:
    """Give the season a new league scheme, recorded with who, when, old, new and why; the
    stored table is out of date from then (the caller queues its recomputation). None when
    the scheme is the one the season has (nothing recorded). A club director's decision."""
    if not club_allows(club=season.club, user=by, role=Role.DIRECTOR):
        raise RuleViolation(
            _("Only the club's directors may change the league scheme."), code="not_director"
        )
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        old = season_scheme(locked).to_dict()
        new = scheme.to_dict()
        if old == new:
            return None
        Season.objects.filter(pk=season.pk).update(
            league_scheme=new, league_stale_since=timezone.now()
        )
        change = SeasonSchemeChange.objects.create(
            season=locked,
            old_scheme=old,
            new_scheme=new,
            note=note.strip()[:200],
            changed_by=by if isinstance(by, User) else None,
        )
    season.league_scheme = new
    return change
