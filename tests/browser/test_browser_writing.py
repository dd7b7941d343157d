"""Writing in a real browser (360 px wide): strokes drawn on the canvas with the pointer are
posted as JSON, "Undo stroke" takes the last one back, and a right drawing of ソ is recorded
as a right written answer, with no CSP violation and nothing wider than the screen."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from kanagame.accounts.services import user_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "kana-demo-2026"


@pytest.fixture
def learner(transactional_db):
    from django.conf import settings
    from django.core.management import call_command

    from learning.models import Kana

    if not Kana.objects.exists():  # an earlier transactional test flushed the migration's rows
        call_command("loaddata", str(settings.BASE_DIR / "fixtures" / "kana.json"), verbosity=0)
    return user_create(username="wren", password=PASSWORD, role="self", display_name="Wren")


def test_strokes_drawn_on_the_canvas_are_posted_and_graded(
    learner, live_server, browser, results_dir
):
    from learning import writing
    from learning.models import LearningEvent, Prompt
    from learning.models.memory import PromptKind

    now = timezone.now()
    Prompt.objects.create(
        learner=learner,
        source="quiz",
        kind=PromptKind.WRITE,
        kana_id="so",
        script="katakana",
        choices=[],
        shown_at=now,
        expires_at=now + timedelta(minutes=30),
    )
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    violations = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", "wren")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(re.compile(r"/(?!login)"))
    page.goto(f"{live_server.url}/learn/quiz/")

    canvas = page.locator("canvas.writing-canvas")
    box = canvas.bounding_box()
    assert box["width"] <= 360 and box["width"] >= 200

    def draw(points):
        first = points[0]
        page.mouse.move(
            box["x"] + first[0] / 109 * box["width"], box["y"] + first[1] / 109 * box["height"]
        )
        page.mouse.down()
        for x, y in points[1::3]:
            page.mouse.move(box["x"] + x / 109 * box["width"], box["y"] + y / 109 * box["height"])
        last = points[-1]
        page.mouse.move(
            box["x"] + last[0] / 109 * box["width"], box["y"] + last[1] / 109 * box["height"]
        )
        page.mouse.up()

    for stroke in writing.reference("ソ"):
        draw(stroke)
    draw([(10, 100), (100, 10)])  # a slip, taken back
    field = page.locator("input.writing-strokes")
    assert len(writing.parse_drawing(field.input_value())) == 3
    page.get_by_role("button", name="Undo stroke").click()
    posted = writing.parse_drawing(field.input_value())
    assert len(posted) == 2 and all(len(s) >= 5 for s in posted)
    assert writing.check("ソ", posted).correct

    page.screenshot(path=f"{results_dir}/drawn.png", full_page=True)
    page.get_by_role("button", name="Check").click()
    page.get_by_text("Right: you wrote ソ (so).").wait_for()
    event = LearningEvent.objects.get(learner=learner, kind="answer")
    assert (event.kana_id, event.answer_kind, event.correct) == ("so", "write", True)
    page.screenshot(path=f"{results_dir}/checked.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert violations == []
    context.close()


def test_keyboard_users_can_skip_a_written_question_and_an_empty_check_posts_nothing(
    learner, live_server, browser
):
    from learning.models import LearningEvent, Prompt
    from learning.models.memory import PromptKind

    now = timezone.now()
    prompt = Prompt.objects.create(
        learner=learner,
        source="quiz",
        kind=PromptKind.WRITE,
        kana_id="n",
        script="katakana",
        choices=[],
        shown_at=now,
        expires_at=now + timedelta(minutes=30),
    )
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", "wren")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(re.compile(r"/(?!login)"))
    page.goto(f"{live_server.url}/learn/quiz/")

    page.get_by_role("button", name="Check").click()  # nothing drawn
    page.get_by_text("Draw at least one stroke first.").wait_for()
    assert not LearningEvent.objects.filter(learner=learner).exists()

    skip = page.get_by_role("button", name=re.compile("I can’t draw here"))
    for _ in range(40):  # the keyboard alone reaches it
        page.keyboard.press("Tab")
        if skip.evaluate("b => b === document.activeElement"):
            break
    else:
        pytest.fail("“I can’t draw here” is not reachable with the Tab key")
    page.keyboard.press("Enter")
    page.get_by_text("How do you read this kana?").wait_for()
    prompt.refresh_from_db()
    assert prompt.kind == PromptKind.TYPED
    assert not LearningEvent.objects.filter(learner=learner).exists()
    context.close()
