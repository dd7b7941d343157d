"""seed_demo's games hook: a finished game with a replay, an open class table, a game on."""

import io

import pytest

from games.demo import seed_demo_games
from games.models import Table
from kanagame.accounts.services import user_create
from learning.classroom.models import Classroom, Membership

pytestmark = pytest.mark.django_db(transaction=True)


def test_demo_tables_are_created_once(client):
    teacher = user_create(username="teacher", password="kana-demo-2026", role="teacher")
    classroom = Classroom.objects.create(teacher=teacher, name="Demo class", join_code="DEMO")
    learner = user_create(username="learner", password="kana-demo-2026", role="self")
    for name in ("student1", "student2"):
        student = user_create(username=name, password="kana-demo-2026", role="student")
        Membership.objects.create(classroom=classroom, student=student)
    out = io.StringIO()
    seed_demo_games(out)
    assert "3 demo table(s) created" in out.getvalue()
    finished = Table.objects.get(created_by=learner)
    assert finished.status == "finished" and finished.moves.count() == finished.version
    assert Table.objects.get(created_by__username="student1").status == "open"
    assert Table.objects.get(created_by__username="student2").status == "playing"
    seed_demo_games(io.StringIO())
    assert Table.objects.count() == 3
    client.force_login(learner)
    response = client.get(f"/play/t/{finished.code}/replay/", {"step": 1})
    assert response.status_code == 200
