"""Journey (b): a teacher on a school laptop (1366×768), in French: a new class, its join code
for the projector, one assignment per game, then every page that follows a class."""

from __future__ import annotations

import re

import pytest
from journey_harness import PASSWORD, open_journey

pytestmark = [pytest.mark.journey, pytest.mark.django_db(transaction=True)]

LAPTOP = (1366, 768)


@pytest.fixture
def teacher(kana):
    from kanagame.accounts.services import user_create

    return user_create(username="mori", password=PASSWORD, role="teacher", display_name="Mori")


def _student_with_history(classroom):
    """A student who joined and answered a few questions (the pages have something to show)."""
    from django.utils import timezone

    from learning.classroom.services.classroom import student_join
    from learning.services.memory import memory_review

    student = student_join(code=classroom.join_code, display_name="Yuki", password=PASSWORD)
    for index, (kana, correct) in enumerate([("a", True), ("nu", False), ("me", True)]):
        memory_review(learner=student, kana_id=kana, script="hiragana", correct=correct,
                      response_ms=3000, source="quiz",
                      at=timezone.now() - timezone.timedelta(hours=index + 1),
                      confused_with="" if correct else "me")  # fmt: skip
    return student


def test_a_teacher_sets_up_a_class_and_follows_it_in_french(teacher, live_server, browser):
    from games.engines import ENGINES
    from learning.classroom.models import Classroom

    context, journey = open_journey(browser, live_server.url, "teacher-fr", LAPTOP, "fr")
    page = journey.page
    journey.go("/login/")
    journey.step("login")
    page.fill("input[name=username]", "mori")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/teach/")
    journey.step("my classes after log-in")

    page.fill("#id_name", "5e B – Japonais")
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r"/teach/\d+/$"))
    classroom = Classroom.objects.get(teacher=teacher)
    journey.step("new class")

    journey.go(f"/teach/{classroom.pk}/settings/")
    journey.step("join code for the projector")
    assert f"{live_server.url}/join/" in page.content()
    assert page.locator("img.join-qr[alt]").count() == 1

    for engine in sorted(ENGINES):
        journey.go(f"/teach/{classroom.pk}/assignments/?engine={engine}")
        page.locator("main form[method=post] button.primary").click()
        page.wait_for_load_state("networkidle")
    journey.step("five assignments")
    assert classroom.assignments.count() == len(ENGINES)

    student = _student_with_history(classroom)
    for label, path in [
        ("dashboard", f"/teach/{classroom.pk}/"),
        ("student page", f"/teach/{classroom.pk}/students/{student.pk}/"),
        ("per-kana page", f"/teach/{classroom.pk}/kana/hiragana/nu/"),
        ("live tables", f"/teach/{classroom.pk}/live/"),
    ]:
        assert journey.go(path).status == 200
        journey.step(label)
    journey.go(f"/teach/{classroom.pk}/")
    with page.expect_download() as download:
        page.locator(f"a[href='/teach/{classroom.pk}/export/progress.csv']").first.click()
    assert download.value.suggested_filename.endswith(".csv")
    journey.step("after the CSV download")
    context.close()
    journey.check()
