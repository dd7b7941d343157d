"""The learner dashboard: memory grids, confusions, history and the picker's top games.

A read composed of the selectors and the picker (kept out of ``learning.selectors`` so that the
picker may read the selectors without an import loop).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from learning.models import LearnerSettings, LearningEvent
from learning.picker import recommend
from learning.selectors import (
    Confusion,
    DayCount,
    ScriptGrid,
    answers_count_for,
    confusions_for,
    grids_from,
    kana_cells_for,
    kana_statuses_for,
    reviews_per_day_for,
    streak_for,
)
from learning.srs import MIN_REVIEWS_TO_FIT


@dataclass(frozen=True)
class Dashboard:
    grids: list[ScriptGrid]
    confusions: list[Confusion]
    history: list[DayCount]
    recommendations: list
    streak: int
    reviews_total: int
    reviews_today: int
    parameters_note: str
    parameters_fitted_at: datetime | None
    min_reviews_to_fit: int


def dashboard_for(*, learner, now: datetime | None = None, days: int = 30) -> Dashboard:
    """Everything the learner dashboard shows, in a fixed, small number of queries."""
    now = now or timezone.now()
    cells = kana_cells_for(learner=learner, now=now)
    history = reviews_per_day_for(learner=learner, days=days, now=now)
    settings_row = LearnerSettings.objects.filter(learner=learner).first()
    today_start = datetime.combine(now.date(), datetime.min.time(), tzinfo=now.tzinfo)
    return Dashboard(
        grids=grids_from(cells),
        confusions=confusions_for(learner=learner, since=now - timedelta(days=30), limit=8),
        history=history,
        recommendations=recommend(
            learner, now=now, statuses=kana_statuses_for(learner=learner, cells=cells)
        )[:3],
        streak=streak_for(learner=learner, now=now),
        reviews_total=LearningEvent.objects.settled()
        .filter(learner=learner, kind="answer")
        .count(),
        reviews_today=answers_count_for(learner=learner, since=today_start),
        parameters_note=settings_row.parameters_note if settings_row else "",
        parameters_fitted_at=settings_row.parameters_fitted_at if settings_row else None,
        min_reviews_to_fit=MIN_REVIEWS_TO_FIT,
    )
