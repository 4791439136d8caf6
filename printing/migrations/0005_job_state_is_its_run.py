"""A print job's state is its task's run (core.TaskRun) alone: its own status, error and
finished time go, and `task_id` becomes a link to the run. What the old fields said moves
into the run first: a done job's run succeeded, a failed job's run failed with the job's
reason. A failed or done job with no run left gets one in that state; a job still queued or
running with none keeps none, and its page offers to start it again."""

import uuid

from django.db import migrations, models
import django.db.models.deletion

TASK = "printing.print_job_task"
# The print job's own failure codes, which its page words (printing.jobs._reason).
OWN_CODES = {"print_failed", "queue_unavailable", "missing"}


def forwards(apps, schema_editor):
    PrintJob = apps.get_model("printing", "PrintJob")
    TaskRun = apps.get_model("core", "TaskRun")
    for job in PrintJob.objects.all().iterator():
        run = TaskRun.objects.filter(task_id=job.task_id).first() if job.task_id else None
        ended = job.finished_at or (run.finished_at if run else None) or job.created_at
        if job.status == "done":
            fields = {"state": "succeeded", "error": "", "finished_at": ended}
        elif job.status == "failed":
            code = job.error if job.error in OWN_CODES else (run.error if run else "")
            fields = {"state": "failed", "error": code[:20], "finished_at": ended}
        else:
            fields = None  # queued or running: the run's own state goes on
        if run is None:
            if fields is None:
                continue
            run = TaskRun.objects.create(
                task_id=job.task_id or str(uuid.uuid4()),
                name=TASK,
                args=[job.pk],
                queued_at=job.created_at,
                lost_after=job.created_at,
                attempts=job.attempts,
                **fields,
            )
        elif fields is not None:
            TaskRun.objects.filter(pk=run.pk).update(**fields)
        PrintJob.objects.filter(pk=job.pk).update(run=run)


def backwards(apps, schema_editor):
    PrintJob = apps.get_model("printing", "PrintJob")
    for job in PrintJob.objects.select_related("run").iterator():
        run = job.run
        if run is None:
            status = "queued"
        elif run.state == "succeeded" and job.file:
            status = "done"
        elif run.state in ("failed", "not_queued"):
            status = "failed"
        else:
            status = "running" if run.started_at else "queued"
        PrintJob.objects.filter(pk=job.pk).update(
            status=status,
            error=run.error if run and status == "failed" else "",
            finished_at=run.finished_at if run else None,
            task_id=run.task_id if run else "",
        )


class Migration(migrations.Migration):

    dependencies = [
        ("core", "0002_task_names_where_they_live"),
        ("printing", "0004_job_moved_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="printjob",
            name="run",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="print_jobs",
                to="core.taskrun",
                verbose_name="job",
            ),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="printjob", name="status"),
        migrations.RemoveField(model_name="printjob", name="error"),
        migrations.RemoveField(model_name="printjob", name="finished_at"),
        migrations.RemoveField(model_name="printjob", name="task_id"),
    ]
