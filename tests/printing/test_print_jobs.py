"""Print jobs, inline (eager, the embedded default): asked for on the manage page, made,
downloaded as one PDF; reused until a result changes; a failure says why and is retried;
the queue down is a message, never an error page; directors only.

The real worker on Redis (60 tables, a worker killed mid-batch) is in test_print_worker.py.
"""

from __future__ import annotations

import datetime
import io
import time
import uuid
from pathlib import Path
from unittest import mock

import pytest
from celery.exceptions import ChordError, TaskRevokedError, WorkerLostError
from django.db import OperationalError
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from clubsite.celery import app
from core.models import TaskRun
from core.tasks import QUEUE_UNAVAILABLE, START_WITHIN, QueueUnavailable
from printing import jobs as print_jobs
from printing.jobs import print_job_request, print_job_run, print_job_state
from printing.models import PrintJob, PrintShare
from printing.pdf import PrintError
from printing.tasks import interrupted, print_job_failed
from rules import RuleViolation
from tests.support.broker import queue_pointed_at, silent_port
from tests.support.championship import play, winner_scheme
from tests.support.events import seated_event
from tests.support.factories import ClubFactory, MembershipFactory
from tests.support.print_state import run_of, state_of, with_run
from tournaments.changes import event_results_version, results_change
from tournaments.models import Role
from tournaments.services import event_create

# Files go to a temporary folder.
pytestmark = pytest.mark.usefixtures("media")


@pytest.fixture
def night(db):
    """A Rutupeli night of 14 players: tables of 4, 4, 3 and 3."""
    event, tables = seated_event(variant_id="rutupeli", players=14)
    return event, tables


@pytest.fixture
def director(night):
    return MembershipFactory(club=night[0].club, role=Role.DIRECTOR).user


def _start_url(event) -> str:
    return reverse("print_job_start", args=[event.club.slug, event.pk])


def _job_url(job, name: str = "print_job") -> str:
    return reverse(name, args=[job.event.club.slug, job.event_id, job.pk])


def _ask(client, event, kind: str = "table_sheets", capture=None):
    """POST the manage page's print button (its job runs on commit, inline)."""
    with capture(execute=True):
        response = client.post(_start_url(event), {"kind": kind, "stage": 1})
    return response


def _pdf(response) -> PdfReader:
    content = b"".join(response.streaming_content)
    assert content.startswith(b"%PDF-")
    return PdfReader(io.BytesIO(content))


def test_a_batch_is_made_inline_and_downloads_as_one_pdf(
    client, night, director, media, django_capture_on_commit_callbacks
):
    event, tables = night
    client.force_login(director)
    response = _ask(client, event, capture=django_capture_on_commit_callbacks)
    job = PrintJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == _job_url(job)
    assert (state_of(job), job.kind) == ("done", "table_sheets")
    # Its state and progress are its task's run, as every job's.
    run = run_of(job)
    assert (run.state, run.done, run.total) == (TaskRun.State.SUCCEEDED, 4, 4)
    assert job.params == {"stage": 1, "language": "en", "paper": "A4"}
    event.refresh_from_db()
    assert job.source_changed_at == event_results_version(event)
    # The file is under the (temporary) media folder, and nothing was left half-made.
    assert (media / job.file.name).is_file()
    assert not any((media / "print" / "partial").iterdir())

    page = client.get(_job_url(job)).content.decode()
    assert "Download the PDF" in page
    assert f"Ready: {job.pages} pages." in page

    download = client.get(_job_url(job, "print_job_download"))
    assert download.status_code == 200
    assert download["Content-Type"] == "application/pdf"
    assert (
        'filename="rutupeli-night-round-1-score-sheets-a4-en.pdf"'
        in download["Content-Disposition"]
    )
    reader = _pdf(download)
    assert len(reader.pages) == job.pages >= len(tables)
    text = "\n".join(page.extract_text() for page in reader.pages)
    for seat in range(1, 15):
        assert f"Player {seat:03d}" in text


