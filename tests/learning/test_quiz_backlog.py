"""The warm-up's order under a backlog (issue 27, session 18): for a learner whose daily goal is
in minutes, when the due kana's answers are more than ``BACKLOG_FACTOR`` warm-ups, the quiz asks
the due kana still likely remembered first; otherwise, and for a goal in reviews, most overdue
first (docs/learning.md, "The warm-up quiz"; docs/bench.md, "Session 18")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from fsrs import Card, State

from learning import srs
from learning.models import KanaMemory, LearnerSettings
from learning.models.memory import DailyGoalKind
from learning.services import quiz as quiz_service
from learning.services.quiz import BACKLOG_FACTOR, backlogged, quiz_order
from learning.services.warmup import ANSWER_SECONDS, DAILY_GAME_MINUTES

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


def test_a_backlog_is_more_due_answers_than_the_factor_times_the_warm_up():
    warmup = 360.0  # a 10-minute goal, 4 of play
    limit = int(BACKLOG_FACTOR * warmup / ANSWER_SECONDS)  # 67 answers at 8 s, 1.5 warm-ups
    assert limit == 67
    assert not backlogged(limit, warmup)
    assert backlogged(limit + 1, warmup)
    assert not backlogged(1000, None)  # a goal in reviews: no minutes, no backlog rule
    assert not backlogged(1000, warmup, factor=None)  # the earlier order (bench: --due-by-date)
    assert backlogged(1, 0.0)  # a goal shorter than the daily game: any due kana are too many


def _cell(kana, *, state="due", due_days_ago=1.0, recall=0.5, introduced=None):
    return SimpleNamespace(
        kana_id=kana, script="hiragana", state=state, weak=False, retrievability=recall,
        due=NOW - timedelta(days=due_days_ago), introduced_at=introduced, last_correct=True,
        last_review=NOW - timedelta(days=5),
    )  # fmt: skip


def test_under_a_backlog_the_due_kana_still_remembered_come_first_and_nothing_else_moves():
    cells = [
        _cell("a", due_days_ago=3, recall=0.2),  # the most overdue, likely lost
        _cell("i", due_days_ago=1, recall=0.8),
        _cell("u", due_days_ago=2, recall=0.5),
        _cell("e", state="learning", recall=0.6),
        _cell("o", state="new", introduced=NOW - timedelta(minutes=3)),  # taught: first
    ]
    order = [c.kana_id for c in quiz_order(cells, now=NOW, seconds=360.0)]
    assert order == ["o", "a", "u", "i", "e"]  # 3 due: no backlog, most overdue first
    assert [c.kana_id for c in quiz_order(cells, now=NOW)] == order  # no minutes: the same
    # a 1-minute warm-up holds 7.5 answers, the factor 11.25: 3 due are not a backlog ...
    assert [c.kana_id for c in quiz_order(cells, now=NOW, seconds=60.0)] == order
    # ... a 10-second one is: highest retrievability first; the taught kana and the rest stay
    short = [c.kana_id for c in quiz_order(cells, now=NOW, seconds=10.0)]
    assert short == ["o", "i", "u", "a", "e"]
    assert [c.kana_id for c in quiz_order(cells, now=NOW, seconds=10.0, factor=None)] == order
    # equal retrievability under a backlog: most overdue first (a stable sort)
    ties = [_cell("ka", due_days_ago=1), _cell("ki", due_days_ago=4), _cell("ku", due_days_ago=2)]
    assert [c.kana_id for c in quiz_order(ties, seconds=0.0)] == ["ki", "ku", "ka"]


def _due_memory(learner, kana: str, *, stability: float, last_days_ago: float, index: int):
    last = NOW - timedelta(days=last_days_ago)
    card = Card(
        card_id=index, state=State.Review, stability=stability, difficulty=5.0,
        due=last + timedelta(days=stability), last_review=last,
    )  # fmt: skip
    return KanaMemory.objects.create(
        learner=learner, kana_id=kana, script="hiragana", reps=3, last_correct=True,
        last_review=last, due=card.due, stability=stability, card=srs.card_to_json(card),
    )  # fmt: skip


@pytest.mark.django_db
def test_the_quiz_knows_the_learners_warm_up_minutes_from_the_daily_goal(dana):
    # 6 hiragana due, each since a different day, their recall now spread: the most overdue
    # is the least likely remembered
    kana = ["a", "i", "u", "e", "o", "ka"]
    for index, name in enumerate(kana):
        _due_memory(dana, name, stability=2.0 + index, last_days_ago=12.0 - index, index=index)
    due_first = [c.kana_id for c in quiz_service.quiz_cells_for(learner=dana, now=NOW)][:6]
    assert due_first == kana  # no goal in minutes: most overdue first
    cells = {c.kana_id: c for c in quiz_service.quiz_cells_for(learner=dana, now=NOW)[:6]}
    by_recall = sorted(kana, key=lambda k: -cells[k].retrievability)
    assert by_recall != kana  # the two orders differ here
    LearnerSettings.objects.create(learner=dana, goal_kind=DailyGoalKind.REVIEWS, goal_value=5)
    assert [c.kana_id for c in quiz_service.quiz_cells_for(learner=dana, now=NOW)][:6] == kana
    # a goal of the daily game's minutes and one more: 6 due answers fit in the warm-up ...
    LearnerSettings.objects.filter(learner=dana).update(
        goal_kind=DailyGoalKind.MINUTES, goal_value=int(DAILY_GAME_MINUTES) + 1
    )
    assert not backlogged(6, 60.0)  # one minute of warm-up answers 6 kana
    assert [c.kana_id for c in quiz_service.quiz_cells_for(learner=dana, now=NOW)][:6] == kana
    # ... with no minute left for it, they are a backlog
    LearnerSettings.objects.filter(learner=dana).update(goal_value=int(DAILY_GAME_MINUTES))
    assert [c.kana_id for c in quiz_service.quiz_cells_for(learner=dana, now=NOW)][:6] == by_recall
    # what the run asks follows the same order
    assert [k for k, _s in quiz_service.quiz_kana_for(learner=dana, now=NOW)][:6] == by_recall
