"""Load the kana catalog (fixtures/kana.json) so every database, test ones included, has it."""

import json
from pathlib import Path

from django.db import migrations

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "kana.json"


def load_kana(apps, schema_editor):
    Kana = apps.get_model("learning", "Kana")
    rows = json.loads(FIXTURE.read_text(encoding="utf-8"))
    for row in rows:
        Kana.objects.update_or_create(pk=row["pk"], defaults=row["fields"])


def unload_kana(apps, schema_editor):
    apps.get_model("learning", "Kana").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("learning", "0001_initial")]
    operations = [migrations.RunPython(load_kana, unload_kana)]