def test_result_sheets_are_their_own_job(
    client, night, director, django_capture_on_commit_callbacks
):
    event, tables = night
    for table in tables:
        play(table, winner_scheme(table.seats.count()))
    client.force_login(director)
    _ask(client, event, capture=django_capture_on_commit_callbacks)
    _ask(client, event, "result_sheets", capture=django_capture_on_commit_callbacks)
    jobs = {job.kind: job for job in PrintJob.objects.all()}
    assert set(jobs) == {"table_sheets", "result_sheets"}
    assert state_of(jobs["result_sheets"]) == "done"
    download = client.get(_job_url(jobs["result_sheets"], "print_job_download"))
    assert 'filename="rutupeli-night-round-1-results-a4-en.pdf"' in download["Content-Disposition"]
    assert len(_pdf(download).pages) >= 4


def test_a_rounds_results_leave_out_the_tables_with_no_deals(
    client, night, director, django_capture_on_commit_callbacks
):
    """Tables 1 and 3 have played, 2 and 4 not yet: the results are theirs alone, no page
    saying "No deals entered", and the job's page says two tables were left out; with no
    table played there is nothing to print, and the director is told so (issue 31)."""
    event, tables = night
    client.force_login(director)
    nothing = _ask(client, event, "result_sheets", capture=django_capture_on_commit_callbacks)
    assert not PrintJob.objects.exists()
    assert (
        "No table of that stage has deals entered"
        in client.get(nothing["Location"]).content.decode()
    )
    for table in tables[::2]:
        play(table, winner_scheme(table.seats.count()))
    _ask(client, event, "result_sheets", capture=django_capture_on_commit_callbacks)
    job = PrintJob.objects.get()
    assert state_of(job) == "done"
    text = "\n".join(
        page.extract_text() for page in _pdf(client.get(_job_url(job, "print_job_download"))).pages
    )
    assert "No deals entered" not in text
    labels = [label for label in ("Table 1", "Table 2", "Table 3", "Table 4") if label in text]
    assert labels == ["Table 1", "Table 3"]
    assert run_of(job).total == 2
    assert (
        "2 tables with no deals entered were left out."
        in client.get(_job_url(job)).content.decode()
    )
    # Asked again with nothing changed: the same job.
    _ask(client, event, "result_sheets", capture=django_capture_on_commit_callbacks)
    assert PrintJob.objects.count() == 1


def test_the_file_is_reused_until_a_result_changes(
    client, night, director, django_capture_on_commit_callbacks
):
    event, tables = night
    client.force_login(director)
    _ask(client, event, capture=django_capture_on_commit_callbacks)
    first = PrintJob.objects.get()
    # Asked again: the same job and file, nothing rendered.
    response = _ask(client, event, capture=django_capture_on_commit_callbacks)
    assert response["Location"] == _job_url(first)
    assert PrintJob.objects.count() == 1
    first.refresh_from_db()
    assert first.attempts == 1
    # Another language is another file.
    client.cookies["django_language"] = "fi"
    _ask(client, event, capture=django_capture_on_commit_callbacks)
    assert PrintJob.objects.count() == 2
    del client.cookies["django_language"]
    # A deal saved (every result change goes through results_change): a new file.
    results_change(event_id=event.pk, reason="deal_saved", table_id=tables[0].pk)
    _ask(client, event, capture=django_capture_on_commit_callbacks)
    newest = PrintJob.objects.filter(params__language="en").order_by("-pk").first()
    assert newest.pk != first.pk
    assert newest.source_changed_at == event_results_version(event) != first.source_changed_at
    assert newest.file.name != first.file.name


def test_the_manage_page_box_offers_the_ready_file(
    client, night, director, django_capture_on_commit_callbacks
):
    event, _tables = night
    html = render_to_string("printing/_print_buttons.html", {"event": event})
    assert "Print every table's score sheet" in html
    assert "Print every table's result sheet" in html
    assert "Download the score sheets" not in html
    client.force_login(director)
    _ask(client, event, capture=django_capture_on_commit_callbacks)
    job = PrintJob.objects.get()
    event.refresh_from_db()
    html = render_to_string("printing/_print_buttons.html", {"event": event})
    assert "Download the score sheets" in html
    assert _job_url(job, "print_job_download") in html
    # Once a result changes the old file is no longer offered.
    results_change(event_id=event.pk, reason="deal_saved")
    event.refresh_from_db()
    html = render_to_string("printing/_print_buttons.html", {"event": event})
    assert "Download the score sheets" not in html


