"""Writing through the quiz's HTTP views: when a kana is asked in writing, a right drawing
recorded as right, a wrong one as wrong (with the kana it is when it is another), forged
drawings refused with 400 and nothing recorded, nobody answering someone else's question,
"I can't draw here" falling back to typed recall."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from learning import kana_table
from learning import writing as checker
from learning.models import KanaMemory, LearningEvent, Prompt
from learning.models.memory import PromptKind, PromptStatus
from learning.services.quiz import quiz_start
from learning.services.writing import writing_due

pytestmark = pytest.mark.django_db
QUIZ = "/learn/quiz/"


def drawing_of(glyph: str) -> str:
    """KanjiVG's strokes of ``glyph`` as the canvas posts them (JSON, box of side 1)."""
    strokes = checker.reference(glyph)
    return json.dumps([[[round(x / 109, 4), round(y / 109, 4)] for x, y in s] for s in strokes])


def write_prompt(learner, kana_id: str = "so", script: str = "katakana") -> Prompt:
    now = timezone.now()
    return Prompt.objects.create(
        learner=learner,
        source="quiz",
        kind=PromptKind.WRITE,
        kana_id=kana_id,
        script=script,
        choices=[],
        shown_at=now,
        expires_at=now + timedelta(minutes=30),
        displayed_at=now - timedelta(seconds=4),
    )


@pytest.fixture
def dana_client(client, dana):
    client.force_login(dana)
    return client


def post_answer(client, prompt, answer, *, field="strokes", **extra):
    return client.post(QUIZ, {"action": "answer", "prompt": prompt.pk, field: answer}, **extra)


# --- when writing is asked ----------------------------------------------------------------


def test_writing_is_asked_once_typed_right_and_then_alternates_with_typing():
    now = timezone.now()
    assert not writing_due(typed_right=0, last_typed=None, last_written=None)
    assert not writing_due(typed_right=0, last_typed=now, last_written=None)  # typed, wrong
    assert writing_due(typed_right=1, last_typed=now, last_written=None)
    assert not writing_due(typed_right=1, last_typed=now, last_written=now + timedelta(1))
    assert writing_due(typed_right=3, last_typed=now + timedelta(1), last_written=now)


def _recall_ready(learner, kana_id, script="katakana"):
    KanaMemory.objects.update_or_create(
        learner=learner,
        kana_id=kana_id,
        script=script,
        defaults={"last_correct": True, "reps": 2, "introduced_at": timezone.now()},
    )


def _answered(learner, kana_id, kind, correct, minutes_ago, script="katakana"):
    LearningEvent.objects.create(
        learner=learner,
        kana_id=kana_id,
        script=script,
        kind="answer",
        correct=correct,
        answer_kind=kind,
        source="quiz",
        created_at=timezone.now() - timedelta(minutes=minutes_ago),
    )


def test_the_quiz_asks_in_writing_a_kana_typed_right_before(dana):
    for kana_id in ("so", "n", "shi"):
        _recall_ready(dana, kana_id)
    _answered(dana, "so", "typed", True, 60)  # typed right: next, written
    _answered(dana, "n", "reading", True, 60)  # only picked: typed first
    _answered(dana, "shi", "typed", True, 90)  # typed, then written: typed again
    _answered(dana, "shi", "write", True, 30)
    kinds = {p.kana_id: p.kind for p in quiz_start(learner=dana)}
    assert kinds == {"so": "write", "n": "typed", "shi": "typed"}


# --- answering ------------------------------------------------------------------------------


def test_the_written_question_shows_the_reading_a_canvas_and_real_buttons_never_the_glyph(
    dana_client, dana
):
    write_prompt(dana, "so")
    page = dana_client.get(QUIZ).content.decode()
    assert "Write “so”" in page and "katakana" in page
    assert '<canvas class="writing-canvas"' in page and "js/writing.js" in page
    for label in ("Undo stroke", "Clear", "Check", "I can’t draw here"):
        assert label in page
    assert 'name="strokes" value=""' in page  # the strokes' hidden field
    assert 'name="answer"' not in page
    assert "ソ" not in page and "stroke-svg" not in page  # no answer on screen
    assert "<script>" not in page  # no inline script (CSP)


