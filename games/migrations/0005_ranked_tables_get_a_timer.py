"""Ranked tables need a turn timer (issue 24, LOW 7; docs/security.md §15).

A ranked table created before the rule, not finished and without a timer, gets the 60-second
timer; one being played gets a due time 60 s from now, so a player who stopped playing
forfeits through the timer and the table finishes. Reversing leaves the timers in place.
"""

from datetime import timedelta

from django.db import migrations
from django.utils import timezone

TIMER = 60


def ranked_tables_timer(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    due = timezone.now() + timedelta(seconds=TIMER)
    for table in Table.objects.filter(ranked=True).exclude(status="finished"):
        if int((table.options or {}).get("timer", 0) or 0):
            continue
        table.options = {**(table.options or {}), "timer": TIMER}
        fields = ["options"]
        if table.status == "playing" and table.turn_due_at is None:
            table.turn_due_at = due
            fields.append("turn_due_at")
        table.save(update_fields=fields)


class Migration(migrations.Migration):
    dependencies = [("games", "0004_bozu_elo")]

    operations = [migrations.RunPython(ranked_tables_timer, migrations.RunPython.noop)]
