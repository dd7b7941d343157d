"""Summary tables for teacher dashboards, refreshed by Celery (learning/classroom/tasks.py).

Scanning a term of LearningEvent rows (millions) on every dashboard view would be slow, so the
aggregates that need the event log are computed in the background (beat schedule, and after a
game ends) into one small row set per learner. The dashboard reads only these rows,
KanaMemory (already one row per learner and kana) and the roster.
"""

from django.conf import settings
from django.db import models

from learning.models.kana import Script


class ConfusionSummary(models.Model):
    """How often a learner read ``kana_id`` as ``confused_with`` (wrong answers, whole history)."""

    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="confusion_summaries"
    )
    kana_id = models.CharField(max_length=4)
    script = models.CharField(max_length=8, choices=Script.choices)
    confused_with = models.CharField(max_length=4)
    count = models.PositiveIntegerField(default=0)
    last_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "learning_confusionsummary"  # the tables predate the classroom app
        constraints = [
            models.UniqueConstraint(
                fields=["learner", "kana_id", "script", "confused_with"],
                name="confusion_summary_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kana_id}->{self.confused_with} x{self.count} ({self.learner_id})"


class LearnerActivity(models.Model):
    """One row per learner: answers and play over the last 7 days and overall."""

    learner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="activity_summary"
    )
    answers_total = models.PositiveIntegerField(default=0)
    correct_total = models.PositiveIntegerField(default=0)
    answers_week = models.PositiveIntegerField(default=0)
    correct_week = models.PositiveIntegerField(default=0)
    exposures_week = models.PositiveIntegerField(default=0)
    games_week = models.PositiveIntegerField(default=0)
    seconds_week = models.PositiveIntegerField(default=0)
    last_active_at = models.DateTimeField(null=True, blank=True)
    computed_at = models.DateTimeField()

    class Meta:
        db_table = "learning_learneractivity"

    def __str__(self) -> str:
        return f"activity of {self.learner_id}"

    @property
    def error_rate_week(self) -> float | None:
        if not self.answers_week:
            return None
        return 1 - self.correct_week / self.answers_week

    @property
    def minutes_week(self) -> int:
        return round(self.seconds_week / 60)
