from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connection
from django.utils import translation

from clubsite.celery import app
from tests.support.broker import CLOSED, queue_pointed_at
from tests.support.factories import ClubFactory, MembershipFactory, UserFactory
from tests.support.smtp import Sink, smtp_sink_running
from tests.support.worker import start_worker, stop_worker
from tournaments.models import Role

CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from django.db import connection

    for item in items:
        if "postgres" in item.keywords and connection.vendor != "postgresql":
            item.add_marker(
                pytest.mark.skip(reason="needs PostgreSQL: run with DATABASE_URL (make test does)")
            )


@pytest.fixture(autouse=True)
def _language_of_its_own() -> Iterator[None]:
    """Each test starts in the site's default language: a request through the test client
    leaves its language active in the thread (LocaleMiddleware activates, nothing resets),
    and a later test would read another test's Finnish or Hungarian."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_passwords(settings) -> None:
    # The real hasher costs ~0.3 s a user; tests make hundreds.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _public_versions_at_once(request: pytest.FixtureRequest, settings) -> None:
    """A test reads the public page right after the save it made: each change makes its
    public version at once, unless the test is about coalescing them (marked `coalesced`)."""
    if "coalesced" not in request.keywords:
        settings.PUBLIC_COALESCE_SECONDS = 0


@pytest.fixture(autouse=True)
def _celery_inline(request: pytest.FixtureRequest) -> None:
    """Tasks run inline unless a test asks for the real worker, which then owns the queue."""
    from clubsite.celery import app

    app.conf.task_always_eager = "celery_worker" not in request.keywords


@pytest.fixture(autouse=True)
def _rate_limits_off_unless_asked(request: pytest.FixtureRequest, settings) -> None:
    """Tests post far faster than people: the limits are off unless a test is about them
    (marked `rate_limited`), and then each starts with empty counters."""
    if "rate_limited" in request.keywords:
        from django.core.cache import cache

        cache.clear()
        settings.RATE_LIMIT_ENABLED = True
    else:
        settings.RATE_LIMIT_ENABLED = False


@pytest.fixture
def club(db):
    return ClubFactory()


@pytest.fixture
def owner(club):
    return MembershipFactory(club=club, role=Role.OWNER).user


@pytest.fixture
def member(club):
    return MembershipFactory(club=club, role=Role.MEMBER).user


@pytest.fixture
def outsider(db):
    other = MembershipFactory(
        role=Role.OWNER
    )  # owns another club: power elsewhere means nothing here
    return other.user


@pytest.fixture
def user_factory(db):
    return UserFactory


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker, tmp_path_factory):
    """One worker for the session (prefork, one pool child, as in production but smaller)."""
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        pytest.skip("needs REDIS_URL and PostgreSQL: make test runs this in its PostgreSQL pass")
    # A queue of our own, so that no other worker on this Redis takes the test's tasks.
    queue = f"lappu-test-{uuid.uuid4().hex[:8]}"
    proc = start_worker(queue=queue, log=tmp_path_factory.mktemp("worker") / "worker.log")
    try:
        app.conf.task_default_queue = queue
        yield queue
    finally:
        stop_worker(proc)


@pytest.fixture
def queue_at(request: pytest.FixtureRequest) -> Iterator[None]:
    """Point the broker and the result store at the URL given by `indirect` parametrizing."""
    with queue_pointed_at(getattr(request, "param", CLOSED)):
        yield


@pytest.fixture
def smtp_sink(settings) -> Iterator[Sink]:
    """A real SMTP server (tests/support/smtp.py) the site's mail goes to during the test."""
    with smtp_sink_running(settings) as sink:
        yield sink