def test_a_whole_round_prints_on_the_paper_asked_for(
    client, night, director, settings, django_capture_on_commit_callbacks
):
    """The print box asks for the paper, preset to the site's (PRINT_PAPER): a club with
    Letter paper prints a whole round on it, as it can each table's sheet."""
    event, _tables = night
    settings.PRINT_PAPER = "Letter"
    html = render_to_string("printing/_print_buttons.html", {"event": event})
    assert '<option value="Letter" selected>' in html
    assert '<option value="A4">' in html
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_start_url(event), {"kind": "table_sheets", "stage": 1, "paper": "A4"})
    job = PrintJob.objects.get()
    assert job.params["paper"] == "A4"
    reader = _pdf(client.get(_job_url(job, "print_job_download")))
    assert [round(float(side)) for side in reader.pages[0].mediabox[2:]] == [595, 842]
    event.refresh_from_db()
    html = render_to_string("printing/_print_buttons.html", {"event": event})
    assert f"(A4, {job.pages} pages)" in html
    # Unset, the site's paper; a paper the site does not print is refused, not guessed.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(_start_url(event), {"kind": "table_sheets", "stage": 1})
    assert PrintJob.objects.order_by("-pk").first().params["paper"] == "Letter"
    with django_capture_on_commit_callbacks(execute=True):
        refused = client.post(
            _start_url(event), {"kind": "table_sheets", "stage": 1, "paper": "A3"}
        )
    assert refused.status_code == 302 and PrintJob.objects.count() == 2


def test_a_job_needs_no_shared_disk_only_the_storage(
    client, night, director, media, settings, django_capture_on_commit_callbacks
):
    """Web and worker as separate services with no volume in common: the file is written
    and read through Django's storage API, so an object store (any django-storages backend)
    serves. An in-memory storage stands in for one: nothing of the file is on the disk."""
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    }
    event, tables = night
    client.force_login(director)
    _ask(client, event, capture=django_capture_on_commit_callbacks)
    job = PrintJob.objects.get()
    assert state_of(job) == "done"
    assert not any(path.is_file() for path in Path(media).rglob("*.pdf"))
    download = client.get(_job_url(job, "print_job_download"))
    assert download.status_code == 200
    assert len(_pdf(download).pages) == job.pages >= len(tables)


def test_each_round_print_downloads_under_its_own_name(night):
    """A director who prints a round's results in Finnish on A4 and in English on Letter
    gets two files that say which is which, not two of one name (issue 31)."""
    event, _tables = night
    names = {}
    for kind in ("table_sheets", "result_sheets", "standings"):
        for stage in (1, 2, None):
            for language in ("fi", "hu", "en"):
                for paper in ("A4", "Letter"):
                    params = {"stage": stage, "language": language, "paper": paper}
                    job = PrintJob(event=event, kind=kind, params=params)
                    names[kind, stage, language, paper] = print_jobs.print_job_filename(job)
    assert len(set(names.values())) == len(names)
    assert names["result_sheets", 2, "fi", "A4"] == "rutupeli-night-round-2-results-a4-fi.pdf"
    assert names["table_sheets", 1, "hu", "Letter"] == (
        "rutupeli-night-round-1-score-sheets-letter-hu.pdf"
    )
    assert names["standings", None, "en", "A4"] == "rutupeli-night-standings-a4-en.pdf"
    # A championship's stages are stages, whatever the language of the sheets.
    event.format = "championship"
    job = PrintJob(event=event, kind="result_sheets", params={"stage": 3, "language": "hu",
                                                              "paper": "A4"})  # fmt: skip
    assert print_jobs.print_job_filename(job) == "rutupeli-night-stage-3-results-a4-hu.pdf"


