import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """Classroom and Membership move from the classroom app down to classes: state only, the
    tables keep their names (db_table) and every row. The classroom's migration 0003 drops them
    from its own state and moves their content types (docs/architecture.md)."""

    initial = True

    dependencies = [
        ("classroom", "0002_class_syllabus"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Classroom",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=80, verbose_name="name")),
                        ("level", models.CharField(blank=True, max_length=40, verbose_name="level")),
                        ("default_script", models.CharField(choices=[("hiragana", "Hiragana"), ("katakana", "Katakana")], default="hiragana", max_length=8, verbose_name="default script")),
                        ("syllabus", models.CharField(choices=[("both", "Hiragana and katakana"), ("hiragana", "Hiragana only"), ("katakana", "Katakana only")], default="both", help_text="New kana are taught, and games recommended, in these scripts only. Assignments are played as you set them.", max_length=8, verbose_name="scripts the class learns")),
                        ("join_code", models.CharField(max_length=12, unique=True)),
                        ("is_open", models.BooleanField(default=True, verbose_name="open to new students")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("teacher", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="classrooms_taught", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={"db_table": "learning_classroom", "ordering": ["name"]},
                ),
                migrations.CreateModel(
                    name="Membership",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("joined_at", models.DateTimeField(auto_now_add=True)),
                        ("classroom", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="memberships", to="classes.classroom")),
                        ("student", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="memberships", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "learning_membership",
                        "constraints": [models.UniqueConstraint(fields=("classroom", "student"), name="membership_unique")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
