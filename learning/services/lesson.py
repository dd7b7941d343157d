"""The lesson: new kana are introduced (reading, sound, stroke order) before they are asked.

Issue 27: a new kana is first shown on a lesson card with its reading, a listen button and
its stroke order (KanjiVG), then recalled within the session (the warm-up quiz asks the kana
taught today first among the never-asked ones) and again on the next days (FSRS). A
newcomer's first step is this lesson, not a quiz on kana never seen.

A day's lesson is at most ``LESSON_SIZE`` kana, taken in ``syllabus.introduction_order``
(basic kana first, the two scripts interleaved, the script behind first) among the kana of
the learner's syllabus never taught and never answered. Seeing a card is recorded as
``KanaMemory.introduced_at`` and an ``exposure`` event of source ``lesson``: it is a study,
not an answer, so FSRS is not touched and no prediction is scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from learning import kana_table, syllabus
from learning.models import KanaMemory, LearningEvent
from learning.services.syllabus import scripts_for

LESSON_SIZE = 5  # new kana taught a day: the syllabus (2 x 46 basic kana) in 19 days


class LessonError(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _day_start(now: datetime) -> datetime:
    return datetime.combine(now.date(), datetime.min.time(), tzinfo=now.tzinfo)


def lesson_plan(
    *,
    met: set[tuple[str, str]],
    taught_today: int,
    pool: Sequence[tuple[str, str]],
    waiting: int = 0,
    size: int = LESSON_SIZE,
) -> list[tuple[str, str]]:
    """Pure: the kana still to teach today. ``met``: kana already taught or answered;
    ``taught_today``: how many lesson cards were seen today; ``pool``: the syllabus
    (``syllabus.syllabus``; bench/srs_sim.py passes its own 90 kana); ``waiting``: kana
    taught on an earlier day and never asked since. Nothing new while some wait: they are
    recalled first (the warm-up asks them before anything else)."""
    room = size - taught_today
    if room <= 0 or waiting:
        return []
    pending = [pair for pair in pool if pair not in met]
    never: dict[str, int] = {script: 0 for _kana, script in pool}
    for _kana, script in pending:
        never[script] += 1
    return syllabus.introduction_order(pending, never)[:room]


def lesson_kana_for(*, learner, now: datetime | None = None) -> list[tuple[str, str]]:
    """The kana of today's lesson not seen yet (empty: today's lesson is done, or every kana
    of the syllabus has been met). One query."""
    now = now or timezone.now()
    rows = KanaMemory.objects.filter(learner=learner).values_list(
        "kana_id", "script", "reps", "introduced_at"
    )
    met, today, waiting = set(), 0, 0
    for kana_id, script, reps, introduced_at in rows:
        if reps or introduced_at is not None:
            met.add((kana_id, script))
        if introduced_at is not None and introduced_at >= _day_start(now):
            today += 1
        elif introduced_at is not None and not reps:
            waiting += 1
    pool = syllabus.syllabus(scripts_for(learner))
    return lesson_plan(met=met, taught_today=today, pool=pool, waiting=waiting)


def lesson_taught_today(*, learner, now: datetime | None = None) -> list[tuple[str, str]]:
    """The kana whose lesson card the learner saw today, in that order."""
    now = now or timezone.now()
    return list(
        KanaMemory.objects.filter(learner=learner, introduced_at__gte=_day_start(now))
        .order_by("introduced_at", "id")
        .values_list("kana_id", "script")
    )


def lesson_seen(
    *, learner, kana_id: str, script: str, now: datetime | None = None
) -> tuple[str, str]:
    """The learner has read the lesson card of (kana_id, script), which must be the next one
    of today's lesson (else ``LessonError``: 409 when the lesson moved on, 400 unknown kana).
    Records ``introduced_at`` and an exposure event of source ``lesson``."""
    now = now or timezone.now()
    if (kana_id, script) not in kana_table.catalog():
        raise LessonError(_("There is no such kana."), 400)
    with transaction.atomic():
        upcoming = lesson_kana_for(learner=learner, now=now)
        if not upcoming or upcoming[0] != (kana_id, script):
            raise LessonError(_("This lesson card is no longer the current one."), 409)
        memory, _created = KanaMemory.objects.select_for_update().get_or_create(
            learner=learner, kana_id=kana_id, script=script
        )
        memory.introduced_at = now
        memory.save(update_fields=["introduced_at"])
        LearningEvent.objects.create(
            learner=learner,
            kana_id=kana_id,
            script=script,
            kind="exposure",
            source="lesson",
            created_at=now,
        )
    return (kana_id, script)
