"""A move and its CPU replies open their prompts with one read of the memories, one of the
confusions and one INSERT (issue 28: the move's statements once prompts expire unanswered),
and the prompts are the ones each step would have opened on its own, in the same order."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from learning.models import KanaMemory, LearningEvent, Prompt
from learning.services.play import SeenStep, _prompts_make, _prompts_make_many, plays_observed

pytestmark = pytest.mark.django_db

ASKS = [
    ([("ka", "hiragana"), ("ki", "hiragana"), ("shi", "katakana")], 7, None),
    ([("tsu", "katakana"), ("ka", "hiragana")], 8, None),
    ([("n", "hiragana")], 9, "glyph"),
]


def _history(learner, t0) -> None:
    """Memories of every kind (new, learned) and confusions between シ and ツ."""
    plays_observed(
        user=learner,
        table_id=99,
        prompt_mode="off",
        steps=[SeenStep(move_id=0, entered_hand=(("ka", "hiragana"), ("shi", "katakana")))],
        at=t0 - timedelta(days=3),
    )
    KanaMemory.objects.filter(learner=learner, kana_id="ka").update(stability=30.0, reps=4)
    for kana, other in (("shi", "tsu"), ("tsu", "shi"), ("shi", "tsu")):
        LearningEvent.objects.create(
            learner=learner, kana_id=kana, script="katakana", kind="answer", correct=False,
            confused_with=other, source="quiz", created_at=t0 - timedelta(days=1),
        )  # fmt: skip


def _made(learner) -> list[tuple]:
    return list(
        Prompt.objects.filter(learner=learner, table_id=11)
        .order_by("id")
        .values_list("move_id", "kind", "kana_id", "script", "choices", "expires_at")
    )


@pytest.mark.parametrize("room", [10, 4, 2])
def test_the_same_prompts_as_one_call_per_step(dana, t0, room):
    _history(dana, t0)
    left = room
    for pairs, move_id, kind in ASKS:  # the calls as plays_observed made them before
        if left <= 0:
            break
        left -= len(
            _prompts_make(
                learner=dana, pairs=pairs, mode="new", table_id=11, move_id=move_id, at=t0,
                kind=kind, room=left,
            )
        )  # fmt: skip
    one_by_one = _made(dana)
    Prompt.objects.filter(learner=dana).delete()

    _prompts_make_many(learner=dana, asks=ASKS, mode="new", table_id=11, at=t0, room=room)
    assert _made(dana) == one_by_one
    assert len(one_by_one) == min(room, 6)
    shi = next(p for p in one_by_one if p[2] == "shi")
    assert "tsu" in shi[4]  # the confusion with ツ, read for all the steps at once


def test_a_move_and_its_replies_open_their_prompts_in_three_statements(dana, t0):
    _history(dana, t0)
    steps = [
        SeenStep(move_id=7, entered_hand=(("ki", "hiragana"), ("shi", "katakana"))),
        SeenStep(move_id=8, entered_hand=(("tsu", "katakana"),)),
    ]
    with CaptureQueriesContext(connection) as queries:
        plays_observed(user=dana, table_id=11, prompt_mode="new", steps=steps, at=t0)
    statements = [q["sql"] for q in queries.captured_queries]
    memory_reads = [s for s in statements if s.startswith("SELECT") and "kanamemory" in s]
    confusion_reads = [s for s in statements if "confused_with" in s and s.startswith("SELECT")]
    prompt_inserts = [s for s in statements if s.startswith('INSERT INTO "learning_prompt"')]
    assert (len(memory_reads), len(confusion_reads), len(prompt_inserts)) == (1, 1, 1)
    assert [p[:3] for p in _made(dana)] == [
        (7, "reading", "ki"), (7, "reading", "shi"), (8, "reading", "tsu")
    ]  # fmt: skip
