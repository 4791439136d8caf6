"""One rule for "is this event public?" and one for "which totals may this reader see?"
(tournaments.visibility): every page, feed, PDF, cache and record asks them, and no module
decides either again on its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.events import seated_event
from tournaments.models import Event
from tournaments.visibility import confirmed_only, is_public, public_events_q

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "core", "accounts", "tournaments", "scoring", "formats", "standings", "ratings", "records",
    "leagues", "printing", "privacy", "clubsite",
)  # fmt: skip
# The fact itself, read or written: where it is stored, set and edited.
OWNERS = {
    "tournaments/visibility.py",
    "tournaments/models.py",
    "tournaments/forms.py",
    "tournaments/club_settings.py",
}


@pytest.fixture
def club_event(db) -> Event:
    event, _tables = seated_event(variant_id="rutupeli", players=4)
    event.published_at = None
    event.save(update_fields=["published_at"])
    return event


SECOND_COPY = re.compile(
    r"published_at__isnull|published_at is (not )?None|\.public_confirmed_only\b"
)


def test_no_module_decides_either_fact_again() -> None:
    copies = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts and str(path.relative_to(ROOT)) not in OWNERS
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if SECOND_COPY.search(line)
    ]
    assert copies == []


def test_the_pattern_finds_a_second_copy() -> None:
    assert SECOND_COPY.search("if event.published_at is None:")
    assert SECOND_COPY.search("only = event.club.public_confirmed_only")


@pytest.mark.django_db
def test_an_event_is_public_once_published(club_event) -> None:
    event = club_event
    assert not is_public(event)
    assert not Event.objects.filter(public_events_q(), pk=event.pk).exists()
    event.published_at = event.created_at
    event.save(update_fields=["published_at"])
    assert is_public(event)
    assert Event.objects.filter(public_events_q(), pk=event.pk).exists()
    assert Event.objects.filter(public_events_q("stages__event"), pk=event.pk).exists() is (
        event.stages.exists()
    )


@pytest.mark.django_db
def test_a_director_sees_every_total_the_public_may_not(club_event) -> None:
    club = club_event.club
    club.public_confirmed_only = True
    assert confirmed_only(club=club)
    assert not confirmed_only(club=club, director=True)
    club.public_confirmed_only = False
    assert not confirmed_only(club=club)
