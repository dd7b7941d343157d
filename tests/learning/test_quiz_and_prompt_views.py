"""The warm-up quiz and prompt answers through the test client (htmx and plain POST)."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from factories import taught

from learning import kana_table
from learning.models import KanaMemory, LearningEvent, Prompt
from learning.services.play import play_observed

pytestmark = pytest.mark.django_db
QUIZ = "/learn/quiz/"


@pytest.fixture
def dana_client(client, dana):
    client.force_login(dana)
    return client


def test_a_newcomer_is_never_quizzed_on_kana_never_taught(dana_client, dana):
    dana_client.post(QUIZ, {"action": "start"})
    assert not Prompt.objects.filter(learner=dana).exists()
    page = dana_client.get(QUIZ).content.decode()
    assert reverse("learn:lesson") in page
    taught(dana, 3)
    dana_client.post(QUIZ, {"action": "start"})
    asked = list(Prompt.objects.filter(learner=dana).order_by("id"))
    assert [p.kana_id for p in asked] == ["a", "i", "u"]
    assert {p.kind for p in asked} <= {"reading", "glyph"}  # new kana: four buttons


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get(QUIZ)
    assert response.status_code == 302 and "login" in response["Location"]


def test_teachers_have_no_quiz(client, alice):
    client.force_login(alice)
    assert client.get(QUIZ).status_code == 403


def test_quiz_without_js_start_answer_feedback_and_next(dana_client, dana):
    now = timezone.now()
    KanaMemory.objects.create(
        learner=dana,
        kana_id="nu",
        script="hiragana",
        reps=2,
        stability=1.0,
        due=now - timedelta(days=1),
        card={
            "card_id": 1,
            "state": 2,
            "step": None,
            "stability": 1.0,
            "difficulty": 6.0,
            "due": (now - timedelta(days=1)).isoformat(),
            "last_review": (now - timedelta(days=2)).isoformat(),
        },
    )
    taught(dana, 9)
    page = dana_client.get(QUIZ)
    assert "1 kana is due" in page.content.decode()
    response = dana_client.post(QUIZ, {"action": "start"})
    assert response.status_code == 302
    prompts = list(Prompt.objects.filter(learner=dana, source="quiz").order_by("id"))
    assert len(prompts) == 10
    # the kana of the lesson first (never asked yet), then the due one (issue 27)
    assert [p.kana_id for p in prompts] == [*kana_table.kana_ids("hiragana")[:9], "nu"]
    assert {p.script for p in prompts} == {"hiragana"} or len({p.kind for p in prompts}) == 2
    assert {p.kind for p in prompts} == {"reading", "glyph"}

    page = dana_client.get(QUIZ).content.decode()
    assert "あ" in page and 'name="answer"' in page
    for earlier in prompts[:9]:
        dana_client.post(
            QUIZ, {"action": "answer", "prompt": earlier.pk, "answer": earlier.kana_id}
        )
    nu = prompts[9]
    wrong = next(c for c in nu.choices if c != "nu")
    response = dana_client.post(QUIZ, {"action": "answer", "prompt": nu.pk, "answer": wrong})
    assert response.status_code == 302 and f"last={nu.pk}" in response["Location"]
    page = dana_client.get(response["Location"]).content.decode()
    assert "Not quite: ぬ is nu" in page
    assert "10 of 10 questions answered, 9 right" in page
    event = LearningEvent.objects.get(learner=dana, kind="answer", kana_id="nu")
    assert (event.source, event.correct, event.confused_with) == ("quiz", False, wrong)
    assert KanaMemory.objects.get(learner=dana, kana_id="nu", script="hiragana").errors == 1


def test_quiz_with_htmx_swaps_the_card_and_shows_the_right_answer(dana_client, dana):
    taught(dana)
    dana_client.post(QUIZ, {"action": "start"}, HTTP_HX_REQUEST="true")
    first = Prompt.objects.filter(learner=dana, source="quiz").order_by("id").first()
    response = dana_client.post(
        QUIZ,
        {"action": "answer", "prompt": first.pk, "answer": first.kana_id},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="quiz-card"') and "<html" not in html
    assert "Right:" in html and "1 of 10 questions answered, 1 right" in html


def test_quiz_answers_the_whole_run_then_offers_another(dana_client, dana):
    taught(dana)
    dana_client.post(QUIZ, {"action": "start"})
    for prompt in Prompt.objects.filter(learner=dana, source="quiz").order_by("id"):
        dana_client.post(QUIZ, {"action": "answer", "prompt": prompt.pk, "answer": prompt.kana_id})
    last = Prompt.objects.filter(learner=dana, source="quiz").order_by("id").last()
    page = dana_client.get(f"{QUIZ}?last={last.pk}").content.decode()
    assert "Warm-up done" in page and "Another run" in page
    assert "10 of 10 questions answered, 10 right" in page
    assert LearningEvent.objects.filter(learner=dana, kind="answer", correct=True).count() == 10


def test_quiz_refuses_bad_input_without_changing_anything(dana_client, dana, bob):
    taught(dana)
    dana_client.post(QUIZ, {"action": "start"})
    prompt = Prompt.objects.filter(learner=dana).first()
    assert dana_client.post(QUIZ, {"action": "dance"}).status_code == 400
    assert dana_client.post(QUIZ, {"action": "answer", "prompt": "x"}).status_code == 400
    assert (
        dana_client.post(
            QUIZ, {"action": "answer", "prompt": prompt.pk, "answer": "zz"}
        ).status_code
        == 400
    )
    play_observed(
        user=bob,
        table_id=5,
        move_id=1,
        shown=[],
        entered_hand=[("a", "hiragana")],
        prompt_mode="every",
    )
    bobs = Prompt.objects.get(learner=bob)
    assert (
        dana_client.post(QUIZ, {"action": "answer", "prompt": bobs.pk, "answer": "a"}).status_code
        == 404
    )
    assert not LearningEvent.objects.filter(kind="answer").exists()


def test_board_prompt_answer_without_js_redirects_back_with_feedback(dana_client, dana):
    play_observed(
        user=dana,
        table_id=42,
        move_id=3,
        shown=[],
        entered_hand=[("so", "katakana")],
        prompt_mode="every",
    )
    prompt = Prompt.objects.get(learner=dana)
    url = reverse("learn:prompt_answer", args=[prompt.pk])
    response = dana_client.post(url, {"answer": "so", "next": "/play/tables/42/", "table_id": "42"})
    assert response.status_code == 302 and response["Location"] == "/play/tables/42/"
    page = dana_client.get(reverse("learn:dashboard")).content.decode()
    assert "Right: ソ is so" in page
    # an outside redirect target is ignored
    play_observed(
        user=dana,
        table_id=42,
        move_id=4,
        shown=[],
        entered_hand=[("n", "katakana")],
        prompt_mode="every",
    )
    second = Prompt.objects.get(learner=dana, status="open")
    response = dana_client.post(
        reverse("learn:prompt_answer", args=[second.pk]),
        {"answer": "n", "next": "https://evil.example/"},
    )
    assert response["Location"] == reverse("learn:dashboard")


def test_board_prompt_answer_with_htmx_returns_the_partial_with_the_next_question(
    dana_client, dana
):
    play_observed(
        user=dana,
        table_id=42,
        move_id=3,
        shown=[],
        entered_hand=[("shi", "katakana"), ("tsu", "katakana")],
        prompt_mode="every",
    )
    first, second = Prompt.objects.filter(learner=dana).order_by("id")
    response = dana_client.post(
        reverse("learn:prompt_answer", args=[first.pk]),
        {"answer": "tsu" if first.kana_id == "shi" else "shi", "table_id": "42"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200 and '<section id="table-prompts"' in html
    assert "Not quite" in html
    assert reverse("learn:prompt_answer", args=[second.pk]) in html
    # answering the same prompt again: 409, and the partial says why
    again = dana_client.post(
        reverse("learn:prompt_answer", args=[first.pk]),
        {"answer": "shi", "table_id": "42"},
        HTTP_HX_REQUEST="true",
    )
    assert again.status_code == 409 and "already answered" in again.content.decode()


def test_the_partial_renders_inside_any_page_with_only_prompts_in_context(rf, dana):
    from django.template.loader import render_to_string

    from learning.services.play import prompts_pending

    play_observed(
        user=dana,
        table_id=8,
        move_id=1,
        shown=[],
        entered_hand=[("me", "hiragana")],
        prompt_mode="every",
    )
    request = rf.get("/play/tables/8/")
    request.user = dana
    html = render_to_string(
        "learn/partials/table_prompts.html",
        {"prompts": prompts_pending(user=dana, table_id=8)},
        request=request,
    )
    assert "め" in html and 'name="next" value="/play/tables/8/"' in html
    assert len(re.findall(r'name="answer" value="', html)) == 4
    assert 'name="table_id" value="8"' in html


def test_a_typed_recall_question_has_a_box_to_type_the_reading_in(dana_client, dana):
    """A kana answered right before is asked as typed recall: the warm-up card showed the
    kana with neither buttons nor a box, and the learner could not answer (journey (c))."""
    from learning.services.memory import memory_review

    memory_review(learner=dana, kana_id="ka", script="hiragana", correct=True,
                  response_ms=3000, source="quiz", at=timezone.now() - timedelta(days=4),
                  confused_with="")  # fmt: skip
    dana_client.post(QUIZ, {"action": "start"})
    typed = Prompt.objects.get(learner=dana, source="quiz", kind="typed")
    for earlier in Prompt.objects.filter(learner=dana, source="quiz", pk__lt=typed.pk):
        dana_client.post(QUIZ, {"action": "answer", "prompt": earlier.pk, "answer": "x"})
    page = dana_client.get(QUIZ).content.decode()
    card = page.split('id="quiz-card"', 1)[1].split("</section>", 1)[0]
    assert f'name="prompt" value="{typed.pk}"' in card and "か" in card
    box = re.search(r'<input id="([^"]+)" name="answer"[^>]*>', card)
    assert box and "required" in box.group(0)
    assert f'<label for="{box.group(1)}">Reading in romaji</label>' in card
    response = dana_client.post(
        QUIZ, {"action": "answer", "prompt": typed.pk, "answer": " KA "}, HTTP_HX_REQUEST="true"
    )
    assert "Right: か is ka." in response.content.decode()


def test_a_question_names_its_script_as_the_games_label_it(dana_client, dana):
    """ "(katakana)" in the legend read as an option id put in parentheses; the script is named
    by its label ("Katakana", as on the game forms and the dashboards)."""
    taught(dana, 3, script="katakana")
    dana_client.post(QUIZ, {"action": "start"})
    legend = re.search(r"<legend>(.*?)</legend>", dana_client.get(QUIZ).content.decode(), re.S)
    assert '<span class="quiz-script">(Katakana)</span>' in legend.group(1)


def test_the_quiz_leaves_out_kana_answered_right_recently_and_counts_what_is_pending():
    """Issue 27: a kana answered right less than srs.RECENT_RIGHT ago is not asked again in
    the session, even when fsrs' learning step makes it due (a recall near 1 teaches next to
    nothing); due kana and kana last answered wrong are pending (the lesson waits for them)."""
    from datetime import UTC, datetime, timedelta
    from types import SimpleNamespace

    from learning import srs
    from learning.services.quiz import quiz_order, quiz_pending

    now = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)

    def cell(kana, state, last_correct, ago, weak=False):
        return SimpleNamespace(
            kana_id=kana, script="hiragana", state=state, due=now - timedelta(minutes=1),
            weak=weak, retrievability=0.9, introduced_at=None, last_correct=last_correct,
            last_review=now - ago if ago is not None else None,
        )  # fmt: skip

    cells = [
        cell("a", "due", True, timedelta(minutes=10)),  # learning step due, just answered right
        cell("i", "due", True, srs.RECENT_RIGHT + timedelta(hours=1)),
        cell("u", "learning", False, timedelta(minutes=5), weak=True),  # failed: asked again
        cell("e", "learning", True, timedelta(hours=20)),
    ]
    assert [c.kana_id for c in quiz_order(cells, now=now)] == ["i", "u", "e"]
    assert [c.kana_id for c in quiz_order(cells)] == ["a", "i", "u", "e"]  # no time: all
    assert quiz_pending(cells, now) == 2  # i (due) and u (wrong)
