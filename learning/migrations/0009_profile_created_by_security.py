"""Profile.created_by: the teacher who created a student account (issue 12, teacher takeover).

Existing student accounts are attributed to the teacher of the class they joined when the
account was made (membership within a minute of the profile): that is how rosters and /join/
create them. Any other account keeps no creator, so no teacher can reset its password.
"""

from datetime import timedelta

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def attribute_existing_students(apps, schema_editor):
    Profile = apps.get_model("learning", "Profile")
    Membership = apps.get_model("learning", "Membership")
    for profile in Profile.objects.filter(role="student", created_by__isnull=True).iterator():
        first = (
            Membership.objects.filter(
                student_id=profile.user_id,
                joined_at__lte=profile.created_at + timedelta(minutes=1),
            )
            .select_related("classroom")
            .order_by("joined_at")
            .first()
        )
        if first is not None:
            Profile.objects.filter(pk=profile.pk).update(created_by_id=first.classroom.teacher_id)


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("learning", "0008_event_answer_kind"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="accounts_created",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(attribute_existing_students, migrations.RunPython.noop),
    ]
