# The print jobs' models, made by the scoring app (scoring.0004, 0005) and taken over here
# as they are: state only, the tables keep their names.

import django.db.models.deletion
import printing.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('scoring', '0007_print_models_to_printing'),
        ('tournaments', '0012_club_directors_confirm_alone'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PrintJob',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(max_length=32, verbose_name='sheets')),
                        ('params', models.JSONField(blank=True, default=dict, verbose_name='what to print')),
                        ('status', models.CharField(choices=[('queued', 'waiting'), ('running', 'printing'), ('done', 'ready'), ('failed', 'failed')], default='queued', max_length=16, verbose_name='status')),
                        ('done', models.PositiveIntegerField(default=0, verbose_name='done')),
                        ('total', models.PositiveIntegerField(default=0, verbose_name='of')),
                        ('error', models.TextField(blank=True, verbose_name='why it failed')),
                        ('file', models.FileField(blank=True, upload_to=printing.models.print_job_path, verbose_name='file')),
                        ('pages', models.PositiveIntegerField(default=0, verbose_name='pages')),
                        ('source_changed_at', models.DateTimeField(blank=True, null=True, verbose_name='made from results of')),
                        ('task_id', models.CharField(blank=True, max_length=64, verbose_name='task')),
                        ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='attempts')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='asked')),
                        ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='asked by')),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='print_jobs', to='tournaments.event', verbose_name='event')),
                    ],
                    options={
                        'verbose_name': 'print job',
                        'verbose_name_plural': 'print jobs',
                        'db_table': 'scoring_printjob',
                        'ordering': ['-created_at'],
                    },
                ),
                migrations.CreateModel(
                    name='PrintChunk',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('attempt', models.PositiveSmallIntegerField(verbose_name='attempt')),
                        ('index', models.PositiveSmallIntegerField(verbose_name='part')),
                        ('tables', models.JSONField(default=list, verbose_name='tables')),
                        ('claimed_by', models.CharField(blank=True, max_length=128, verbose_name='claimed by')),
                        ('claimed_at', models.DateTimeField(blank=True, null=True, verbose_name='claimed')),
                        ('content', models.BinaryField(blank=True, null=True, verbose_name='rendered part')),
                        ('job', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chunks', to='printing.printjob', verbose_name='print job')),
                    ],
                    options={
                        'verbose_name': 'print job part',
                        'verbose_name_plural': 'print job parts',
                        'db_table': 'scoring_printchunk',
                        'ordering': ['job', 'attempt', 'index'],
                        'constraints': [models.UniqueConstraint(fields=('job', 'attempt', 'index'), name='print_chunk_unique_part')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
