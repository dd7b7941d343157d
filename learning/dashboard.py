"""The learner dashboard: memory grids, confusions, history and the picker's top games.

A read composed of the selectors and the picker (kept out of ``learning.selectors`` so that the
picker may read the selectors without an import loop).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from learning import syllabus
from learning.models import LearnerSettings, LearningEvent, SyllabusChoice
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
from learning.services.syllabus import scripts_of, teacher_choice_for
from learning.srs import MIN_REVIEWS_TO_FIT


@dataclass(frozen=True)
class Coverage:
    """How much of one script of the syllabus has been taught and asked (issue 27)."""

    script: str
    asked: int  # answered at least once
    taught: int  # taught by a lesson card or answered
    total: int

    @property
    def percent(self) -> int:
        return round(100 * self.asked / self.total) if self.total else 100


def coverage_of(cells, scripts: Sequence[str] = syllabus.SCRIPTS) -> list[Coverage]:
    """Per script of the syllabus (46 basic kana each): kana asked and taught so far."""
    by_pair = {(c.kana_id, c.script): c for c in cells}
    found = []
    for script in scripts:
        pairs = [p for p in syllabus.syllabus((script,)) if p in by_pair]
        asked = sum(1 for p in pairs if by_pair[p].reps > 0)
        taught = sum(1 for p in pairs if by_pair[p].reps > 0 or by_pair[p].introduced_at)
        found.append(Coverage(script=script, asked=asked, taught=taught, total=len(pairs)))
    return found


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
    coverage: list[Coverage]
    syllabus: str  # a SyllabusChoice value: what the learner is taught
    syllabus_by_teacher: bool  # their class decides it: no choice offered


def dashboard_for(*, learner, now: datetime | None = None, days: int = 30) -> Dashboard:
    """Everything the learner dashboard shows, in a fixed, small number of queries."""
    now = now or timezone.now()
    settings_row = LearnerSettings.objects.filter(learner=learner).first()
    cells = kana_cells_for(learner=learner, now=now, settings_row=settings_row)
    history = reviews_per_day_for(learner=learner, days=days, now=now)
    today_start = datetime.combine(now.date(), datetime.min.time(), tzinfo=now.tzinfo)
    teacher = teacher_choice_for(learner)
    own = settings_row.syllabus if settings_row else SyllabusChoice.BOTH
    scripts = scripts_of(teacher or own)
    return Dashboard(
        grids=grids_from(cells),
        confusions=confusions_for(learner=learner, since=now - timedelta(days=30), limit=8),
        history=history,
        recommendations=recommend(
            learner,
            now=now,
            statuses=kana_statuses_for(learner=learner, cells=cells),
            scripts=scripts,
        )[:3],
        streak=streak_for(learner=learner, now=now),
        reviews_total=LearningEvent.objects.settled()
        .filter(learner=learner, kind="answer")
        .count(),
        reviews_today=answers_count_for(learner=learner, since=today_start),
        parameters_note=settings_row.parameters_note if settings_row else "",
        parameters_fitted_at=settings_row.parameters_fitted_at if settings_row else None,
        min_reviews_to_fit=MIN_REVIEWS_TO_FIT,
        coverage=coverage_of(cells, scripts),
        syllabus=teacher or own,
        syllabus_by_teacher=teacher is not None,
    )


# Sections an app above adds to the dashboard: provider(user) -> (template, context) or None.
DashboardPanel = Callable[[Any], "tuple[str, dict] | None"]
_PANELS: list[DashboardPanel] = []


def dashboard_panel_register(provider: DashboardPanel) -> None:
    """Register a section of the learner's dashboard (the classroom's "My data")."""
    if provider not in _PANELS:
        _PANELS.append(provider)


def dashboard_panels(user) -> list[tuple[str, dict]]:
    """The registered sections that have something to show ``user``, in registration order."""
    return [panel for provider in _PANELS if (panel := provider(user)) is not None]
