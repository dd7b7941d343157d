"""selectors.kana_prediction_for: the public P(correct) for (learner, kana, script, k choices)."""

from datetime import timedelta

import pytest

from learning import srs
from learning.models import LearnerSettings, LearningEvent
from learning.selectors import kana_prediction_for, scheduler_for
from learning.services.memory import memory_review

pytestmark = pytest.mark.django_db


def _answer(learner, at, *, correct=True, kind="reading", choices=4, kana=("shi", "katakana")):
    return memory_review(
        learner=learner, kana_id=kana[0], script=kana[1], correct=correct, response_ms=4000,
        source="quiz", at=at, answer_kind=kind, choices=choices,
    )  # fmt: skip


def test_a_kana_never_answered_is_the_unseen_prior_with_the_guess_folded_in(dana, t0):
    typed = kana_prediction_for(learner=dana, kana_id="shi", script="katakana", now=t0)
    four = kana_prediction_for(learner=dana, kana_id="shi", script="katakana", choices=4, now=t0)
    assert typed == pytest.approx(srs.UNSEEN_RECALL)
    assert four == pytest.approx(srs.UNSEEN_RECALL + (1 - srs.UNSEEN_RECALL) / 4)


def test_it_is_the_prediction_the_next_answer_stores(dana, t0):
    """What the Bozu prompt (or any caller) reads is what memory_review will record."""
    _answer(dana, t0, correct=False)
    _answer(dana, t0 + timedelta(minutes=1))
    next_day = t0 + timedelta(hours=22)
    before = kana_prediction_for(
        learner=dana, kana_id="shi", script="katakana", choices=4, now=next_day
    )
    _answer(dana, next_day)
    stored = LearningEvent.objects.filter(learner=dana, kind="answer").latest("created_at")
    assert stored.predicted == pytest.approx(before)
    # failed at first, then one right pick: the next day is far from certain
    assert 0.25 < before < 0.9


def test_same_day_and_other_scripts_are_told_apart(dana, t0):
    _answer(dana, t0, kind="typed", choices=0)
    hour = t0 + timedelta(hours=1)
    same_day = kana_prediction_for(learner=dana, kana_id="shi", script="katakana", now=hour)
    week = kana_prediction_for(
        learner=dana, kana_id="shi", script="katakana", now=t0 + timedelta(days=7)
    )
    assert 0.95 < same_day <= 1 - srs.PREDICTION_FLOOR
    assert week < same_day
    # hiragana shi was never answered
    hiragana = kana_prediction_for(learner=dana, kana_id="shi", script="hiragana", now=hour)
    assert hiragana == pytest.approx(srs.UNSEEN_RECALL)


def test_a_learners_fitted_parameters_give_their_own_decay(dana, t0):
    _answer(dana, t0, kind="typed", choices=0)
    later = t0 + timedelta(days=9)
    default = kana_prediction_for(learner=dana, kana_id="shi", script="katakana", now=later)
    fitted = list(scheduler_for(learner=dana).parameters)
    fitted[20] = 0.1  # a flatter curve than the prediction's default
    LearnerSettings.objects.update_or_create(learner=dana, defaults={"fsrs_parameters": fitted})
    own = kana_prediction_for(learner=dana, kana_id="shi", script="katakana", now=later)
    assert own > default


def test_it_costs_two_queries(dana, t0, django_assert_num_queries):
    _answer(dana, t0)
    with django_assert_num_queries(2):
        kana_prediction_for(learner=dana, kana_id="shi", script="katakana", choices=4, now=t0)
