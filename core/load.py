"""How many requests wait for this web server, and shedding the spectators' polls first.

gunicorn's sync workers each take one connection at a time from the listening socket; what
they have not taken yet waits in the kernel's listen backlog, in arrival order, which no
process can reorder. So when that queue is long, a spectator's poll that reaches a worker
is answered at once with what the spectator already shows (304 for the ETag it holds,
which the public page and big screen say from the start, data-poll-tag; else 503 "busy,
try again" with Retry-After, which htmx leaves unswapped), instead of
spending the worker on a new copy: the tables' saves and polls waiting behind it are
reached sooner. A table's own requests are never shed.

The length of the queue is read from the listening sockets with TCP_INFO (Linux: for a
listening socket `tcpi_unacked` is the number of connections waiting to be accepted), one
system call of well under a microsecond. gunicorn tells this module its sockets once per
worker (clubsite/gunicorn.py); a server that never does (runserver, the test client) is
never busy.
"""

from __future__ import annotations

import functools
import logging
import re
import socket
import struct
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers
from django.utils.html import format_html
from django.utils.translation import gettext as _

from core.conditional import if_none_match, not_modified

logger = logging.getLogger(__name__)

_listeners: list[socket.socket] = []
# struct tcp_info: eight one-byte fields, then tcpi_rto, tcpi_ato, tcpi_snd_mss,
# tcpi_rcv_mss and tcpi_unacked (for a listening socket: the accept queue's length).
_UNACKED = struct.Struct("=8x4xIIII")
# What a shed answer carries, so a client (and the load rehearsal) can tell it from a
# page that really did not change.
SHED_HEADER = "X-Lappu-Busy"
# An ETag as the site makes them (core.conditional.etag), echoed only when it looks like one.
_TAG = re.compile(r'W/"[!#-~]{1,100}"')
_WARN_EVERY = 60.0
_last_warning = -float("inf")


def listen_on(sockets: Iterable[Any]) -> None:
    """The listening sockets of this process (gunicorn's, or their `.sock`)."""
    _listeners[:] = [getattr(each, "sock", each) for each in sockets]


def waiting() -> int:
    """Connections accepted by the kernel that no worker has taken yet (0: not known)."""
    total = 0
    for listener in _listeners:
        try:
            info = listener.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, _UNACKED.size)
            total += _UNACKED.unpack(info)[3]
        except (OSError, AttributeError, struct.error):  # closed, no TCP_INFO, a short one
            continue
    return total


def busy() -> bool:
    """Whether more requests wait than `SHED_QUEUE` allows (0: never shed)."""
    limit = int(getattr(settings, "SHED_QUEUE", 0))
    return bool(limit and _listeners) and waiting() >= limit


def shed_when_busy(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A spectator's poll (`view`) answered at once with the copy it holds while the server
    is saturated."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method != "GET" or not busy():
            return view(request, *args, **kwargs)
        _note()
        return shed(request)

    return wrapper


def shed(request: HttpRequest) -> HttpResponse:
    retry = int(getattr(settings, "SHED_RETRY_AFTER", 10))
    held = next(iter(sorted(if_none_match(request))), "")
    if _TAG.fullmatch(held):
        response = not_modified(held)  # the copy on screen stays; the next poll asks again
    else:
        # htmx swaps no 5xx: the page keeps what it shows, and says nothing went wrong.
        response = HttpResponse(
            format_html(
                '<p class="check slow-down" role="status">{}</p>',
                _("Many people are following the results: this page catches up shortly."),
            ),
            status=503,
        )
        add_never_cache_headers(response)
        # Not a fault: logged once a minute by _note, never as a 5xx error each (which would
        # mail the ADMINS at every shed poll).
        response._has_been_logged = True  # type: ignore[attr-defined]
    response["Retry-After"] = str(retry)
    response[SHED_HEADER] = "1"
    return response


def _note() -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning >= _WARN_EVERY:
        _last_warning = now
        logger.warning("server saturated (%d requests waiting): spectators' polls shed", waiting())
