"""A lesson that keeps to the day's minutes (issue 27, session 14): for a learner whose daily
goal is in minutes, a new lesson starts only when the pending kana's answers and the lesson fit
in a day's warm-up, and pending kana hold it back for as many days as the warm-up needs. Tried
and not adopted (``LESSON_BUDGET`` off: the product's lesson is unchanged); the rule is kept,
tested here, for bench/srs_sim.py and bench/srs_lesson_budget.py."""

from datetime import UTC, datetime, timedelta

import pytest

from games.models import Table, TableStatus
from learning.models import DailySession, KanaMemory, LearnerSettings
from learning.models.memory import DailyGoalKind
from learning.services import lesson as lesson_service
from learning.services.lesson import (
    LESSON_ANSWER_SECONDS,
    LESSON_CARD_SECONDS,
    LESSON_MAX_WAIT_DAYS,
    LESSON_PENDING_MAX,
    LESSON_SIZE,
    lesson_fits,
    lesson_plan,
)
from learning.services.warmup import DAILY_GAME_MINUTES, warmup_seconds, warmup_seconds_for

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
POOL = [(k, "hiragana") for k in ("a", "i", "u", "e", "o", "ka", "ki", "ku", "ke", "ko")]
LESSON = LESSON_SIZE * (LESSON_CARD_SECONDS + LESSON_ANSWER_SECONDS)  # 90 s


def test_the_warm_up_has_the_goals_minutes_less_the_daily_games():
    assert warmup_seconds(goal_minutes=None, game_minutes=3.0) is None  # a goal in reviews
    assert warmup_seconds(goal_minutes=10, game_minutes=None) == (10 - DAILY_GAME_MINUTES) * 60
    assert warmup_seconds(goal_minutes=10, game_minutes=8.0) == 120.0
    assert warmup_seconds(goal_minutes=5, game_minutes=8.0) == 0.0  # never below nothing


def test_a_lesson_fits_when_the_pending_answers_and_the_lesson_fit_in_a_warm_up():
    assert LESSON == 90.0
    # 2 minutes of warm-up (6 min a day, 4 of play): 3 pending kana and the lesson fit, 4 not
    assert lesson_fits(pending=3, size=LESSON_SIZE, review_seconds=120.0)
    assert not lesson_fits(pending=4, size=LESSON_SIZE, review_seconds=120.0)
    # nothing pending: a lesson always fits, however short the warm-up (a newcomer's start)
    assert lesson_fits(pending=0, size=LESSON_SIZE, review_seconds=0.0)
    assert not lesson_fits(pending=1, size=LESSON_SIZE, review_seconds=0.0)
    # held back by 70 pending kana (650 s): it comes once that many warm-ups could answer them
    assert not lesson_fits(pending=70, size=LESSON_SIZE, review_seconds=120.0, days=5)
    assert lesson_fits(pending=70, size=LESSON_SIZE, review_seconds=120.0, days=6)
    # 6 minutes of warm-up: two days are enough, as before the rule
    assert lesson_fits(pending=50, size=LESSON_SIZE, review_seconds=360.0, days=2)
    # a slower answer counted: the same load no longer fits
    assert not lesson_fits(pending=3, size=LESSON_SIZE, review_seconds=120.0, answer_seconds=12)


