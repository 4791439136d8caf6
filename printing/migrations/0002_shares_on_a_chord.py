# Print jobs run on Celery's canvas: a share is no longer claimed by a process (its claim
# columns go), the chunk is called a share everywhere, and a job's progress is its task's
# record (core.TaskRun), so the job's own counters go.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("printing", "0001_initial"),
    ]

    operations = [
        migrations.RemoveField(model_name="printjob", name="done"),
        migrations.RemoveField(model_name="printjob", name="total"),
        migrations.RenameModel(old_name="PrintChunk", new_name="PrintShare"),
        migrations.RemoveField(model_name="printshare", name="claimed_by"),
        migrations.RemoveField(model_name="printshare", name="claimed_at"),
        migrations.AlterModelOptions(
            name="printshare",
            options={
                "ordering": ["job", "attempt", "index"],
                "verbose_name": "print job share",
                "verbose_name_plural": "print job shares",
            },
        ),
        migrations.AlterField(
            model_name="printshare",
            name="index",
            field=models.PositiveSmallIntegerField(verbose_name="share"),
        ),
        migrations.AlterField(
            model_name="printshare",
            name="content",
            field=models.BinaryField(blank=True, null=True, verbose_name="rendered share"),
        ),
        migrations.AlterField(
            model_name="printshare",
            name="job",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE,
                related_name="shares",
                to="printing.printjob",
                verbose_name="print job",
            ),
        ),
    ]
