"""Issue 24, MEDIUM 2: nothing about a table still being played reaches a teacher (or anyone
but the player at the board) until it ends.

A real deal through the games service (Kazoku families, the word game, Koi-Koi) records the
learner's hand as exposures and opens prompts about it; an in-play answer records an answer
event. The teacher's download of the student's data, the CSV exports, the dashboard, the
student's page and the per-kana pages must read the same before the deal and during the game,
and the game's rows appear once it ends.
"""

import json
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from factories import game

from games.models import Table, TableStatus
from games.services import tables as games_tables
from learning import kana_table
from learning.classroom.models import ConfusionSummary, LearnerActivity
from learning.classroom.selectors import class_kana_detail
from learning.classroom.services.summaries import summaries_refresh
from learning.models import LearningEvent, Prompt
from learning.selectors import answers_count_for, confusions_for, reviews_per_day_for
from learning.services.play import prompt_answer

GAMES = {
    "kazoku-families": {"variant": "kana", "script": "hiragana"},
    "kazoku-words": {"script": "hiragana"},
    "koikoi": {"rounds": "3"},
}
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"|"X-CSRFToken": "[^"]+"')
HELD_BACK = ("learning.KanaMemory", "learning.CardSighting")


def _live_table(user, engine: str, capture) -> Table:
    seats = [{"kind": "human", "user": user}, {"kind": "bot", "level": "easy"}]
    with capture(execute=True):
        table = games_tables.table_create(
            user=user, engine=engine, options={**GAMES[engine], "prompts": "every"}, seats=seats
        )
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING
    return table


def _data(client, classroom, student) -> dict:
    url = reverse("teach_student_data", args=[classroom.pk, student.pk])
    response = client.get(url)
    assert response.status_code == 200
    data = json.loads(response.content)
    data.pop("generated_at")
    return data


def _pages(client, classroom, student, kana: list[tuple[str, str]]) -> dict[str, str]:
    urls = [
        reverse("teach_class", args=[classroom.pk]) + "?script=hiragana",
        reverse("teach_class", args=[classroom.pk]) + "?script=katakana",
        reverse("teach_student", args=[classroom.pk, student.pk]),
        reverse("teach_export_progress", args=[classroom.pk]),
        reverse("teach_export_assignments", args=[classroom.pk]),
    ]
    urls += [reverse("teach_kana", args=[classroom.pk, s, k]) for k, s in kana]
    pages = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        body = (
            b"".join(response.streaming_content) if response.streaming else response.content
        ).decode()
        pages[url] = CSRF.sub("", body)
    return pages


def _answer_one_prompt_wrongly(student, table) -> Prompt:
    prompt = Prompt.objects.filter(learner=student, table_id=table.pk, status="open").first()
    assert prompt is not None, "the deal opened no prompt"
    wrong = next((c for c in prompt.choices if c != prompt.kana_id), "zz")
    prompt_answer(user=student, prompt_id=prompt.pk, answer=wrong, at=timezone.now())
    return prompt


def _finish(table) -> None:
    Table.objects.filter(pk=table.pk).update(
        status=TableStatus.FINISHED, finished_at=timezone.now()
    )


@pytest.mark.parametrize("engine", list(GAMES))
def test_the_teachers_download_waits_for_the_end_of_the_game(
    engine, as_alice, alice_class, bob, django_capture_on_commit_callbacks
):
    before = _data(as_alice, alice_class, bob)
    table = _live_table(bob, engine, django_capture_on_commit_callbacks)
    hand_events = LearningEvent.objects.filter(learner=bob, table_id=table.pk)
    assert hand_events.filter(kind="exposure").exists()
    _answer_one_prompt_wrongly(bob, table)
    assert hand_events.filter(kind="answer").exists()

    during = _data(as_alice, alice_class, bob)
    for label in HELD_BACK:  # held back whole while a game is in play: nothing to diff
        assert during["records"][label] == before["records"][label] or isinstance(
            during["records"][label], str
        )
        during["records"].pop(label), before["records"].pop(label)
    assert during == before
    text = json.dumps(during)
    assert f'"table_id": {table.pk}' not in text and f'"table": {table.pk}' not in text

    _finish(table)
    after = _data(as_alice, alice_class, bob)
    events = after["records"]["learning.LearningEvent"]
    assert {e["table_id"] for e in events} == {table.pk}
    assert not isinstance(after["records"]["learning.KanaMemory"], str)


def _hiragana() -> list[tuple[str, str]]:
    return sorted(key for key in kana_table.catalog() if key[1] == "hiragana")


@pytest.mark.parametrize("engine", list(GAMES))
def test_teacher_pages_and_exports_read_the_same_after_the_deal(
    engine, as_alice, alice_class, bob, django_capture_on_commit_callbacks
):
    """The deal records the hand (exposures) and opens prompts about it: byte-identical pages."""
    kana = _hiragana() if engine == "kazoku-families" else [("ka", "hiragana")]
    game([bob], started=timezone.now() - timedelta(days=2))  # the games list is not empty
    before = _pages(as_alice, alice_class, bob, kana)
    table = _live_table(bob, engine, django_capture_on_commit_callbacks)
    assert Prompt.objects.filter(learner=bob, table_id=table.pk, status="open").exists()
    during = _pages(as_alice, alice_class, bob, kana)
    # The student's games list names the table being played (as the live page does: who
    # plays is no secret, and its link opens the spectator's view); nothing else moves.
    listed = re.compile(rf'<li><a href="/play/t/{table.code}/">[^\n]*?</li>')
    for url, body in before.items():
        assert listed.sub("", during[url]) == body, url


@pytest.mark.parametrize("engine", list(GAMES))
def test_an_in_play_mistake_shows_nowhere_until_the_end(
    engine, as_alice, alice_class, bob, django_capture_on_commit_callbacks
):
    table = _live_table(bob, engine, django_capture_on_commit_callbacks)
    prompt = _answer_one_prompt_wrongly(bob, table)
    assert LearningEvent.objects.confusions().filter(learner=bob).exists()
    now = timezone.now()

    def shown() -> dict:
        summaries_refresh(learner_ids=[bob.pk], now=now)
        detail = class_kana_detail(classroom=alice_class, kana_id=prompt.kana_id,
                                   script=prompt.script)  # fmt: skip
        return {
            "confusions": confusions_for(learner=bob),
            "summaries": ConfusionSummary.objects.filter(learner=bob).count(),
            "read_as": detail.read_as,
            "answers": answers_count_for(learner=bob, since=now - timedelta(days=1)),
            "history": sum(day.reviews for day in reviews_per_day_for(learner=bob, now=now)),
            "activity": LearnerActivity.objects.get(learner=bob).answers_total,
        }

    assert shown() == {"confusions": [], "summaries": 0, "read_as": [], "answers": 0,
                       "history": 0, "activity": 0}  # fmt: skip
    _finish(table)
    after = shown()
    assert after["confusions"] and after["summaries"] == 1 and after["read_as"]
    assert after["answers"] == after["history"] == after["activity"] == 1
