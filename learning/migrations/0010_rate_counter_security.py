from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("learning", "0009_profile_created_by_security"),
    ]

    operations = [
        migrations.CreateModel(
            name="RateCounter",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(max_length=200, unique=True)),
                ("count", models.PositiveIntegerField(default=0)),
                ("expires_at", models.DateTimeField(db_index=True)),
            ],
        ),
    ]
