"""How long a learner's daily warm-up is: the lessons and quiz runs before the daily game.

For a learner whose daily goal is in minutes, the warm-up has the goal's minutes less the
daily game's (the last finished daily game's own length; ``DAILY_GAME_MINUTES`` before the
first). Two rules read it (issue 27): the quiz's order under a backlog (``quiz.quiz_order``:
when far more kana are due than the warm-up can answer, those still likely remembered come
first) and the lesson's budget (``lesson.lesson_fits``, tried and off). A goal in reviews has
no minutes: both rules then stand aside.

The costs are the simulation's estimates (bench/srs_sim.py): a warm-up answer 8 s (a typed
one; a pick takes 5, a drawing 12).
"""

from __future__ import annotations

from games.models import Table, TableStatus
from learning.models import DailySession, LearnerSettings
from learning.models.memory import DailyGoalKind

ANSWER_SECONDS = 8.0  # a warm-up answer, as the rules count it
# the daily game's minutes when the learner has not finished one yet (the daily session the
# project measures: 10 minutes, 4 of them play); else the last daily game's own length
DAILY_GAME_MINUTES = 4.0


def warmup_seconds(*, goal_minutes: float | None, game_minutes: float | None) -> float | None:
    """Pure: the seconds a day the learner's warm-up has: the daily goal's minutes less the
    daily game's (``game_minutes``: the last daily game's length; None: ``DAILY_GAME_MINUTES``).
    None when the goal is not in minutes."""
    if goal_minutes is None:
        return None
    game = DAILY_GAME_MINUTES if game_minutes is None else game_minutes
    return max(0.0, goal_minutes - game) * 60.0


def warmup_seconds_for(*, learner) -> float | None:
    """The seconds a day the learner's warm-up has (``warmup_seconds``): the daily goal's
    minutes less the last finished daily game's length; None when the goal is in reviews.
    Two queries at most."""
    goal = (
        LearnerSettings.objects.filter(learner=learner)
        .values_list("goal_kind", "goal_value")
        .first()
    )
    if goal is None or goal[0] != DailyGoalKind.MINUTES:
        return None
    tables = DailySession.objects.filter(learner=learner, table_id__isnull=False).values("table_id")
    last = (
        Table.objects.filter(
            pk__in=tables,
            status=TableStatus.FINISHED,
            started_at__isnull=False,
            finished_at__isnull=False,
        )
        .order_by("-finished_at")
        .values_list("started_at", "finished_at")
        .first()
    )
    game = (last[1] - last[0]).total_seconds() / 60.0 if last else None
    return warmup_seconds(goal_minutes=goal[1], game_minutes=game)
