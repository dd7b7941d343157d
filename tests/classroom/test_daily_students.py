"""Students have the daily session too: warm-up, then a game, their open assignments first."""

from datetime import timedelta

import pytest
from django.utils import timezone

from learning.classroom.models import Assignment
from learning.models import DailySession

pytestmark = pytest.mark.django_db


def test_a_student_without_assignments_gets_the_daily_session_of_a_self_learner(as_bob):
    page = as_bob.get("/daily/")
    assert page.status_code == 200
    text = page.content.decode()
    assert (
        "<h2>New kana</h2>" in text
        and "Start today's lesson" in text
        and 'href="/daily/" aria-current="page"' in text
    )
    assert "assignments come first" not in text
    assert as_bob.post("/daily/", {"action": "warmup"})["Location"] == "/learn/quiz/"


def test_a_students_open_assignments_come_first_and_set_the_days_game(as_bob, bob, alice_class):
    now = timezone.now()
    Assignment.objects.create(
        classroom=alice_class, title="Word week", engine="kazoku-words", script="katakana",
        options={"hand_size": 5}, due_at=now + timedelta(days=2),
    )  # fmt: skip
    text = as_bob.get("/daily/").content.decode()
    assert "Your teacher's assignments come first" in text
    assert "Assigned by your teacher" in text
    as_bob.post("/daily/", {"action": "skip_warmup"})
    daily = as_bob.get("/daily/").content.decode()
    assert "Today's game is your assignment: Kazoku: the word game" in daily
    response = as_bob.post("/daily/", {"action": "play"})
    assert response.status_code == 302
    from games.models import Table

    table = Table.objects.get(pk=DailySession.objects.get(learner=bob).table_id)
    assert table.engine == "kazoku-words"
    assert table.options["script"] == "katakana" and table.options["hand_size"] == 5


def test_teachers_still_have_no_daily_session(as_alice):
    assert as_alice.get("/daily/").status_code == 403


def test_a_refused_daily_action_leaves_no_session_row_behind(as_bob, bob):
    page = as_bob.post("/daily/", {"action": "nonsense"})
    assert page.status_code == 400
    assert not DailySession.objects.filter(learner=bob).exists()
