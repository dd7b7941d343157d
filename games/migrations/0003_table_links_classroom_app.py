from django.db import migrations, models


class Migration(migrations.Migration):
    """Table's class and assignment links become plain ids (`classroom_id`, `assignment_id`).

    The classroom app sits above games, so games holds no foreign key up to it. Database side:
    the same columns, values and indexes; only the foreign key constraints go. State side: the
    ``classroom`` and ``assignment`` foreign keys are replaced by integer fields named after
    their columns. No dependency on the classroom app.
    """

    dependencies = [
        ('games', '0002_created_by_set_null'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterField(
                    model_name='table',
                    name='classroom',
                    field=models.BigIntegerField(blank=True, null=True, db_index=True, db_column='classroom_id'),
                ),
                migrations.AlterField(
                    model_name='table',
                    name='assignment',
                    field=models.BigIntegerField(blank=True, null=True, db_index=True, db_column='assignment_id'),
                ),
            ],
            state_operations=[
                migrations.RemoveIndex(model_name='table', name='table_class_status'),
                migrations.RemoveField(model_name='table', name='classroom'),
                migrations.RemoveField(model_name='table', name='assignment'),
                migrations.AddField(
                    model_name='table',
                    name='classroom_id',
                    field=models.BigIntegerField(blank=True, null=True, db_index=True),
                ),
                migrations.AddField(
                    model_name='table',
                    name='assignment_id',
                    field=models.BigIntegerField(blank=True, null=True, db_index=True),
                ),
                migrations.AddIndex(
                    model_name='table',
                    index=models.Index(fields=['classroom_id', 'status'], name='table_class_status'),
                ),
            ],
        ),
    ]
