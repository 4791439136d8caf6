"""The load rehearsal (tests/bench/rehearsal.py) runs end to end on a stack of its own: two
tables and two spectators for a few seconds, then the stage closed. Not its figures (the
machine is shared): that its browsers do what browsers do against the real site and that
its report says what it must."""

from __future__ import annotations

import re

import pytest

from tests.bench.rehearsal import parse, rehearse
from tests.support.production import REDIS_URL, SERVER_URL, reachable

pytestmark = pytest.mark.production

TINY = [
    "--tables", "2", "--spectators", "2", "--seconds", "15", "--paces", "10",
    "--close-seconds", "6", "--arrival", "1", "--checks", "1", "--ceiling-seconds", "1",
    "--database", "lappu_rehearsal_lane", "--redis-db", "14",
]  # fmt: skip


def test_a_tiny_rehearsal_plays_as_browsers_and_reports_what_it_must(monkeypatch):
    if not (reachable(SERVER_URL, 5432) and reachable(REDIS_URL, 6379)):
        pytest.skip("the rehearsal needs PostgreSQL and Redis")
    monkeypatch.setenv("DATABASE_URL", SERVER_URL)
    monkeypatch.setenv("REDIS_URL", REDIS_URL)
    lines, figures = rehearse(parse(TINY))
    report = "\n".join(lines)
    (stats,) = figures.values()
    assert not any(stats.errors.values()), report
    # Each phone opened its table's link, and the page came with its files and its worker.
    assert {"table page", "static file", "service worker", "seat"} <= set(stats.times), report
    assert set(stats.statuses["seat"]) <= {200, 302}, report  # a part, or the page's redirect
    assert re.search(r"lost 0, duplicated 0", report), report
    for said in (
        "ceiling:",
        "÷bare",
        "after the arrival",
        "generator late to send",
        "CPU (cores): web",
        "where the",
    ):
        assert said in report, said
    assert "stage close under load" in report
