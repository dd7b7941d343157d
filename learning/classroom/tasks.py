"""Celery tasks keeping the teacher dashboards' summary tables fresh.

Thin interfaces to learning/classroom/services/summaries.py: they take ids, read fresh rows
and are idempotent (a duplicated or retried task recomputes the same rows). Scheduled by
``CELERY_BEAT_SCHEDULE`` (settings) and queued after a game ends.
Autodiscovered by ``app.autodiscover_tasks()`` (the classroom is an installed app).
"""

from __future__ import annotations

from celery import shared_task

from learning.classroom.services.summaries import (
    summaries_refresh_classes,
    summaries_refresh_for_table,
)


@shared_task(name="learning.refresh_all_class_summaries")
def refresh_all_class_summaries() -> int:
    """Beat: every student of every class."""
    return summaries_refresh_classes()


@shared_task(name="learning.refresh_class_summaries")
def refresh_class_summaries(classroom_id: int) -> int:
    return summaries_refresh_classes(classroom_ids=[classroom_id])


@shared_task(name="learning.refresh_summaries_after_game")
def refresh_summaries_after_game(table_id: int) -> int:
    """After a game ends: the class members who played at it."""
    return summaries_refresh_for_table(table_id=table_id)
