"""Journey (a): a student on a phone (360×740), in Japanese, from the join code to the progress
of every assignment the teacher set (one per game)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from journey_harness import PASSWORD, open_journey
from journey_play import answer_questions, finish_for, play_moves, table_code

pytestmark = [pytest.mark.journey, pytest.mark.django_db(transaction=True)]

PHONE = (360, 740)
# The line saying what the game counted for starts in the first screen (its first row of text
# inside the viewport), and nothing (an open question's bottom sheet) covers any of its rows
# there.
COUNTED_IN_VIEW = """() => {
  const line = document.querySelector('.result-assignments');
  const r = line.getBoundingClientRect();
  const row = parseFloat(getComputedStyle(line).lineHeight) || 24;
  if (r.top < 0 || r.top + row > innerHeight) return false;
  for (let y = r.top + row / 2; y < Math.min(r.bottom, innerHeight); y += row / 2) {
    const hit = document.elementFromPoint(r.left + r.width / 2, y);
    if (!hit || !line.contains(hit)) return false;
  }
  return true;
}"""


@pytest.fixture
def assigned(kana):
    """A teacher's class with one assignment per game, teacher's settings fixed."""
    from games.engines import ENGINES
    from kanagame.accounts.services import user_create
    from learning.classroom.models import Assignment
    from learning.classroom.services.classroom import classroom_create

    teacher = user_create(username="mori", password=PASSWORD, role="teacher", display_name="Mori")
    classroom = classroom_create(teacher=teacher, name="5e B – Japonais")
    due = timezone.now() + timedelta(days=7)
    for engine in sorted(ENGINES):
        Assignment.objects.create(
            classroom=classroom, engine=engine, options={"prompts": "every", "romaji": "hover"},
            script="hiragana", due_at=due, goal_value=2,
        )  # fmt: skip
    return classroom


def test_a_student_joins_on_a_phone_and_plays_every_assignment(assigned, live_server, browser):
    context, journey = open_journey(browser, live_server.url, "student-ja", PHONE, "ja")
    page = journey.page
    journey.go("/join/")
    journey.step("join form")
    code = assigned.join_code
    page.fill("#id_code", f" {code[:3].lower()} {code[3:].lower()} ")  # typed loosely, no dash
    page.fill("#id_display_name", "ゆき")
    page.fill("#id_password", PASSWORD)
    page.fill("#id_password_again", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state("networkidle")
    journey.step("welcome")
    student = get_user_model().objects.get(profile__display_name="ゆき")
    assert student.username == "yuki"

    journey.go("/")
    journey.step("home with assignments")
    plays = page.locator("form.play-assignment")
    assert plays.count() == assigned.assignments.count()
    for assignment in assigned.assignments.order_by("due_at", "id"):
        engine = assignment.engine
        page.locator(f"form[action='/assignments/{assignment.pk}/play/'] button").first.click()
        page.wait_for_url("**/play/t/**")
        journey.step(f"{engine} board")
        answer_questions(journey)
        if play_moves(journey, 1):
            journey.step(f"{engine} after a question and a move")
        code_ = table_code(page)
        finish_for(code_, student)
        page.reload()
        journey.step(f"{engine} result")
        assert page.locator(".result-assignments").count(), f"{engine}: nothing says it counted"
        assert "1 / 2" in page.locator(".result-assignments").inner_text()
        page.evaluate("window.scrollTo(0, 0)")  # the result as it opens: first screen
        assert page.evaluate(COUNTED_IN_VIEW), f"{engine}: what it counted for is out of view"
        journey.go("/")
    journey.step("home: every assignment counted once")
    progress = page.locator(".my-assignments progress")
    assert [progress.nth(i).get_attribute("value") for i in range(progress.count())] == ["1"] * 5
    context.close()
    journey.check()
