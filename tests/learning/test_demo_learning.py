"""seed_demo_learning gives the demo learners some history, once."""

import io

import pytest
from factories import SelfLearnerFactory, UserFactory

from learning.demo_learning import seed_demo_learning
from learning.models import KanaMemory, LearningEvent

pytestmark = pytest.mark.django_db


def test_seed_gives_history_once():
    learner = SelfLearnerFactory(username="learner")
    student = UserFactory(username="student1")
    out = io.StringIO()
    seed_demo_learning(out)
    counts = (LearningEvent.objects.count(), KanaMemory.objects.count())
    assert LearningEvent.objects.filter(learner=learner, kind="answer").exists()
    assert LearningEvent.objects.filter(learner=student).exists()
    assert KanaMemory.objects.filter(learner=learner, reps__gt=0).count() >= 20
    seed_demo_learning(io.StringIO())
    assert (LearningEvent.objects.count(), KanaMemory.objects.count()) == counts
    assert "learner" in out.getvalue()


def test_seed_adds_history_on_top_of_a_demo_games_exposures():
    from learning.services.play import play_observed

    learner = SelfLearnerFactory(username="learner")
    play_observed(
        user=learner,
        table_id=1,
        move_id=None,
        shown=[("a", "hiragana")],
        entered_hand=[],
        prompt_mode="off",
    )
    seed_demo_learning(io.StringIO())
    assert LearningEvent.objects.filter(learner=learner, kind="answer").count() > 100
    memory = KanaMemory.objects.get(learner=learner, kana_id="a", script="hiragana")
    assert memory.exposures > 1 and memory.reps > 0
