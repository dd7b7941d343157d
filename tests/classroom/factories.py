"""Building history for dashboard tests: answers, kana memory, finished games."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import Seat, Table, TableStatus
from learning.models import KanaMemory, LearningEvent


def answer(learner, kana_id, *, script="katakana", correct=True, confused_with="", at=None):
    return LearningEvent.objects.create(
        learner=learner,
        kana_id=kana_id,
        script=script,
        kind="answer",
        correct=correct,
        confused_with="" if correct else confused_with,
        response_ms=1500,
        source="prompt",
        created_at=at or timezone.now() - timedelta(hours=1),
    )


def memory(learner, kana_id, *, script="katakana", state="learning", errors=0, reps=3, now=None):
    """A KanaMemory row in the given mastery state (see learning/srs.py state_of)."""
    now = now or timezone.now()
    due, stability = {
        "due": (now - timedelta(hours=1), 2.0),
        "learning": (now + timedelta(days=2), 3.0),
        "mastered": (now + timedelta(days=40), 40.0),
    }[state]
    return KanaMemory.objects.create(
        learner=learner, kana_id=kana_id, script=script, due=due, stability=stability,
        reps=reps, errors=errors, last_review=now - timedelta(days=1),
    )  # fmt: skip


def game(
    players,
    *,
    started: datetime,
    minutes: int = 10,
    finished: bool = True,
    engine: str = "kazoku-families",
    options: dict | None = None,
    classroom=None,
    assignment=None,
):
    table = Table.objects.create(
        engine=engine,
        options=options or {"variant": "kana", "script": "hiragana"},
        players=len(players) + 1,
        status=TableStatus.FINISHED if finished else TableStatus.PLAYING,
        created_by=players[0],
        classroom=classroom,
        assignment=assignment,
        started_at=started,
        finished_at=started + timedelta(minutes=minutes) if finished else None,
        version=20,
    )
    for index, user in enumerate(players):
        Seat.objects.create(
            table=table, index=index, user=user, joined_at=started,
            last_seen_at=started + timedelta(minutes=minutes),
        )  # fmt: skip
    Seat.objects.create(table=table, index=len(players), bot_level="normal")
    return table
