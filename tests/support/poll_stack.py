"""Counts a table poll's way through the site: the requests that reach the middleware past
the early answer (scoring.polls.TablePollMiddleware), and those that reach the view."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from django.contrib.sessions.middleware import SessionMiddleware

from scoring import views


@contextmanager
def counted_stack() -> Iterator[tuple[mock.MagicMock, mock.MagicMock]]:
    """(sessions, view): mocks that count the calls past the early answer and to the view."""
    original = SessionMiddleware.process_request
    with (
        mock.patch.object(
            SessionMiddleware, "process_request", autospec=True, side_effect=original
        ) as sessions,
        mock.patch.object(views, "poll_from_cache", wraps=views.poll_from_cache) as view,
    ):
        yield sessions, view
