"""``plays_observed`` writes the exposures and reads the open prompts in one statement on
PostgreSQL (three on SQLite), with the same rows and the same prompts either way."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from learning.models import KanaMemory, LearningEvent, Prompt
from learning.services.play import (
    SeenStep,
    _exposures_and_open_prompts,
    _open_prompts,
    exposures_record_steps,
    plays_observed,
)

pytestmark = pytest.mark.django_db


def rows(learner):
    events = sorted(
        LearningEvent.objects.filter(learner=learner).values_list(
            "kana_id", "script", "kind", "source", "table_id", "move_id", "created_at"
        )
    )
    memories = sorted(
        KanaMemory.objects.filter(learner=learner).values_list("kana_id", "script", "exposures")
    )
    return events, memories


def _the_past(dana, t0) -> None:
    """Prompts already open at the table (one expired), and one at another table."""
    plays_observed(
        user=dana,
        table_id=11,
        prompt_mode="every",
        steps=[SeenStep(move_id=0, entered_hand=(("shi", "katakana"), ("a", "hiragana")))],
        at=t0 - timedelta(minutes=5),
    )
    plays_observed(
        user=dana,
        table_id=12,
        prompt_mode="every",
        steps=[SeenStep(move_id=0, entered_hand=(("tsu", "katakana"),))],
        at=t0,
    )


def test_one_round_trip_on_postgresql_same_rows_and_prompts(dana, t0):
    steps = [(1, [("ka", "hiragana"), ("ki", "hiragana")]), (2, [("ka", "hiragana")])]
    _the_past(dana, t0)
    before = list(_open_prompts(learner=dana, table_id=11))
    assert before

    with CaptureQueriesContext(connection) as queries:
        opened = _exposures_and_open_prompts(
            learner=dana, steps=steps, table_id=11, at=t0, read=True
        )
    assert len(queries) == (1 if connection.vendor == "postgresql" else 3)
    assert [p.pk for p in opened] == [p.pk for p in before]
    assert [p.expires_at for p in opened] == [p.expires_at for p in before]
    written = rows(dana)

    # the same past again, then the same steps written statement by statement
    LearningEvent.objects.filter(learner=dana).delete()
    KanaMemory.objects.filter(learner=dana).delete()
    Prompt.objects.filter(learner=dana).delete()
    _the_past(dana, t0)
    exposures_record_steps(learner=dana, steps=steps, table_id=11, at=t0)
    assert rows(dana) == written

    with CaptureQueriesContext(connection) as queries:
        assert (
            _exposures_and_open_prompts(learner=dana, steps=steps, table_id=11, at=t0, read=False)
            is None
        )
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2)