def test_the_lesson_plan_keeps_to_the_days_minutes_only_when_they_are_known():
    short, long = 120.0, 660.0  # 6 and 15 minutes a day with 4 of play
    pending = LESSON_PENDING_MAX - 1  # the rule before: a lesson may start

    def plan(**kwargs):
        return lesson_plan(met=set(), taught_today=0, pool=POOL, **kwargs)

    assert len(plan(pending=pending)) == LESSON_SIZE
    assert len(plan(pending=pending, review_seconds=None)) == LESSON_SIZE  # a goal in reviews
    assert plan(pending=pending, review_seconds=short) == []  # 4 × 8 s + 90 s > 120 s
    assert len(plan(pending=pending, review_seconds=long)) == LESSON_SIZE
    assert len(plan(pending=0, review_seconds=0.0)) == LESSON_SIZE
    # a lesson under way goes on whatever is pending
    under_way = lesson_plan(met=set(), taught_today=2, pool=POOL, pending=80, review_seconds=0.0)
    assert len(under_way) == LESSON_SIZE - 2
    # the pending kana's hold: one day before the rule, as long as the warm-up needs with it
    late = LESSON_MAX_WAIT_DAYS + 1
    assert len(plan(pending=70, days_since_lesson=late)) == LESSON_SIZE
    assert plan(pending=70, days_since_lesson=late, review_seconds=short) == []
    assert len(plan(pending=70, days_since_lesson=6, review_seconds=short)) == LESSON_SIZE
    assert len(plan(pending=70, days_since_lesson=late, review_seconds=long)) == LESSON_SIZE
    # ... and never less than LESSON_MAX_WAIT_DAYS, however long the warm-up
    assert plan(pending=70, days_since_lesson=LESSON_MAX_WAIT_DAYS, review_seconds=1e6) == []
    # another lesson the same day: it must fit too, and the pending limit still holds
    assert plan(pending=0, review_seconds=short) != []
    again = lesson_plan(met=set(), taught_today=5, pool=POOL, pending=4, review_seconds=short)
    assert again == []
    assert lesson_plan(met=set(), taught_today=5, pool=POOL, pending=5, review_seconds=1e6) == []


@pytest.mark.django_db
def test_the_review_seconds_come_from_the_goal_and_the_last_daily_games_length(dana):
    assert warmup_seconds_for(learner=dana) is None  # no settings: reviews
    settings = LearnerSettings.objects.create(
        learner=dana, goal_kind=DailyGoalKind.REVIEWS, goal_value=30
    )
    assert warmup_seconds_for(learner=dana) is None
    settings.goal_kind, settings.goal_value = DailyGoalKind.MINUTES, 10
    settings.save()
    assert warmup_seconds_for(learner=dana) == (10 - DAILY_GAME_MINUTES) * 60
    # the last finished daily game took 8 minutes: 2 are left for the warm-up
    for days_ago, minutes in ((3, 1), (1, 8)):
        start = NOW - timedelta(days=days_ago)
        table = Table.objects.create(
            engine="kazoku-families", players=4, status=TableStatus.FINISHED,
            started_at=start, finished_at=start + timedelta(minutes=minutes),
        )  # fmt: skip
        DailySession.objects.create(
            learner=dana, day=start.date(), started_at=start, table_id=table.pk
        )
    other = Table.objects.create(  # not a daily game: not counted
        engine="kazoku-families", players=4, status=TableStatus.FINISHED,
        started_at=NOW, finished_at=NOW + timedelta(minutes=30),
    )  # fmt: skip
    assert other.pk
    assert warmup_seconds_for(learner=dana) == pytest.approx(120.0)


@pytest.mark.django_db
def test_a_learner_with_a_short_goal_in_minutes_gets_no_lesson_the_warm_up_cannot_review(
    dana, monkeypatch
):
    for kana in ("a", "i", "u", "e"):  # four pending: due since yesterday
        KanaMemory.objects.create(
            learner=dana, kana_id=kana, script="hiragana", reps=1, last_correct=True,
            last_review=NOW - timedelta(days=3), due=NOW - timedelta(days=1), stability=2.0,
            card={},
        )  # fmt: skip
    assert len(lesson_service.lesson_kana_for(learner=dana, now=NOW)) == LESSON_SIZE
    LearnerSettings.objects.create(learner=dana, goal_kind=DailyGoalKind.MINUTES, goal_value=6)
    # the product: the switch is off, the lesson is what it was (not adopted)
    assert not lesson_service.LESSON_BUDGET
    assert len(lesson_service.lesson_kana_for(learner=dana, now=NOW)) == LESSON_SIZE
    monkeypatch.setattr(lesson_service, "LESSON_BUDGET", True)
    assert lesson_service.lesson_kana_for(learner=dana, now=NOW) == []  # 2 minutes of warm-up
    LearnerSettings.objects.filter(learner=dana).update(goal_value=15)
    assert len(lesson_service.lesson_kana_for(learner=dana, now=NOW)) == LESSON_SIZE
