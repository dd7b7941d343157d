from django.db import migrations


def orphans_unlink(apps, schema_editor):
    """Tables whose class no longer exists lose the id before the constraint is added."""
    Table = apps.get_model("games", "Table")
    Classroom = apps.get_model("classes", "Classroom")
    linked = Table.objects.filter(classroom_id__isnull=False)
    linked.exclude(classroom_id__in=Classroom.objects.values("pk")).update(classroom_id=None)


class Migration(migrations.Migration):
    """Before ``Table.classroom`` becomes a foreign key again (0008): tables whose class no
    longer exists lose the id. Backwards nothing comes back: those ids named no class."""

    dependencies = [
        ("classes", "0001_classes_from_classroom"),
        ("games", "0006_table_forfeit_seat"),
    ]

    operations = [
        migrations.RunPython(orphans_unlink, migrations.RunPython.noop, elidable=False),
    ]
