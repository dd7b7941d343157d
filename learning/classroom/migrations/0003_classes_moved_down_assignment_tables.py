import django.db.models.deletion
from django.db import migrations, models

MOVED = ("classroom", "membership")


def _content_types_move(apps, source: str, target: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        if ContentType.objects.filter(app_label=target, model=model).exists():
            continue  # already there (post_migrate made it): leave the old row alone
        ContentType.objects.filter(app_label=source, model=model).update(app_label=target)


def content_types_down(apps, schema_editor):
    _content_types_move(apps, "classroom", "classes")


def content_types_up(apps, schema_editor):
    _content_types_move(apps, "classes", "classroom")


def links_from_tables(apps, schema_editor):
    """One AssignmentTable row per table opened for an assignment that still exists."""
    Table = apps.get_model("games", "Table")
    Assignment = apps.get_model("classroom", "Assignment")
    AssignmentTable = apps.get_model("classroom", "AssignmentTable")
    existing = Assignment.objects.values("pk")
    rows = (
        Table.objects.filter(assignment_id__in=existing)
        .order_by("pk")
        .values_list("pk", "assignment_id")
    )
    AssignmentTable.objects.bulk_create(
        (AssignmentTable(table_id=table_id, assignment_id=assignment_id) for table_id, assignment_id in rows.iterator()),
        batch_size=500,
    )


def links_to_tables(apps, schema_editor):
    """Backwards: each link's assignment id goes back into its table's column."""
    Table = apps.get_model("games", "Table")
    AssignmentTable = apps.get_model("classroom", "AssignmentTable")
    by_assignment: dict[int, list[int]] = {}
    for table_id, assignment_id in AssignmentTable.objects.values_list("table_id", "assignment_id"):
        by_assignment.setdefault(assignment_id, []).append(table_id)
    for assignment_id, table_ids in by_assignment.items():
        for start in range(0, len(table_ids), 500):
            Table.objects.filter(pk__in=table_ids[start : start + 500]).update(
                assignment_id=assignment_id
            )


class Migration(migrations.Migration):
    """Classes and memberships leave the classroom for the low app ``classes`` (state only:
    the tables ``learning_classroom`` and ``learning_membership`` keep every row; their content
    types follow), and the classroom takes over the link of a table to its assignment: a new
    ``AssignmentTable`` row per table, copied from ``games_table.assignment_id``, which games
    migration 0009 then drops (and, backwards, restores before the copy goes back into it)."""

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("classes", "0001_classes_from_classroom"),
        ("classroom", "0002_class_syllabus"),
        ("games", "0008_table_classroom_foreign_key"),
    ]
    run_before = [("games", "0009_table_assignment_to_classroom")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="assignment",
                    name="classroom",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="assignments",
                        to="classes.classroom",
                    ),
                ),
                migrations.DeleteModel(name="Membership"),
                migrations.DeleteModel(name="Classroom"),
            ],
            database_operations=[
                migrations.RunPython(content_types_down, content_types_up),
            ],
        ),
        migrations.CreateModel(
            name="AssignmentTable",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("assignment", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="tables", to="classroom.assignment")),
                ("table", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="assignment_link", to="games.table")),
            ],
        ),
        migrations.RunPython(links_from_tables, links_to_tables),
    ]
