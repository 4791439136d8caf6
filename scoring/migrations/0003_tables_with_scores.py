from django.db import migrations


def mark_scored_tables(apps, schema_editor):
    Table = apps.get_model("tournaments", "Table")
    Deal = apps.get_model("scoring", "Deal")
    Table.objects.filter(pk__in=Deal.objects.values("table_id")).update(has_scores=True)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_void_claims"),
        ("tournaments", "0005_table_has_scores"),
    ]

    operations = [migrations.RunPython(mark_scored_tables, migrations.RunPython.noop)]
