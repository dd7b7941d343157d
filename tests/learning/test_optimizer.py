"""Per-learner parameter fitting: kept defaults (and said so) or fitted parameters."""

from datetime import UTC, datetime

import pytest

from learning.demo_learning import history_build
from learning.models import LearnerSettings
from learning.services import memory as memory_service
from learning.tasks import fit_parameters, fit_parameters_nightly

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def test_few_reviews_keep_the_defaults_and_say_so(dana, client):
    history_build(learner=dana, days=5, now=NOW, answers_per_day=10, exposures_per_day=2)
    row = memory_service.parameters_fit(learner=dana, now=NOW)
    assert (row.parameters_note, row.fsrs_parameters) == ("too_few", None)


def test_without_the_optional_extra_the_defaults_stay_and_the_page_says_why(dana, client):
    """The real missing-extra branch: torch is not installed in this environment."""
    try:
        import torch  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("the optimiser extra is installed here")
    assert memory_service.optimizer_class() is None
    history_build(learner=dana, days=120, now=NOW, answers_per_day=15, exposures_per_day=0)
    assert fit_parameters(dana.pk) == "no_optimizer"
    row = LearnerSettings.objects.get(learner=dana)
    assert row.fsrs_parameters is None
    client.force_login(dana)
    assert "optimiser (the optional fsrs[optimizer] extra) is not installed" in (
        client.get("/learn/").content.decode()
    )


class FakeOptimizer:
    """Stands in for fsrs.Optimizer: records the logs it was given, returns parameters."""

    seen: list = []

    def __init__(self, review_logs):
        FakeOptimizer.seen = list(review_logs)

    def compute_optimal_parameters(self):
        from fsrs import Scheduler

        params = list(Scheduler().parameters)
        params[2] = 5.5
        return params


def test_with_the_optimiser_fitted_parameters_are_stored_and_used(dana, monkeypatch):
    monkeypatch.setattr(memory_service, "optimizer_class", lambda: FakeOptimizer)
    history_build(learner=dana, days=120, now=NOW, answers_per_day=15, exposures_per_day=0)
    row = memory_service.parameters_fit(learner=dana, now=NOW)
    assert row.parameters_note == "fitted" and row.parameters_fitted_at == NOW
    assert len(FakeOptimizer.seen) >= memory_service.MIN_REVIEWS_TO_FIT
    assert all(log.card_id > 0 for log in FakeOptimizer.seen)
    scheduler = memory_service.scheduler_for(learner=dana)
    assert scheduler.parameters[2] == pytest.approx(5.5)


def test_fitted_parameters_reschedule_the_existing_cards(dana, monkeypatch):
    from learning import srs
    from learning.models import KanaMemory

    class Slow(FakeOptimizer):
        def compute_optimal_parameters(self):
            from fsrs import Scheduler

            params = list(Scheduler().parameters)
            params[:4] = [0.05, 0.05, 0.05, 0.05]  # every first stability tiny
            params[8] = 0.0  # and successes barely grow it
            return params

    monkeypatch.setattr(memory_service, "optimizer_class", lambda: Slow)
    history_build(learner=dana, days=120, now=NOW, answers_per_day=15, exposures_per_day=0)
    before = {m.pk: (m.stability, m.due) for m in KanaMemory.objects.filter(learner=dana)}
    memory_service.parameters_fit(learner=dana, now=NOW)
    after = list(KanaMemory.objects.filter(learner=dana, reps__gt=0))
    assert after and all(m.stability < before[m.pk][0] for m in after)
    assert all(m.due <= before[m.pk][1] for m in after)
    # the stored JSON card is the rescheduled one (what the next review starts from)
    assert all(srs.card_from_json(m.card).stability == m.stability for m in after)


def test_a_failing_optimiser_keeps_the_defaults(dana, monkeypatch):
    class Broken(FakeOptimizer):
        def compute_optimal_parameters(self):
            raise RuntimeError("diverged")

    monkeypatch.setattr(memory_service, "optimizer_class", lambda: Broken)
    history_build(learner=dana, days=120, now=NOW, answers_per_day=15, exposures_per_day=0)
    row = memory_service.parameters_fit(learner=dana, now=NOW)
    assert (row.parameters_note, row.fsrs_parameters) == ("failed", None)


def test_the_nightly_task_fits_every_learner_with_reviews(dana, bob):
    history_build(learner=dana, days=3, now=NOW, answers_per_day=5, exposures_per_day=0)
    assert fit_parameters_nightly() == 1  # bob has no reviews
    assert LearnerSettings.objects.get(learner=dana).parameters_note == "too_few"
    assert not LearnerSettings.objects.filter(learner=bob).exists()


def test_the_nightly_fit_is_in_the_beat_schedule(settings):
    entries = {e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "learning.fit_parameters_nightly" in entries


def test_the_learner_can_ask_for_a_refit_on_demand(dana, client):
    client.force_login(dana)
    response = client.post("/learn/memory/refit/")
    assert response.status_code == 302
    assert LearnerSettings.objects.get(learner=dana).parameters_note == "too_few"
    assert client.get("/learn/memory/refit/").status_code == 405
