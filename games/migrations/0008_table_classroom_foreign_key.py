import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """``Table.classroom`` becomes a real foreign key to ``classes.Classroom`` again (the class
    moved down to a low app, below games). Same column ``classroom_id``, same values and
    indexes; the constraint comes back (``SET_NULL``: a deleted class leaves its tables
    without a class). Ids of classes that no longer exist were nulled by 0007 (its own
    transaction: PostgreSQL refuses an ALTER TABLE after an UPDATE of the same table with
    deferred constraint checks pending). Backwards only the constraint goes."""

    dependencies = [
        ("games", "0007_table_class_orphans_unlinked"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterField(
                    model_name="table",
                    name="classroom_id",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="classes.classroom",
                        db_column="classroom_id",
                    ),
                ),
            ],
            state_operations=[
                migrations.RemoveIndex(model_name="table", name="table_class_status"),
                migrations.RemoveField(model_name="table", name="classroom_id"),
                migrations.AddField(
                    model_name="table",
                    name="classroom",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="tables",
                        to="classes.classroom",
                    ),
                ),
                migrations.AddIndex(
                    model_name="table",
                    index=models.Index(fields=["classroom", "status"], name="table_class_status"),
                ),
            ],
        ),
    ]
