"""The lesson: new kana are introduced (reading, sound, stroke order) before they are asked.

Issue 27: a new kana is first shown on a lesson card with its reading, a listen button and
its stroke order (KanjiVG), then recalled within the session (the warm-up quiz asks the kana
taught today first among the never-asked ones) and again on the next days (FSRS). A
newcomer's first step is this lesson, not a quiz on kana never seen.

A lesson is ``LESSON_SIZE`` kana, taken in ``syllabus.introduction_order`` (basic kana
first, the two scripts interleaved, the script behind first) among the kana of the learner's
syllabus never taught and never answered. It starts only when nothing is due in the quiz and
nothing taught waits for its first recall (an adaptive lesson: no new kana while due kana
fill the warm-up); with time to spare, another lesson follows, up to ``LESSON_DAY_MAX``
cards a day. A rule that also keeps a new lesson to the warm-up's minutes, for a learner
whose daily goal is in minutes (``lesson_fits``: it starts only when the pending kana's
answers and the lesson fit in them, and waits as many days as they need), was tried in
session 14 of issue 27 and is off (``LESSON_BUDGET``). Seeing a card is recorded as
``KanaMemory.introduced_at`` and an ``exposure`` event of source ``lesson``: it is a study,
not an answer, so FSRS is not touched and no prediction is scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from learning import kana_table, selectors, syllabus
from learning.models import KanaMemory, LearningEvent
from learning.services.quiz import quiz_pending
from learning.services.syllabus import scripts_for
from learning.services.warmup import ANSWER_SECONDS, warmup_seconds_for

LESSON_SIZE = 5  # kana a lesson teaches
# lesson cards seen in a day at most (another lesson when nothing waits or is due: a learner
# with time to spare learns more); tuned on the development seeds (bench/srs_sim.py --tune)
LESSON_DAY_MAX = 30
# a new lesson waits while this many kana already met are pending in the quiz (due, or last
# answered wrong); tuned on the development seeds (bench/srs_sim.py --tune)
LESSON_PENDING_MAX = 5
# ... but for a day at most: when no lesson card was seen the day before either, the day's
# lesson comes whatever is pending (a learner who forgets a lot would otherwise be taught
# almost nothing new: coverage of the syllabus by day 30, issue 27)
LESSON_MAX_WAIT_DAYS = 1
# The lesson's pace tied to the day's minutes (issue 27, session 14), for a learner whose daily
# goal is in minutes: a lesson costs its cards and their first recalls, each kana pending in
# the quiz one answer. Estimates, the simulation's costs (bench/srs_sim.py): a lesson card
# 10 s, a warm-up answer 8 s (a typed one; a pick takes 5, a drawing 12).
LESSON_CARD_SECONDS = 10.0
LESSON_ANSWER_SECONDS = ANSWER_SECONDS
# Off: tried in session 14 and not adopted (docs/bench.md, "Session 14"): on simulated
# learners it gains 1-2 points at 6 minutes a day, none where the loop loses to flashcards,
# and katakana fall further behind for fast forgetters. ``lesson_kana_for`` passes no
# ``review_seconds`` while it is off; bench/srs_sim.py (``Rules.lesson_budget``) and
# bench/srs_lesson_budget.py run the rule above through ``lesson_plan``.
LESSON_BUDGET = False


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
    pending: int = 0,
    day_max: int = LESSON_DAY_MAX,
    pending_max: int = LESSON_PENDING_MAX,
    days_since_lesson: float | None = None,
    review_seconds: float | None = None,
    answer_seconds: float = LESSON_ANSWER_SECONDS,
) -> list[tuple[str, str]]:
    """Pure: the kana still to teach now, a lesson being ``size`` cards. ``met``: kana
    already taught or answered; ``taught_today``: how many lesson cards were seen today;
    ``pool``: the syllabus (``syllabus.syllabus``; bench/srs_sim.py passes its own 90 kana);
    ``waiting``: kana taught and never asked since; ``pending``: answered kana the quiz still
    has to ask now (``quiz.quiz_pending``: due, or last answered wrong);
    ``days_since_lesson``: whole days since the last lesson card was seen (None: never).

    A lesson under way (fewer than ``size`` of its cards seen) goes on. A new one starts only
    when nothing waits and fewer than ``pending_max`` kana are pending — no new kana while
    due kana fill the warm-up
    (issue 27: a short warm-up spent on new kana left the ones already met to be forgotten)
    — and fewer than ``day_max`` cards were seen today: with time to spare after the
    reviews, a learner gets another lesson. The pending kana hold a lesson back for
    ``LESSON_MAX_WAIT_DAYS`` at most: past that, the day's first lesson comes anyway.

    ``review_seconds``: the seconds a day the learner's warm-up has (``warmup.warmup_seconds``; None
    when the daily goal is not in minutes: the rules above alone). With it the lesson keeps
    to those minutes (``lesson_fits``): a new one starts only when the pending kana's answers
    and the lesson fit in a day's warm-up, and the pending kana hold it back for as many days
    as the warm-up needs to answer them and it, not one day."""
    done = taught_today % size
    if done:
        room = size - done
    elif waiting:
        return []
    elif review_seconds is not None and not lesson_fits(
        pending=pending,
        size=size,
        review_seconds=review_seconds,
        days=days_since_lesson if not taught_today and pending >= pending_max else None,
        answer_seconds=answer_seconds,
    ):
        return []
    elif pending >= pending_max and not _overdue(taught_today, days_since_lesson):
        return []
    else:
        room = min(size, day_max - taught_today)
    if room <= 0:
        return []
    pending_kana = [pair for pair in pool if pair not in met]
    never: dict[str, int] = {script: 0 for _kana, script in pool}
    for _kana, script in pending_kana:
        never[script] += 1
    return syllabus.introduction_order(pending_kana, never)[:room]


def lesson_fits(
    *,
    pending: int,
    size: int,
    review_seconds: float,
    days: float | None = None,
    answer_seconds: float = LESSON_ANSWER_SECONDS,
) -> bool:
    """Pure: may a new lesson start, the warm-up having ``review_seconds`` a day? The load is
    the pending kana's answers and the lesson (its cards and their first recalls), each at
    ``answer_seconds`` and ``LESSON_CARD_SECONDS``. ``days`` None: it must fit in today's
    warm-up. ``days``: whole days since the last lesson, when the pending kana hold it back
    and it would come anyway (``LESSON_MAX_WAIT_DAYS``): it comes once that many warm-ups
    could have answered the load. A warm-up shorter than the lesson alone counts as the
    lesson's length (a lesson with nothing pending always fits: a newcomer starts there)."""
    lesson = size * (LESSON_CARD_SECONDS + answer_seconds)
    load = pending * answer_seconds + lesson
    day = max(review_seconds, lesson)
    if days is None:
        return load <= day
    return days * day >= load


