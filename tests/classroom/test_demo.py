"""seed_demo's classroom part: assignments and a little history, idempotent."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from learning.classroom.models import Assignment, Classroom, LearnerActivity
from learning.models import LearningEvent


@pytest.mark.django_db
def test_the_demo_class_gets_assignments_and_history_once(client, settings):
    settings.LEARNING_FSRS_FUZZING = False
    call_command("seed_demo", stdout=StringIO())
    classroom = Classroom.objects.get(name="Demo class")
    first = (Assignment.objects.count(), LearningEvent.objects.filter(kind="answer").count())
    assert first[0] == 2 and first[1] > 50
    call_command("seed_demo", stdout=StringIO())
    assert (Assignment.objects.count(),
            LearningEvent.objects.filter(kind="answer").count()) == first  # fmt: skip
    assert LearnerActivity.objects.count() == 5
    client.force_login(classroom.teacher)
    response = client.get(reverse("teach_class", args=[classroom.pk]) + "?script=katakana")
    dash = response.context["dash"]
    assert dash.confusions and dash.weakest
    assert any(c["shown"].kana_id == "so" and c["read_as"].kana_id == "n" for c in dash.confusions)


@pytest.mark.django_db
def test_the_demo_code_with_a_dash_lets_students_join(client):
    call_command("seed_demo", stdout=StringIO())
    response = client.post(reverse("join"), {
        "code": "demo-kana", "display_name": "Hana", "password": "sakura-neko-2026",
        "password_again": "sakura-neko-2026",
    })  # fmt: skip
    assert response.status_code == 200
    assert Classroom.objects.get(name="Demo class").memberships.count() == 6