def test_a_right_drawing_is_recorded_as_a_right_production_answer(dana_client, dana):
    prompt = write_prompt(dana, "so")
    response = post_answer(dana_client, prompt, drawing_of("ソ"))
    assert response.status_code == 302
    event = LearningEvent.objects.get(learner=dana, kind="answer")
    assert (event.kana_id, event.script, event.correct, event.answer_kind) == (
        "so",
        "katakana",
        True,
        "write",
    )
    assert event.confused_with == "" and event.response_ms is not None
    memory = KanaMemory.objects.get(learner=dana, kana_id="so", script="katakana")
    assert memory.reps == 1 and memory.last_correct is True and memory.due is not None
    prompt.refresh_from_db()
    assert (prompt.status, prompt.correct, prompt.answer) == (PromptStatus.ANSWERED, True, "so")
    page = dana_client.get(response["Location"]).content.decode()
    assert "Right: you wrote ソ (so)." in page and "stroke-svg" in page


def test_another_kana_drawn_is_wrong_and_named_as_the_confusion(dana_client, dana):
    prompt = write_prompt(dana, "so")
    response = post_answer(dana_client, prompt, drawing_of("ン"), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    page = response.content.decode()
    event = LearningEvent.objects.get(learner=dana, kind="answer")
    assert (event.correct, event.confused_with, event.answer_kind) == (False, "n", "write")
    assert "Not quite: so is written ソ." in page and "Your drawing is ン." in page
    assert "Stroke 2" in page and "wrong-stroke-2" in page  # the stroke, in the reference
    assert "Your drawing" in page and page.count("<polyline") == 2  # and in the drawing
    assert page.count('class="your-stroke is-wrong"') == 1
    prompt.refresh_from_db()
    assert prompt.answer == "n" and prompt.detail["verdict"]["stroke"] == 2
    assert KanaMemory.objects.get(learner=dana, kana_id="so").errors == 1


def test_a_stroke_drawn_backwards_is_wrong_with_its_reason(dana_client, dana):
    prompt = write_prompt(dana, "shi")
    strokes = json.loads(drawing_of("シ"))
    strokes[2].reverse()
    response = post_answer(dana_client, prompt, json.dumps(strokes))
    page = dana_client.get(response["Location"]).content.decode()
    assert "Stroke 3 is drawn backwards" in page
    event = LearningEvent.objects.get(learner=dana, kind="answer")
    assert (event.correct, event.confused_with) == (False, "")


@pytest.mark.parametrize(
    "answer",
    [
        "",
        "shi",
        "{}",
        "[[[NaN, 0.5]]]",
        "[[[0.5, Infinity]]]",
        '[[["0.1", 0.2]]]',
        "[[[0.1, 0.2, 0.3]]]",
        "[[[99, 0.2]]]",
        json.dumps([[[0.5, 0.5]] * 600]),
        json.dumps([[[0.5, 0.5]] * 10] * 40),
        "[" * 100_000,
    ],
)
def test_a_forged_drawing_is_refused_with_400_and_nothing_recorded(dana_client, dana, answer):
    prompt = write_prompt(dana, "so")
    response = post_answer(dana_client, prompt, answer)
    assert response.status_code == 400
    assert "could not be read" in response.content.decode()
    assert not LearningEvent.objects.filter(learner=dana).exists()
    prompt.refresh_from_db()
    assert prompt.status == PromptStatus.OPEN
    assert not KanaMemory.objects.filter(learner=dana, kana_id="so", reps__gt=0).exists()


def test_nobody_answers_or_skips_someone_else_s_written_question(client, dana, bob):
    prompt = write_prompt(dana, "so")
    client.force_login(bob)
    assert post_answer(client, prompt, drawing_of("ソ")).status_code == 404
    response = client.post(QUIZ, {"action": "cant_draw", "prompt": prompt.pk})
    assert response.status_code == 404
    prompt.refresh_from_db()
    assert (prompt.status, prompt.kind) == (PromptStatus.OPEN, PromptKind.WRITE)
    assert not LearningEvent.objects.filter(kind="answer").exists()


def test_i_can_t_draw_here_asks_by_typing_instead_and_records_nothing(dana_client, dana):
    prompt = write_prompt(dana, "so")
    response = dana_client.post(QUIZ, {"action": "cant_draw", "prompt": prompt.pk})
    assert response.status_code == 302
    prompt.refresh_from_db()
    assert (prompt.status, prompt.kind) == (PromptStatus.OPEN, PromptKind.TYPED)
    assert not LearningEvent.objects.filter(learner=dana).exists()
    # once typed, it can no more be skipped nor drawn
    again = dana_client.post(QUIZ, {"action": "cant_draw", "prompt": prompt.pk})
    assert again.status_code == 404
    assert post_answer(dana_client, prompt, drawing_of("ソ")).status_code == 400
    assert post_answer(dana_client, prompt, "so", field="answer").status_code == 302
    event = LearningEvent.objects.get(learner=dana, kind="answer")
    assert (event.answer_kind, event.correct) == ("typed", True)


def test_a_written_question_answered_or_expired_is_closed(dana_client, dana):
    prompt = write_prompt(dana, "so")
    assert post_answer(dana_client, prompt, drawing_of("ソ")).status_code == 302
    assert post_answer(dana_client, prompt, drawing_of("ソ")).status_code == 409
    assert dana_client.post(QUIZ, {"action": "cant_draw", "prompt": prompt.pk}).status_code == 409
    assert LearningEvent.objects.filter(learner=dana, kind="answer").count() == 1


def test_every_kana_can_be_asked_in_writing():
    for kana_id, script in kana_table.catalog():
        assert checker.reference(kana_table.info(kana_id, script).glyph)


def test_a_slow_right_drawing_is_good_for_fsrs_its_time_recorded(dana, bob):
    """Drawing takes hand movement on top of recall: a right drawing is Good whatever its
    time (a slow typed answer would be Hard), and the time is still on the event."""
    from learning.services.memory import memory_review

    at = timezone.now()
    written = memory_review(
        learner=dana, kana_id="so", script="katakana", correct=True, response_ms=20_000,
        source="quiz", at=at, answer_kind="write",
    )  # fmt: skip
    typed_untimed = memory_review(
        learner=bob, kana_id="so", script="katakana", correct=True, response_ms=None,
        source="quiz", at=at, answer_kind="typed",
    )  # fmt: skip
    typed_slow = memory_review(
        learner=bob, kana_id="n", script="katakana", correct=True, response_ms=20_000,
        source="quiz", at=at, answer_kind="typed",
    )  # fmt: skip
    assert written.stability == typed_untimed.stability != typed_slow.stability
    assert written.due == typed_untimed.due
    event = LearningEvent.objects.get(learner=dana)
    assert event.response_ms == 20_000 and event.answer_kind == "write"


def test_without_kanjivg_s_drawing_the_kana_is_typed(dana, monkeypatch):
    _recall_ready(dana, "so")
    _answered(dana, "so", "typed", True, 60)
    monkeypatch.setattr(checker, "drawable", lambda glyph: False)
    assert [p.kind for p in quiz_start(learner=dana)] == ["typed"]


def test_writing_kind_is_the_rule_bench_srs_sim_runs():
    """The pure rule quiz_start applies (and bench/srs_sim.py calls): typed recall becomes
    writing once typed right and when the latest recall answer was typed."""
    from learning.services.writing import writing_kind

    t = timezone.now()
    glyph = kana_table.info("so", "katakana").glyph
    write = {"glyph": glyph, "typed_right": 1, "last_typed": t, "last_written": None}
    assert writing_kind(kind=PromptKind.TYPED, **write) == PromptKind.WRITE
    assert writing_kind(kind=PromptKind.READING, **write) == PromptKind.READING
    again = {**write, "last_written": t + timedelta(minutes=1)}
    assert writing_kind(kind=PromptKind.TYPED, **again) == PromptKind.TYPED
    never = {**write, "typed_right": 0}
    assert writing_kind(kind=PromptKind.TYPED, **never) == PromptKind.TYPED
