"""A print job shared out between processes, inline: the shares (PrintChunk) a job's attempt
is split into, who may claim one, taking over a dead or silent claimer's share, a helper's
failure handed back, an attempt started over, and the merge in table order.

The same with a real worker of two pool processes, and one of them killed, is in
test_print_worker.py.
"""

from __future__ import annotations

import datetime
import socket
import subprocess
import sys

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from printing import jobs as print_jobs
from printing import tasks as print_tasks
from printing.jobs import print_job_help, print_job_run
from printing.models import PrintChunk, PrintJob, PrintJobStatus
from printing.pdf import PrintError
from tests.printing.test_print_jobs import media  # noqa: F401  (autouse: files in a temporary folder)
from tests.scoring.conftest import seated_event

Status = PrintJobStatus


@pytest.fixture
def one_table_shares(monkeypatch):
    monkeypatch.setattr(print_jobs, "CHUNK", 1)


@pytest.fixture
def running(db, one_table_shares):
    """A Rutupeli night of 14 players (4 tables), its job running its first attempt, split
    into one share per table."""
    event, tables = seated_event(variant_id="rutupeli", players=14)
    job = PrintJob.objects.create(
        event=event,
        kind="table_sheets",
        params={"stage": 1, "language": "en", "paper": "A4"},
        status=Status.RUNNING,
        attempts=1,
        total=len(tables),
    )
    assert print_jobs._split(job, tables) == 4
    return job, tables


