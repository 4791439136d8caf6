# The print jobs' models moved to the printing app: gone from this app's state only; their
# tables stay as they are (printing.0001 takes them over by name).

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0006_confirmation_flags_and_pins'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(model_name="printjob", name="created_by"),
                migrations.RemoveField(model_name="printjob", name="event"),
                migrations.DeleteModel(name="PrintChunk"),
                migrations.DeleteModel(name="PrintJob"),
            ],
            database_operations=[],
        ),
    ]
