"""The migration that made a print job's state its task's run (printing 0005): what the
job's own status, reason and task id said is found on its run afterwards."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from core.models import TaskRun
from printing.jobs import print_job_state
from printing.models import PrintJob
from tests.support.events import seated_event

BEFORE = [("printing", "0004_job_moved_at"), ("core", "0002_task_names_where_they_live")]
AFTER = [("printing", "0005_job_state_is_its_run")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_old_jobs_keep_their_state_on_their_runs(transactional_db):
    event, _tables = seated_event(variant_id="rutupeli", players=8)
    old = _migrate(BEFORE)
    Job, Run = old.get_model("printing", "PrintJob"), old.get_model("core", "TaskRun")
    soon = timezone.now() + datetime.timedelta(minutes=10)
    Run.objects.create(task_id="t-running", name="printing.print_job_task", state="running",
                       started_at=timezone.now(), lost_after=soon, done=3, total=8)  # fmt: skip
    Run.objects.create(task_id="t-timeout", name="printing.print_job_task", state="failed",
                       error="timeout", lost_after=soon)  # fmt: skip
    Run.objects.create(task_id="t-done", name="printing.print_job_task", state="running",
                       lost_after=soon)  # fmt: skip
    made = {"event_id": event.pk, "kind": "table_sheets", "params": {"stage": 1}}
    jobs = {
        "running": Job.objects.create(**made, status="running", task_id="t-running").pk,
        "timeout": Job.objects.create(
            **made, status="failed", error="error", task_id="t-timeout"
        ).pk,
        "done": Job.objects.create(
            **made, status="done", task_id="t-done", file="print/a.pdf", pages=2
        ).pk,
        "done_no_run": Job.objects.create(**made, status="done", file="print/b.pdf").pk,
        "failed_no_run": Job.objects.create(**made, status="failed", error="print_failed").pk,
        "queued_no_run": Job.objects.create(**made, status="queued").pk,
    }
    # Asked for long ago (it is never started now).
    Job.objects.filter(pk=jobs["queued_no_run"]).update(
        created_at=timezone.now() - datetime.timedelta(hours=1)
    )
    _migrate(AFTER)

    def state(name):
        return print_job_state(PrintJob.objects.select_related("run").get(pk=jobs[name]))

    assert (state("running").kind, state("running").done, state("running").total) == (
        "working", 3, 8,
    )  # fmt: skip
    assert state("timeout").kind == "failed"
    assert "took longer than a job may" in state("timeout").reason
    assert state("done").kind == "done"
    assert TaskRun.objects.get(task_id="t-done").state == TaskRun.State.SUCCEEDED
    # A done or failed job with no run left gets one in its state.
    assert state("done_no_run").kind == "done"
    failed = state("failed_no_run")
    assert (failed.kind, failed.retryable) == ("failed", True)
    assert "A sheet could not be made" in failed.reason
    # A job queued with no run at all keeps none: its page offers to start it again.
    queued = state("queued_no_run")
    assert (queued.kind, queued.waiting, queued.stuck) == ("working", True, True)
    assert PrintJob.objects.get(pk=jobs["queued_no_run"]).run is None


@pytest.mark.parametrize("field", ["status", "error", "finished_at", "task_id"])
def test_a_print_job_has_no_state_of_its_own(field):
    """A second state must not come back: the job's state is its run's."""
    names = {f.name for f in PrintJob._meta.get_fields()}
    assert field not in names
    assert PrintJob._meta.get_field("run").related_model is TaskRun
