"""The table page's poll tag, and the 304 a poll that finds nothing new is answered.

Every phone at every table polls its live part every few seconds, so a poll that finds
nothing new must cost next to nothing. Its ETag names the table's event, stage and number
in clear (signed with the link), so the next poll finds the table's versions in one cache
read without asking the database which table the link is; it is signed with the versions,
who asks (the phone's device cookie, the person signed in) and the language of the page.

`TablePollMiddleware` answers such a poll before sessions, authentication, CSRF, locale and
the rest of the middleware: a phone's poll carries no session, so who asks is its device
cookie alone, and its language is decided as the middleware would decide it
(`tournaments.middleware.visitor_language`), from the same cache read. Whatever it cannot
answer (a session, a change, the cache down, a closed stage's notice not yet rendered) goes
through the whole stack to the view, which asks again (`poll_from_cache`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.crypto import constant_time_compare, salted_hmac

from core.conditional import cache_get_many, etag, if_none_match, not_modified
from scoring.devices import DEVICE_COOKIE, device_of, user_key
from scoring.link_gone import cached_link_gone
from scoring.public_cache import gone_key, language, seat_key, table_keys, table_versions, wide_key
from scoring.public_cache import shared as shared_cache
from tournaments.club_language import table_key as club_language_key
from tournaments.middleware import visitor_language

_TABLE_TAG = re.compile(r'^W/"t(\d{1,12})\.(\d{1,6})\.(\d{1,12})\.([0-9a-f]{8})\.[0-9a-f]{24}"$')
# The table poll's address (scoring.urls: "t/<key:key>/live/").
_POLL_PATH = re.compile(r"^/t/(?P<key>[A-Za-z0-9_-]{16,43})/live/$")

Ids = tuple[int, int, int]


def _ids_mark(key: str, ids: Ids) -> str:
    """Ties the ids a tag shows in clear to its link: a made-up tag cannot name another
    event's table (its closed stage's notice is answered only to a tag the site gave)."""
    text = "\x1f".join(map(str, (key, *ids)))
    return salted_hmac("lappu.table-ids", text).hexdigest()[:8]


def table_tag(
    request: HttpRequest,
    key: str,
    ids: Ids,
    versions: tuple[str, str] | None,
    page_language: str | None = None,
) -> str | None:
    """The poll's ETag: the table's event, stage and number in clear (`ids`), signed with
    the link, the versions, who is asking and the page's language (the active one unless
    given)."""
    if versions is None:
        return None
    who = f"{device_of(request)}\x1f{user_key(request)}"
    label = "t{}.{}.{}.".format(*ids) + _ids_mark(key, ids) + "."
    return etag(key, *versions, who, page_language or language(), label=label)


def table_not_modified(tag: str) -> HttpResponse:
    # Like every table page never stored (no-store): the browser keeps no copy to
    # revalidate, so the page's script sends the ETag of what it shows itself and leaves
    # the part as it is on a 304 (static/js/site.js, as static/js/screen.js does).
    response = not_modified(tag)
    add_never_cache_headers(response)
    return response


def _held_ids(request: HttpRequest, key: str) -> tuple[str, Ids] | None:
    """The first of the tags the phone holds that the site gave for this link, with the ids
    it names; None: none (or one made up)."""
    for held in if_none_match(request):
        match = _TABLE_TAG.match(held)
        if match is None:
            continue
        ids = int(match[1]), int(match[2]), int(match[3])
        if not constant_time_compare(match[4], _ids_mark(key, ids)):
            return None
        return held, ids
    return None


def _answerable(found: dict[str, object] | None, ids: Ids) -> bool:
    event_id, _stage, table_id = ids
    return found is not None and wide_key(event_id) in found and seat_key(table_id) in found


def poll_from_cache(request: HttpRequest, key: str) -> HttpResponse | None:
    """304 when the ETag the phone holds is still that of the table's poll as it is now, or
    the notice of its closed stage; both from one cache read (nothing missing is read from
    the database here), else None. In the view: the language is decided."""
    if DEVICE_COOKIE not in request.COOKIES or not shared_cache():
        return None  # (a cache of this process's own is asked once the link is checked)
    held_ids = _held_ids(request, key)
    if held_ids is None:
        return None
    held, ids = held_ids
    event_id, stage, table_id = ids
    found = cache_get_many([*table_keys(event_id, table_id), gone_key(event_id, stage)])
    if found is None or not _answerable(found, ids):
        return None
    if table_tag(request, key, ids, table_versions(event_id, table_id, found)) == held:
        return table_not_modified(held)
    # A director signed in may still correct a closed stage's table: only the phones
    # (no session) are answered the kept notice.
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        return None
    return cached_link_gone(request, found, ids)


def _early_answer(request: HttpRequest, key: str) -> HttpResponse | None:
    """A phone's poll that finds nothing new, or its closed stage's notice, before any
    middleware: a 304 or the kept notice from one cache read (the table's versions, its
    club's language and the notice in each language), else None. When a director closes a
    250-table stage, every phone meets that notice within a few seconds."""
    if (
        DEVICE_COOKIE not in request.COOKIES
        or settings.SESSION_COOKIE_NAME in request.COOKIES  # someone signed in: their own
        or not shared_cache()
    ):
        return None
    held_ids = _held_ids(request, key)
    if held_ids is None:
        return None
    held, ids = held_ids
    event_id, stage, table_id = ids
    club_key = club_language_key(key)
    notices = [gone_key(event_id, stage, code) for code, _name in settings.LANGUAGES]
    found = cache_get_many([*table_keys(event_id, table_id), club_key, *notices])
    if found is None or not _answerable(found, ids):
        return None
    club = found.get(club_key)
    page_language = visitor_language(request, str(club) if isinstance(club, str) else None)
    if page_language is None:
        return None  # the club's language is not in the cache yet: the view keeps it
    versions = table_versions(event_id, table_id, found)
    if table_tag(request, key, ids, versions, page_language) == held:
        response: HttpResponse | None = table_not_modified(held)
    else:
        response = cached_link_gone(request, found, ids, page_language)
    if response is None:
        return None
    # As the whole stack would mark it (LocaleMiddleware, ClubLanguageMiddleware).
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    response["Content-Language"] = page_language
    return response


class TablePollMiddleware:
    """Answers a phone's table poll that finds nothing new (or its closed stage's notice)
    before sessions, authentication, CSRF, locale and the rest: at 250 tables these polls
    are most of what the site serves.
    Placed after the layers every answer needs (the frame and security headers)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and "If-None-Match" in request.headers:
            match = _POLL_PATH.match(request.path_info)
            if match is not None:
                early = _early_answer(request, match["key"])
                if early is not None:
                    return early
        return self.get_response(request)