def _dead_pid() -> int:
    """A process id on this machine that no process has any more."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return int(done.stdout)


def _claim(job: PrintJob, index: int, by: str, ago: datetime.timedelta) -> None:
    PrintChunk.objects.filter(job=job, index=index).update(
        claimed_by=by, claimed_at=timezone.now() - ago
    )


def _made() -> list[int]:
    return list(PrintChunk.objects.filter(content__isnull=False).values_list("index", flat=True))


def test_a_helper_takes_every_share_nobody_is_making(running):
    job, _tables = running
    here = socket.gethostname()
    minute = datetime.timedelta(minutes=1)
    _claim(job, 0, f"{here}:{_dead_pid()}", minute)  # its process died: taken over at once
    _claim(job, 1, "elsewhere:123", minute)  # another machine's, recent: left to it
    _claim(job, 2, "elsewhere:456", print_jobs.CLAIM_TIMEOUT + minute)  # gone silent
    assert print_job_help(job_id=job.pk, attempt=1) == 3
    assert _made() == [0, 2, 3]
    job.refresh_from_db()
    # The progress counts the tables of the shares made, each once.
    assert job.done == 3
    assert set(PrintChunk.objects.exclude(index=1).values_list("claimed_by", flat=True)) == {
        f"{here}:{print_jobs.os.getpid()}"
    }


def test_a_share_claimed_by_a_live_process_here_is_left_to_it(running):
    job, _tables = running
    me = f"{socket.gethostname()}:{print_jobs.os.getpid()}"
    _claim(job, 0, me, datetime.timedelta(seconds=1))
    print_job_help(job_id=job.pk, attempt=1)
    assert _made() == [1, 2, 3]


def test_a_helper_of_an_attempt_started_over_does_nothing(running):
    job, _tables = running
    PrintJob.objects.filter(pk=job.pk).update(attempts=2)
    assert print_job_help(job_id=job.pk, attempt=1) == 0
    PrintJob.objects.filter(pk=job.pk).update(attempts=1, status=Status.FAILED)
    assert print_job_help(job_id=job.pk, attempt=1) == 0
    assert _made() == []


def test_a_share_a_helper_cannot_make_is_handed_back(running, monkeypatch):
    job, _tables = running

    def broken(**kwargs):
        raise PrintError("print/table_sheet.html: the template broke")

    monkeypatch.setattr(print_jobs, "table_sheets_pdf", broken)
    assert print_job_help(job_id=job.pk, attempt=1) == 0
    # Nobody holds it: the job's own task makes it, or fails the job saying why.
    share = PrintChunk.objects.get(index=0)
    assert (share.claimed_by, share.claimed_at, share.content) == ("", None, None)
    job.refresh_from_db()
    assert (job.status, job.done) == (Status.RUNNING, 0)


def test_the_job_merges_shares_others_made_in_table_order(db, one_table_shares, monkeypatch):
    event, _tables = seated_event(variant_id="rutupeli", players=14)
    job = PrintJob.objects.create(
        event=event, kind="table_sheets", params={"stage": 1, "language": "en", "paper": "A4"}
    )
    helped = []

    def helper_makes_half(job: PrintJob, count: int) -> None:
        # Another process takes the last two shares before the job's task looks.
        helped.append(count)
        for share in PrintChunk.objects.filter(job=job, index__gte=2):
            print_jobs._make(job, share)

    monkeypatch.setattr(print_jobs, "_call_helpers", helper_makes_half)
    job = print_job_run(job_id=job.pk)
    assert helped == [3]
    assert (job.status, job.done, job.total) == (Status.DONE, 4, 4)
    pages = [page.extract_text() for page in PdfReader(job.file.path).pages]
    firsts = [next(i for i, text in enumerate(pages) if f"Table {n}" in text) for n in (1, 2, 3, 4)]
    assert firsts == sorted(firsts), firsts
    assert not PrintChunk.objects.exists()  # merged into the file, then let go


def test_a_run_overtaken_by_a_later_run_of_the_job_leaves_the_file_to_it(
    db, one_table_shares, monkeypatch
):
    event, _tables = seated_event(variant_id="rutupeli", players=14)
    job = PrintJob.objects.create(
        event=event, kind="table_sheets", params={"stage": 1, "language": "en", "paper": "A4"}
    )

    def later_run_starts(job: PrintJob, count: int) -> None:
        # The message was delivered twice: the second run starts over with its own shares.
        PrintJob.objects.filter(pk=job.pk).update(attempts=2)
        tables = list(event.stages.get().tables.order_by("number"))
        print_jobs._split(PrintJob.objects.get(pk=job.pk), tables)

    monkeypatch.setattr(print_jobs, "_call_helpers", later_run_starts)
    job = print_job_run(job_id=job.pk)
    assert (job.status, job.file.name) == (Status.RUNNING, "")
    assert set(PrintChunk.objects.values_list("attempt", flat=True)) == {2}


def test_with_a_worker_helpers_are_asked_and_a_queue_down_leaves_the_job_to_itself(
    running, monkeypatch
):
    job, _tables = running
    sent = []
    conf = print_tasks.print_help_task.app.conf
    monkeypatch.setattr(
        print_tasks.print_help_task, "apply_async", lambda args: sent.append(tuple(args))
    )
    conf.task_always_eager = False  # as on a worker (the autouse fixture sets it back)
    try:
        print_jobs._call_helpers(job, 3)
        assert sent == [(job.pk, 1)] * 3
        print_jobs._call_helpers(job, 10)
        assert len(sent) == 3 + print_jobs.HELPERS

        def down(args):
            raise ConnectionRefusedError("redis is down")

        monkeypatch.setattr(print_tasks.print_help_task, "apply_async", down)
        print_jobs._call_helpers(job, 3)  # logged, not raised
    finally:
        conf.task_always_eager = True
    monkeypatch.setattr(print_tasks.print_help_task, "apply_async", lambda args: 1 / 0)
    print_jobs._call_helpers(job, 3)  # inline: nobody asked


def test_the_admin_shows_a_running_job_s_shares(running, client, django_user_model):
    job, _tables = running
    _claim(job, 1, "elsewhere:123", datetime.timedelta(seconds=5))
    PrintChunk.objects.filter(job=job, index=0).update(content=b"%PDF-")
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    page = client.get(reverse("admin:printing_printjob_change", args=[job.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "print job parts" in html.lower() and "elsewhere:123" in html
    assert html.count('alt="True"') == 1  # one share made


def test_the_admin_lists_every_job_s_shares(running, client, django_user_model):
    job, _tables = running
    _claim(job, 2, "elsewhere:789", datetime.timedelta(seconds=5))
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    listing = client.get(reverse("admin:printing_printchunk_changelist"))
    assert listing.status_code == 200 and "elsewhere:789" in listing.content.decode()
    share = PrintChunk.objects.get(index=2)
    page = client.get(reverse("admin:printing_printchunk_change", args=[share.pk]))
    assert page.status_code == 200 and "elsewhere:789" in page.content.decode()
