from django.db import migrations


class Migration(migrations.Migration):
    """``Table.assignment_id`` leaves games: the classroom owns the link now (its
    ``AssignmentTable`` rows, written by classroom migration 0003 from this column, which runs
    before this one: ``run_before`` there, so games names no app above it). Backwards the
    column comes back empty and that migration copies the links into it again."""

    dependencies = [
        ("games", "0008_table_classroom_foreign_key"),
    ]

    operations = [
        migrations.RemoveField(model_name="table", name="assignment_id"),
    ]