def _overdue(taught_today: int, days_since_lesson: float | None) -> bool:
    """No lesson today, and none for more than ``LESSON_MAX_WAIT_DAYS``."""
    return (
        not taught_today
        and days_since_lesson is not None
        and days_since_lesson > LESSON_MAX_WAIT_DAYS
    )


def lesson_kana_for(*, learner, now: datetime | None = None) -> list[tuple[str, str]]:
    """The kana of the lesson under way not seen yet, or of the next one when it may start
    (``lesson_plan``); empty: nothing to teach now. Two queries (the memories, the
    scheduler's settings); with ``LESSON_BUDGET`` on, two more before a new lesson (the daily
    goal, the last daily game: ``warmup.warmup_seconds_for``)."""
    now = now or timezone.now()
    rows = list(KanaMemory.objects.filter(learner=learner))
    met, today, waiting = set(), 0, 0
    for memory in rows:
        if memory.reps or memory.introduced_at is not None:
            met.add((memory.kana_id, memory.script))
        if memory.introduced_at is not None and memory.introduced_at >= _day_start(now):
            today += 1
        if memory.introduced_at is not None and not memory.reps:
            waiting += 1
    last = max((m.introduced_at for m in rows if m.introduced_at is not None), default=None)
    days_since = (now.date() - last.date()).days if last is not None else None
    pending = 0
    if not today % LESSON_SIZE and not waiting and any(memory.reps for memory in rows):
        pending = quiz_pending(
            selectors.kana_cells_for(learner=learner, now=now, memories=rows), now
        )
    pool = syllabus.syllabus(scripts_for(learner))
    starts = not today % LESSON_SIZE and not waiting  # a new lesson, not one under way
    return lesson_plan(
        met=met,
        taught_today=today,
        pool=pool,
        waiting=waiting,
        pending=pending,
        days_since_lesson=days_since,
        review_seconds=warmup_seconds_for(learner=learner) if LESSON_BUDGET and starts else None,
    )


def lesson_syllabus_left(*, learner) -> int:
    """How many kana of the learner's syllabus were never taught nor answered (the lesson
    page tells "held back for now" from "every kana met")."""
    met = {
        (kana_id, script)
        for kana_id, script, reps, introduced in KanaMemory.objects.filter(
            learner=learner
        ).values_list("kana_id", "script", "reps", "introduced_at")
        if reps or introduced is not None
    }
    return sum(1 for pair in syllabus.syllabus(scripts_for(learner)) if pair not in met)


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