def test_an_event_not_drawn_yet_has_no_print_box(db):
    event = event_create(
        club=ClubFactory(), name="Empty", date=datetime.date(2026, 12, 1), variant_id="rutupeli"
    )
    assert render_to_string("printing/_print_buttons.html", {"event": event}).strip() == ""


def test_a_second_run_of_a_done_job_does_nothing(
    client, night, director, django_capture_on_commit_callbacks
):
    event, _tables = night
    client.force_login(director)
    _ask(client, event, capture=django_capture_on_commit_callbacks)
    job = PrintJob.objects.get()
    run = run_of(job)
    again = print_job_run(job_id=job.pk)
    assert (again.file.name, again.attempts, again.pages) == (job.file.name, 1, job.pages)
    assert (run_of(job).state, run_of(job).finished_at) == (run.state, run.finished_at)


def test_a_job_whose_worker_died_starts_over_and_finishes(night, director, media):
    event, _tables = night
    # What a killed worker leaves: the job's run running, half its tables done, no file.
    job = PrintJob.objects.create(
        event=event,
        kind="table_sheets",
        params={"stage": 1, "language": "en", "paper": "A4"},
        attempts=1,
    )
    with_run(job, state=TaskRun.State.RUNNING, started_at=timezone.now())
    PrintShare.objects.create(job=job, attempt=1, index=0, tables=[], content=b"%PDF-")
    job = print_job_run(job_id=job.pk)
    assert (bool(job.file), job.attempts) == (True, 2)
    assert not PrintShare.objects.exists()  # the dead attempt's share went with it
    assert len(PdfReader(job.file.path).pages) == job.pages >= 4


def test_a_failed_job_says_why_and_can_be_retried(
    client, night, director, monkeypatch, django_capture_on_commit_callbacks
):
    event, _tables = night
    client.force_login(director)

    def broken(**kwargs):
        raise PrintError("print/table_sheet.html: the template broke")

    monkeypatch.setattr(print_jobs, "table_sheets_pdf", broken)
    _ask(client, event, capture=django_capture_on_commit_callbacks)
    job = PrintJob.objects.get()
    assert (state_of(job), run_of(job).error, job.file.name) == ("failed", "print_failed", "")
    page = client.get(_job_url(job)).content.decode()
    assert "The print job failed." in page
    assert "A sheet could not be made, so no file was made." in page
    assert _job_url(job, "print_job_retry") in page
    assert client.get(_job_url(job, "print_job_download")).status_code == 404
    # The technical detail is kept for the administrators, never shown on the page.
    assert "the template broke" in run_of(job).detail
    assert "the template broke" not in page
    # A failed job is not reused: asking again would have made a new one; here, retry.
    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(_job_url(job, "print_job_retry"))
    assert response["Location"] == _job_url(job)
    job.refresh_from_db()
    assert (state_of(job), run_of(job).error, job.attempts) == ("done", "", 2)
    assert len(_pdf(client.get(_job_url(job, "print_job_download"))).pages) >= 4


def test_a_job_that_has_not_stopped_cannot_be_retried(
    client, night, director, django_capture_on_commit_callbacks
):
    event, _tables = night
    client.force_login(director)
    _ask(client, event, capture=django_capture_on_commit_callbacks)
    job = PrintJob.objects.get()
    response = client.post(_job_url(job, "print_job_retry"), follow=True)
    assert "This print job has not stopped, so there is nothing to retry." in (
        response.content.decode()
    )
    job.refresh_from_db()
    assert job.attempts == 1


