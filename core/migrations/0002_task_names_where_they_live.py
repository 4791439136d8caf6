"""Two tasks took their app's name: a job recorded under the old name is still found
(its page, its retry) under the new one."""

from django.db import migrations

RENAMED = {
    "scoring" + ".print_job_task": "printing.print_job_task",
    "scoring" + ".league_recompute_task": "leagues.league_recompute_task",
}


def forwards(apps, schema_editor):
    TaskRun = apps.get_model("core", "TaskRun")
    for old, new in RENAMED.items():
        TaskRun.objects.filter(name=old).update(name=new)


def backwards(apps, schema_editor):
    TaskRun = apps.get_model("core", "TaskRun")
    for old, new in RENAMED.items():
        TaskRun.objects.filter(name=new).update(name=old)


class Migration(migrations.Migration):
    dependencies = [("core", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
