"""Demo data for the teacher's pages: an assignment, a little history (seed_demo calls this).

Idempotent: the history (katakana answers, with the confusions learners really make; the
learning demo gives hiragana) is only added to students without katakana answers, the assignments
only when the demo class has none, and the summaries are recomputed (same rows twice).
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from learning.classroom.models import Assignment, Classroom
from learning.classroom.services.summaries import summaries_refresh_classes
from learning.models import LearningEvent
from learning.services.memory import memory_review

DEMO_CLASS_NAME = "Demo class"
# Per demo student: how often they are wrong, and what they read the kana as when wrong.
PROFILES = (0.1, 0.2, 0.45, 0.15, 0.3)
KATAKANA = ("a", "i", "u", "e", "o", "ka", "ki", "ku", "ke", "ko", "sa", "shi", "su", "se",
            "so", "ta", "chi", "tsu", "te", "to", "n")  # fmt: skip
CONFUSIONS = {"so": "n", "n": "so", "shi": "tsu", "tsu": "shi", "ku": "ta", "ta": "ku",
              "chi": "te", "u": "wa", "su": "nu", "ko": "yu"}  # fmt: skip


def _history(student, error_rate: float, rng: random.Random, now) -> int:
    answers = 0
    for day in range(14, 0, -1):
        if rng.random() < 0.3:
            continue
        for _ in range(rng.randint(4, 10)):
            kana_id = rng.choice(KATAKANA)
            correct = rng.random() > error_rate
            memory_review(
                learner=student, kana_id=kana_id, script="katakana", correct=correct,
                response_ms=rng.randint(900, 7000), source="prompt",
                confused_with="" if correct else CONFUSIONS.get(kana_id, rng.choice(KATAKANA)),
                at=now - timedelta(days=day, minutes=rng.randint(0, 600)),
                answer_kind="reading", choices=4,  # four readings to choose from
            )  # fmt: skip
            answers += 1
    return answers


def seed_demo_classroom(stdout) -> None:
    classroom = Classroom.objects.filter(name=DEMO_CLASS_NAME).order_by("id").first()
    if classroom is None:
        stdout.write("classroom demo: no demo class, nothing to do")
        return
    now = timezone.now()
    if not Assignment.objects.filter(classroom=classroom).exists():
        Assignment.objects.create(
            classroom=classroom, title="Katakana week", engine="recommended", script="katakana",
            due_at=now + timedelta(days=6), goal_kind="reviews", goal_value=40,
        )  # fmt: skip
        Assignment.objects.create(
            classroom=classroom, title="Three games of kana families",
            engine="kazoku-families", options={"variant": "kana", "script": "hiragana"},
            script="hiragana", due_at=now + timedelta(days=10), goal_kind="games", goal_value=3,
        )  # fmt: skip
    rng = random.Random(7)
    students = [m.student for m in classroom.memberships.select_related("student").order_by(
        "student__username")]  # fmt: skip
    added = 0
    for student, error_rate in zip(students, PROFILES, strict=False):
        katakana = LearningEvent.objects.filter(learner=student, kind="answer", script="katakana")
        if not katakana.exists():
            added += _history(student, error_rate, rng, now)
    summaries_refresh_classes(classroom_ids=[classroom.pk], now=now)
    stdout.write(f"classroom demo: {added} answers added; teacher dashboard at /teach/")