def test_a_transient_database_error_is_retried(
    client, night, director, monkeypatch, django_capture_on_commit_callbacks
):
    event, _tables = night
    client.force_login(director)
    real = print_jobs.table_sheets_pdf
    calls = []

    def flaky(**kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("the database went away")
        return real(**kwargs)

    monkeypatch.setattr(print_jobs, "table_sheets_pdf", flaky)
    _ask(client, event, capture=django_capture_on_commit_callbacks)
    job = PrintJob.objects.get()
    assert (state_of(job), job.attempts) == ("done", 2)
    assert len(PdfReader(job.file.path).pages) == job.pages


def test_a_lost_job_counts_as_stopped_and_can_be_retried(
    client, night, director, django_capture_on_commit_callbacks
):
    event, _tables = night
    client.force_login(director)
    # Queued, and the queue forgot it: its task record is long past its start-by time.
    job = PrintJob.objects.create(
        event=event, kind="table_sheets", params={"stage": 1, "language": "en", "paper": "A4"}
    )
    past = timezone.now() - START_WITHIN * 2
    with_run(job, queued_at=past, lost_after=past + START_WITHIN)
    job.refresh_from_db()
    state = print_job_state(job)
    assert (state.kind, state.retryable) == ("failed", True)
    assert "no worker has started it" in state.reason
    # A new request does not hand back the lost job.
    with django_capture_on_commit_callbacks(execute=True):
        fresh = print_job_request(event=event, kind="table_sheets", params=job.params, by=director)
    assert fresh.pk != job.pk
    assert state_of(fresh) == "done"


def test_the_progress_page_polls_while_working(client, night, director):
    event, _tables = night
    client.force_login(director)
    job = PrintJob.objects.create(
        event=event,
        kind="table_sheets",
        params={"stage": 1, "language": "en", "paper": "A4"},
    )
    with_run(job, state=TaskRun.State.RUNNING, started_at=timezone.now(), done=10, total=60)
    html = client.get(_job_url(job)).content.decode()
    assert 'hx-trigger="every 1s"' in html
    assert "10 of 60 tables" in html
    partial = client.get(_job_url(job), HTTP_HX_REQUEST="true").content.decode()
    assert partial.startswith('<div id="print-job-progress"')
    assert "<html" not in partial


def test_the_progress_page_reads_little(client, night, director, django_assert_max_num_queries):
    event, _tables = night
    client.force_login(director)
    job = PrintJob.objects.create(event=event, kind="table_sheets", params={"stage": 1})
    with_run(job, state=TaskRun.State.RUNNING, started_at=timezone.now())
    with django_assert_max_num_queries(10):
        client.get(_job_url(job), HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("who", ["member", "outsider", "scorer"])
def test_only_the_clubs_directors_print(client, night, who, django_capture_on_commit_callbacks):
    event, _tables = night
    if who == "outsider":
        user = MembershipFactory(role=Role.OWNER).user  # owns another club
    else:
        user = MembershipFactory(club=event.club, role=getattr(Role, who.upper())).user
    job = PrintJob.objects.create(event=event, kind="table_sheets", params={"stage": 1})
    with_run(job, state=TaskRun.State.SUCCEEDED)
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            client.post(_start_url(event), {"kind": "table_sheets", "stage": 1}).status_code == 403
        )
    for name in ("print_job", "print_job_download"):
        assert client.get(_job_url(job, name)).status_code == 403
    assert client.post(_job_url(job, "print_job_retry")).status_code == 403
    assert PrintJob.objects.count() == 1


def test_signed_out_visitors_are_sent_to_sign_in(client, night):
    event, _tables = night
    response = client.post(_start_url(event), {"kind": "table_sheets", "stage": 1})
    assert response.status_code == 302
    assert "login" in response["Location"]


def test_a_job_of_another_event_is_404(client, night, director):
    other, _tables = seated_event(variant_id="rutupeli", players=8, club=night[0].club)
    job = PrintJob.objects.create(event=other, kind="table_sheets", params={"stage": 1})
    client.force_login(director)
    url = reverse("print_job", args=[night[0].club.slug, night[0].pk, job.pk])
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "posters", "stage": 1}, "Pick what to print."),
        ({"kind": "table_sheets", "stage": 7}, "That stage has no confirmed tables to print yet."),
        ({"kind": "table_sheets"}, "Pick what to print."),
    ],
)
def test_a_bad_request_is_a_message(client, night, director, data, message):
    event, _tables = night
    client.force_login(director)
    response = client.post(_start_url(event), data, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not PrintJob.objects.exists()


def test_the_queue_down_is_a_message_not_an_error(
    transactional_db,
    queue_at,
    client,
    media,
):
    event, _tables = seated_event(variant_id="rutupeli", players=8)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    started = time.monotonic()
    post = {"kind": "table_sheets", "stage": 1, "paper": "Letter"}
    response = client.post(_start_url(event), post)
    elapsed = time.monotonic() - started
    # Said where the director looks, with the same request ready to send again.
    assert response.status_code == 503
    html = response.content.decode()
    assert str(QUEUE_UNAVAILABLE) in html
    for name, value in post.items():
        assert f'name="{name}" value="{value}"' in html
    assert "Try again" in html
    assert elapsed < 3.0, f"the refusal took {elapsed:.2f} s"
    # Nothing was kept but the record that the queueing failed.
    assert not PrintJob.objects.exists()
    assert TaskRun.objects.get().state == TaskRun.State.NOT_QUEUED


# redis-py makes two tries at each connection (its default retry) before Celery's own.
REDIS_TRIES = 2


def test_an_unanswering_queue_is_given_up_on_within_a_second(settings):
    # A Redis host that does not answer (down, cut off) costs each try its connect timeout:
    # the print button waits through the result store's subscription, then the publish.
    store = (
        settings.CELERY_REDIS_SOCKET_CONNECT_TIMEOUT
        * REDIS_TRIES
        * (1 + settings.CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS["retry_policy"]["max_retries"])
    )
    broker = settings.CELERY_BROKER_TRANSPORT_OPTIONS["socket_connect_timeout"] * (
        1 + settings.CELERY_TASK_PUBLISH_RETRY_POLICY["max_retries"]
    )
    assert store <= 1.0, store
    assert broker <= 1.0, broker
    assert settings.CELERY_BROKER_CONNECTION_TIMEOUT <= 0.5


def test_an_unanswering_queue_is_a_message_and_keeps_nothing(transactional_db, client, media):
    event, _tables = seated_event(variant_id="rutupeli", players=8)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    with silent_port() as port, queue_pointed_at(f"redis://127.0.0.1:{port}/0"):
        response = client.post(_start_url(event), {"kind": "table_sheets", "stage": 1}, follow=True)
    assert str(QUEUE_UNAVAILABLE) in response.content.decode()
    assert not PrintJob.objects.exists()
    assert TaskRun.objects.get().state == TaskRun.State.NOT_QUEUED


def test_without_a_worker_the_batch_is_made_during_the_request(transactional_db, client, media):
    """The embedded default: no transaction around the request, the task runs inline at
    once, and the page the director lands on offers the download."""
    event, _tables = seated_event(variant_id="rutupeli", players=8)
    client.force_login(MembershipFactory(club=event.club, role=Role.DIRECTOR).user)
    response = client.post(_start_url(event), {"kind": "table_sheets", "stage": 1}, follow=True)
    job = PrintJob.objects.get()
    assert (state_of(job), job.attempts) == ("done", 1)
    assert run_of(job).done == 2
    assert "Download the PDF" in response.content.decode()
    assert len(_pdf(client.get(_job_url(job, "print_job_download"))).pages) == job.pages >= 2


def test_a_file_gone_from_the_disk_is_404_not_an_error(
    client, night, director, django_capture_on_commit_callbacks
):
    event, _tables = night
    client.force_login(director)
    _ask(client, event, capture=django_capture_on_commit_callbacks)
    job = PrintJob.objects.get()
    Path(job.file.path).unlink()
    assert client.get(_job_url(job, "print_job_download")).status_code == 404


# -- a job its worker or its queue lost ---------------------------------------------------------


def _stalled_job(event, *, seconds: float) -> PrintJob:
    """A job whose worker died: its attempt started, its shares never made, and nothing
    moved for `seconds`."""
    job = PrintJob.objects.create(
        event=event, kind="table_sheets", params={"stage": 1, "language": "en", "paper": "A4"}
    )
    # An id of its own: a task sent again inline (eager) runs under it.
    with_run(
        job,
        task_id=str(uuid.uuid4()),
        total=4,
        state=TaskRun.State.RUNNING,
        started_at=timezone.now(),
        lost_after=timezone.now() + datetime.timedelta(minutes=10),
    )
    plan = print_jobs.print_job_start(job_id=job.pk)
    assert plan is not None and plan.shares >= 1
    moved = timezone.now() - datetime.timedelta(seconds=seconds)
    PrintJob.objects.filter(pk=job.pk).update(moved_at=moved)
    job.refresh_from_db()
    return job


def test_a_stalled_job_is_given_out_again_by_its_page_and_finishes(
    client, night, director, settings
):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    event, _tables = night
    job = _stalled_job(event, seconds=print_jobs.STALL.total_seconds() + 1)
    assert print_jobs.print_job_stalled(job)
    client.force_login(director)
    page = client.get(_job_url(job)).content.decode()
    job.refresh_from_db()
    # The missing shares and the merge were sent again (inline here): the file is whole.
    assert state_of(job) == "done" and job.attempts == 1
    assert "Download the PDF" in page or print_job_state(job).kind == "done"
    assert len(_pdf(client.get(_job_url(job, "print_job_download"))).pages) == job.pages


def test_a_job_that_moves_is_left_alone(client, night, director):
    event, _tables = night
    job = _stalled_job(event, seconds=1)
    assert not print_jobs.print_job_stalled(job)
    client.force_login(director)
    client.get(_job_url(job))
    job.refresh_from_db()
    assert state_of(job) == "working" and print_jobs.print_job_missing_shares(job=job)
    assert run_of(job).state == TaskRun.State.RUNNING


def test_a_job_cut_off_by_its_worker_or_queue_waits_and_is_never_failed(night):
    event, _tables = night
    job = _stalled_job(event, seconds=60)
    revoked = ChordError("Dependency x raised TaskRevokedError('terminated')")
    for error in (revoked, TaskRevokedError("terminated"), WorkerLostError("killed")):
        assert interrupted(error)
        print_job_failed(None, error, None, job.pk)
    assert not interrupted(PrintError("a sheet failed"))
    assert (state_of(job), run_of(job).state) == ("working", TaskRun.State.RUNNING)
    # Its run is past its time (lost); the page says it waits, not that it failed.
    TaskRun.objects.filter(pk=job.run_id).update(
        lost_after=timezone.now() - datetime.timedelta(seconds=1)
    )
    job.refresh_from_db()
    state = print_job_state(job)
    assert (state.kind, state.waiting, state.retryable) == ("working", True, False)
    print_job_failed(None, PrintError("a sheet failed"), None, job.pk)
    assert state_of(job) == "failed"
    assert (run_of(job).state, run_of(job).error) == (TaskRun.State.FAILED, "print_failed")


def _queued_job(event, *, seconds: float) -> PrintJob:
    """A job queued `seconds` ago that no worker has started (its message waiting behind
    others, or lost by a queue that restarted)."""
    queued = timezone.now() - datetime.timedelta(seconds=seconds)
    job = PrintJob.objects.create(
        event=event,
        kind="table_sheets",
        params={"stage": 1, "language": "en", "paper": "A4"},
        source_changed_at=event_results_version(event),
    )
    with_run(job, task_id=str(uuid.uuid4()), queued_at=queued, lost_after=queued + START_WITHIN)
    return job


def test_a_second_press_on_a_job_never_started_offers_to_start_it_again(
    client, night, director, django_capture_on_commit_callbacks
):
    event, _tables = night
    client.force_login(director)
    fresh = _queued_job(event, seconds=1)
    page = client.get(_job_url(fresh)).content.decode()
    assert "Waiting for a worker" in page and "Start it again" not in page
    with pytest.raises(RuleViolation):
        print_jobs.print_job_retry(job=fresh)
    fresh.delete()

    job = _queued_job(event, seconds=print_jobs.STALL.total_seconds() + 1)
    # The print button pressed again leads to the job it asked for before...
    pressed = client.post(_start_url(event), {"kind": "table_sheets", "stage": 1})
    assert pressed["Location"] == _job_url(job)
    # ...whose page, the job never started, offers to start it again.
    page = client.get(pressed["Location"]).content.decode()
    assert "Waiting for a worker" in page and "failed" not in page
    assert "Start it again" in page and _job_url(job, "print_job_retry") in page
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(_job_url(job, "print_job_retry"))
    assert again["Location"] == _job_url(job)
    job.refresh_from_db()
    assert state_of(job) == "done" and job.attempts == 1
    assert PrintJob.objects.count() == 1


def test_a_second_press_on_a_stalled_job_gives_it_out_again(client, night, director, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    event, _tables = night
    job = _stalled_job(event, seconds=print_jobs.STALL.total_seconds() + 1)
    PrintJob.objects.filter(pk=job.pk).update(source_changed_at=event_results_version(event))
    client.force_login(director)
    pressed = client.post(_start_url(event), {"kind": "table_sheets", "stage": 1}, follow=True)
    assert pressed.redirect_chain[-1][0] == _job_url(job)
    assert state_of(job) == "done" and PrintJob.objects.count() == 1


def test_a_job_cut_off_says_it_waits_for_a_worker_or_the_queue_never_failed(
    client,
    night,
    director,
    queue_at,
):
    """Its worker gone: "waiting for a worker"; the queue unreachable (its state cannot be
    read, and giving it out again cannot be sent): "waiting for the job queue"."""
    event, _tables = night
    job = _stalled_job(event, seconds=60)
    client.force_login(director)
    page = client.get(_job_url(job)).content.decode()
    assert "Waiting for the job queue" in page and "hx-get" in page
    assert "failed" not in page and "Retry" not in page
    job.refresh_from_db()
    assert run_of(job).state == TaskRun.State.RUNNING and print_jobs.print_job_stalled(job)
    # Its run past its time (the worker died unheard) and the job not stalled yet: waiting
    # for a worker, never failed.
    TaskRun.objects.filter(pk=job.run_id).update(lost_after=timezone.now())
    PrintJob.objects.filter(pk=job.pk).update(moved_at=timezone.now())
    page = client.get(_job_url(job)).content.decode()
    assert "Waiting for a worker" in page and "failed" not in page


def test_a_job_s_state_is_its_run_whatever_the_result_store_says(night):
    """One state: the job's run. The result store unreachable, or saying the job failed,
    changes nothing of what its page reads."""
    event, _tables = night
    job = PrintJob.objects.create(
        event=event, kind="table_sheets", params={"stage": 1, "language": "en", "paper": "A4"}
    )
    with_run(job, state=TaskRun.State.RUNNING, started_at=timezone.now(), done=2, total=4)
    for store in (
        {"side_effect": ConnectionError("down")},
        {"return_value": {"status": "FAILURE", "result": PrintError("a sheet failed")}},
    ):
        with mock.patch.object(app.backend, "get_task_meta", **store):
            state = print_job_state(PrintJob.objects.select_related("run").get(pk=job.pk))
        assert (state.kind, state.done, state.total, state.retryable) == ("working", 2, 4, False)


def test_a_retry_the_queue_refuses_leaves_the_job_stopped_saying_so(
    transactional_db, queue_at, media
):
    event, _tables = seated_event(variant_id="rutupeli", players=8)
    job = PrintJob.objects.create(
        event=event, kind="table_sheets", params={"stage": 1, "language": "en", "paper": "A4"}
    )
    failed = with_run(job, state=TaskRun.State.FAILED, error="print_failed")
    with pytest.raises(QueueUnavailable):
        print_jobs.print_job_retry(job=job)
    # Its state is the new run, never queued: stopped, saying why, and retried again.
    run = run_of(job)
    assert run.pk != failed.pk and run.state == TaskRun.State.NOT_QUEUED
    state = print_job_state(PrintJob.objects.select_related("run").get(pk=job.pk))
    assert (state.kind, state.retryable) == ("failed", True)
    assert "The job queue could not be reached" in state.reason
