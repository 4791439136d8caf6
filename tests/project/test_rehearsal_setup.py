"""The load rehearsal's event (tests/bench/rehearsal.py) is made by the site's own services:
kept working here, so `make bench` and the full rehearsal never meet a stale setup."""

from __future__ import annotations

import pytest

from tests.bench.rehearsal import _answer_of, setup_event
from tournaments.models import Event, StageStatus

pytestmark = pytest.mark.django_db


def test_the_rehearsal_seats_a_championship_of_tables_of_four():
    made = setup_event(3)
    event = Event.objects.get(pk=made["event"])
    (stage,) = event.stages.all()
    assert stage.status == StageStatus.CONFIRMED and len(made["tables"]) == 3
    assert [table.seats.count() for table in stage.tables.all()] == [4, 4, 4]
    assert not event.confirm_needs_pin  # the phones take their seats without a PIN


def test_the_rehearsals_client_reads_an_answer():
    answer = _answer_of(b'HTTP/1.1 304 Not Modified\r\nETag: W/"x"\r\nSet-Cookie: a=1\r\n\r\n')
    assert (answer.status_code, answer.header("etag"), answer.body) == (304, 'W/"x"', b"")


def test_the_stack_runs_threaded_workers_when_asked():
    from tests.production.stack import _with_threads, dockerfile_command

    sync = dockerfile_command(8123)
    threaded = _with_threads([*sync, "--threads", "9"], 4)
    assert threaded[-4:] == ["--worker-class", "gthread", "--threads", "4"]
    assert threaded.count("--threads") == 1 and "9" not in threaded
    workers = sync[sync.index("--workers") + 1]
    assert threaded[threaded.index("--workers") + 1] == workers  # the processes kept
