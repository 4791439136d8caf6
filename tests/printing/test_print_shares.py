"""A print job shared out, inline: the shares (PrintShare) an attempt is split into, each
stored once and only for the attempt running, the merge that waits for every share and
keeps the table order, and the chord the job's task becomes on a worker.

The same through a real worker (60 tables, a killed child, a killed worker, two processes)
is in test_print_worker.py and test_print_worker_pair.py.
"""

from __future__ import annotations

import pytest
from celery.canvas import _chord
from celery.exceptions import Ignore
from django.urls import reverse
from pypdf import PdfReader

from core.models import TaskRun
from printing import jobs as print_jobs
from printing import tasks as print_tasks
from printing.jobs import print_job_merge, print_job_run, print_job_start, print_share_make
from printing.models import PrintJob, PrintShare
from printing.pdf import PrintError
from tests.support.events import seated_event
from tests.support.print_state import run_of, state_of, with_run

# Files go to a temporary folder.
pytestmark = pytest.mark.usefixtures("media")


@pytest.fixture
def one_table_shares(monkeypatch):
    monkeypatch.setattr(print_jobs, "SHARE_SIZE", 1)


@pytest.fixture
def started(db, one_table_shares):
    """A Rutupeli night of 14 players (4 tables), its job's first attempt started: one share
    per table."""
    event, tables = seated_event(variant_id="rutupeli", players=14)
    job = PrintJob.objects.create(
        event=event, kind="table_sheets", params={"stage": 1, "language": "en", "paper": "A4"}
    )
    plan = print_job_start(job_id=job.pk)
    assert (plan.attempt, plan.shares, plan.tables) == (1, 4, 4)
    return job, tables


def _made() -> list[int]:
    return list(PrintShare.objects.filter(content__isnull=False).values_list("index", flat=True))


def test_a_share_is_stored_once_whoever_makes_it(started):
    job, _tables = started
    assert print_share_make(job_id=job.pk, attempt=1, index=2) == 1
    # Given out again (its process died after storing it): nothing more, no progress twice.
    assert print_share_make(job_id=job.pk, attempt=1, index=2) == 0
    assert _made() == [2]


def test_a_share_of_an_attempt_started_over_or_a_job_ended_is_not_made(started):
    job, _tables = started
    PrintJob.objects.filter(pk=job.pk).update(attempts=2)
    assert print_share_make(job_id=job.pk, attempt=1, index=0) == 0
    PrintJob.objects.filter(pk=job.pk).update(attempts=1)
    with_run(job, state=TaskRun.State.FAILED)
    assert print_share_make(job_id=job.pk, attempt=1, index=0) == 0
    assert _made() == []


def test_the_merge_waits_for_every_share_then_keeps_the_table_order(started):
    job, _tables = started
    for index in (3, 1, 0):
        print_share_make(job_id=job.pk, attempt=1, index=index)
    with pytest.raises(print_jobs.SharesMissing):
        print_job_merge(job_id=job.pk, attempt=1)
    print_share_make(job_id=job.pk, attempt=1, index=2)
    job = print_job_merge(job_id=job.pk, attempt=1)
    assert (bool(job.file), job.pages) == (True, 4)
    pages = [page.extract_text() for page in PdfReader(job.file.path).pages]
    firsts = [next(i for i, text in enumerate(pages) if f"Table {n}" in text) for n in (1, 2, 3, 4)]
    assert firsts == sorted(firsts), firsts
    assert not PrintShare.objects.exists()  # merged into the file, then let go
    # A merge run again (its message came back) leaves the file as it is.
    assert print_job_merge(job_id=job.pk, attempt=1).file.name == job.file.name


def test_a_merge_of_an_attempt_overtaken_leaves_the_job_to_the_later_one(started):
    job, _tables = started
    for index in range(4):
        print_share_make(job_id=job.pk, attempt=1, index=index)
    # The message of the job's task came back: a second attempt started over.
    assert print_job_start(job_id=job.pk).attempt == 2
    job = print_job_merge(job_id=job.pk, attempt=1)
    assert (job.file.name, job.attempts) == ("", 2)
    assert set(PrintShare.objects.values_list("attempt", flat=True)) == {2}


def test_inline_the_job_makes_every_share_and_reports_its_progress(db, one_table_shares):
    event, _tables = seated_event(variant_id="rutupeli", players=14)
    job = PrintJob.objects.create(
        event=event, kind="table_sheets", params={"stage": 1, "language": "en", "paper": "A4"}
    )
    heard: list[tuple[int, int]] = []
    job = print_job_run(job_id=job.pk, progress=lambda done, total: heard.append((done, total)))
    assert job.file and heard == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert print_job_run(job_id=job.pk).file.name == job.file.name  # a second run: nothing


def test_a_share_that_cannot_be_made_fails_the_job_saying_why(started, monkeypatch):
    job, _tables = started

    def broken(**kwargs):
        raise PrintError("print/table_sheet.html: the template broke")

    monkeypatch.setattr(print_jobs, "table_sheets_pdf", broken)
    with pytest.raises(PrintError) as error:
        print_share_make(job_id=job.pk, attempt=1, index=0)
    run = with_run(job, task_id="run-1", state=TaskRun.State.RUNNING)
    # The failed share's request: its own id, not the job's run.
    request = type("Request", (), {"id": "a-share"})()
    print_tasks.print_job_failed(request, error.value, None, job.pk)
    assert state_of(job) == "failed"
    assert (run_of(job).state, run_of(job).error) == (TaskRun.State.FAILED, "print_failed")
    assert run_of(job).pk == run.pk


def test_on_a_worker_the_job_s_task_becomes_a_chord_of_its_shares_and_a_merge(
    db, one_table_shares, monkeypatch
):
    event, _tables = seated_event(variant_id="rutupeli", players=14)
    job = PrintJob.objects.create(
        event=event, kind="table_sheets", params={"stage": 1, "language": "en", "paper": "A4"}
    )
    replaced = []

    def replace(sig):
        replaced.append(sig)
        raise Ignore("replaced")

    task = print_tasks.print_job_task._get_current_object()
    monkeypatch.setattr(task, "replace", replace)
    task.push_request(id="run-2", is_eager=False, retries=0)
    try:
        with pytest.raises(Ignore):
            task.run(job.pk)
    finally:
        task.pop_request()
    (sig,) = replaced
    assert isinstance(sig, _chord)
    header = list(sig.tasks)
    assert [s.task for s in header] == ["printing.print_share_task"] * 4
    assert [tuple(s.args) for s in header] == [(job.pk, 1, index, "run-2") for index in range(4)]
    assert (sig.body.task, tuple(sig.body.args)) == ("printing.print_merge_task", (job.pk, 1))
    (errback,) = sig.body.options["link_error"]
    assert errback["task"] == "printing.print_job_failed" and tuple(errback["args"]) == (job.pk,)


def test_the_admin_shows_a_running_job_s_shares(started, client, django_user_model):
    job, _tables = started
    PrintShare.objects.filter(job=job, index=0).update(content=b"%PDF-")
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    page = client.get(reverse("admin:printing_printjob_change", args=[job.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "print job shares" in html.lower()
    assert html.count('alt="True"') == 1  # one share made
