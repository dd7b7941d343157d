"""Celery tasks of the learning app: per-learner FSRS parameter fitting (nightly and on demand).

Tasks take ids, fetch fresh rows and call a service; running one twice is harmless.
"""

from celery import shared_task
from django.contrib.auth import get_user_model

from learning.models import KanaMemory
from learning.services.memory import parameters_fit


@shared_task(name="learning.fit_parameters")
def fit_parameters(learner_id: int) -> str:
    """Fit one learner's parameters (or record why the defaults stay)."""
    learner = get_user_model().objects.filter(pk=learner_id).first()
    if learner is None:
        return "missing"
    return parameters_fit(learner=learner).parameters_note


@shared_task(name="learning.fit_parameters_nightly")
def fit_parameters_nightly() -> int:
    """Queue a fit for every learner with kana memory (beat: CELERY_BEAT_SCHEDULE)."""
    learner_ids = (
        KanaMemory.objects.filter(reps__gt=0).values_list("learner_id", flat=True).distinct()
    )
    count = 0
    for learner_id in learner_ids:
        fit_parameters.delay(learner_id)
        count += 1
    return count
