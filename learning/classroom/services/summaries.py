"""Refreshing the teacher dashboards' summary tables (ConfusionSummary, LearnerActivity).

Called by the Celery tasks of learning/classroom/tasks.py (beat schedule, and after a game
ends) and by the teacher's "refresh now" button. Each refresh recomputes the rows of a batch
of learners from the event log in a handful of grouped queries, then replaces them in one
transaction: running it twice gives the same rows (idempotent).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from games.models import Seat, TableStatus
from learning.classroom.models import Membership
from learning.classroom.models.summaries import ConfusionSummary, LearnerActivity
from learning.models.memory import LearningEvent

WEEK = timedelta(days=7)
MAX_GAME_SECONDS = 2 * 60 * 60  # an abandoned table never counts for more than two hours
BATCH = 200


def play_seconds(*, start: datetime, end: datetime | None) -> int:
    if end is None or end <= start:
        return 0
    return min(int((end - start).total_seconds()), MAX_GAME_SECONDS)


def seats_played(*, learner_ids: Iterable[int], since: datetime, now: datetime) -> list[dict]:
    """Human seats of these learners at games started, with the time each one played.

    One query on the games app's tables; each row: user_id, table_id, engine, options,
    assignment_id (from the classroom's link row, if any), classroom_id, finished (bool),
    finished_at, started_at, seconds.
    """
    rows = (
        Seat.objects.filter(user_id__in=list(learner_ids), table__started_at__isnull=False)
        .filter(
            Q(table__finished_at__gte=since)
            | Q(table__status=TableStatus.PLAYING, last_seen_at__gte=since)
        )
        .values(
            "user_id",
            "joined_at",
            "last_seen_at",
            "table_id",
            "table__engine",
            "table__options",
            "table__assignment_link__assignment_id",
            "table__classroom_id",
            "table__status",
            "table__started_at",
            "table__finished_at",
        )
    )
    seats = []
    for row in rows:
        started = max(row["table__started_at"], row["joined_at"] or row["table__started_at"])
        finished = row["table__status"] == TableStatus.FINISHED
        end = row["table__finished_at"] if finished else min(row["last_seen_at"] or started, now)
        seats.append(
            {
                "user_id": row["user_id"],
                "table_id": row["table_id"],
                "engine": row["table__engine"],
                "options": row["table__options"] or {},
                "assignment_id": row["table__assignment_link__assignment_id"],
                "classroom_id": row["table__classroom_id"],
                "finished": finished,
                "started_at": started,
                "finished_at": row["table__finished_at"],
                "end_at": end,
                "seconds": play_seconds(start=max(started, since), end=end),
            }
        )
    return seats


def _confusions(learner_ids: list[int]) -> list[ConfusionSummary]:
    rows = (
        LearningEvent.objects.settled()
        .confusions()  # wrong answers naming a glyph (not card answers)
        .filter(learner_id__in=learner_ids)
        .values("learner_id", "kana_id", "script", "confused_with")
        .annotate(n=Count("id"), last=Max("created_at"))
        .order_by()
    )
    return [
        ConfusionSummary(
            learner_id=row["learner_id"],
            kana_id=row["kana_id"],
            script=row["script"],
            confused_with=row["confused_with"],
            count=row["n"],
            last_at=row["last"],
        )
        for row in rows
    ]


def _activities(learner_ids: list[int], now: datetime) -> list[LearnerActivity]:
    week_ago = now - WEEK
    stats: dict[int, dict] = defaultdict(dict)
    totals = (
        LearningEvent.objects.settled()
        .filter(learner_id__in=learner_ids)
        .values("learner_id")
        .annotate(
            answers=Count("id", filter=Q(kind="answer")),
            correct=Count("id", filter=Q(kind="answer", correct=True)),
            last=Max("created_at"),
        )
        .order_by()
    )
    for row in totals:
        stats[row["learner_id"]].update(row)
    week = (
        LearningEvent.objects.settled()
        .filter(learner_id__in=learner_ids, created_at__gte=week_ago)
        .values("learner_id")
        .annotate(
            answers_week=Count("id", filter=Q(kind="answer")),
            correct_week=Count("id", filter=Q(kind="answer", correct=True)),
            exposures_week=Count("id", filter=Q(kind="exposure")),  # settled: §3
        )
        .order_by()
    )
    for row in week:
        stats[row["learner_id"]].update(row)
    for seat in seats_played(learner_ids=learner_ids, since=week_ago, now=now):
        entry = stats[seat["user_id"]]
        entry["seconds_week"] = entry.get("seconds_week", 0) + seat["seconds"]
        entry["games_week"] = entry.get("games_week", 0) + int(seat["finished"])
        if seat["end_at"] and (entry.get("last") is None or seat["end_at"] > entry["last"]):
            entry["last"] = seat["end_at"]
    return [
        LearnerActivity(
            learner_id=learner_id,
            answers_total=stats[learner_id].get("answers", 0),
            correct_total=stats[learner_id].get("correct", 0),
            answers_week=stats[learner_id].get("answers_week", 0),
            correct_week=stats[learner_id].get("correct_week", 0),
            exposures_week=stats[learner_id].get("exposures_week", 0),
            games_week=stats[learner_id].get("games_week", 0),
            seconds_week=stats[learner_id].get("seconds_week", 0),
            last_active_at=stats[learner_id].get("last"),
            computed_at=now,
        )
        for learner_id in learner_ids
    ]


def summaries_refresh(*, learner_ids: Iterable[int], now: datetime | None = None) -> int:
    """Recompute the summary rows of these learners; returns how many learners were done."""
    now = now or timezone.now()
    ids = sorted(set(learner_ids))
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        confusions, activities = _confusions(batch), _activities(batch, now)
        with transaction.atomic():
            ConfusionSummary.objects.filter(learner_id__in=batch).delete()
            ConfusionSummary.objects.bulk_create(confusions, batch_size=1000)
            LearnerActivity.objects.filter(learner_id__in=batch).delete()
            LearnerActivity.objects.bulk_create(activities, batch_size=1000)
    return len(ids)


def summaries_refresh_classes(
    *, classroom_ids: Iterable[int] | None = None, now: datetime | None = None
) -> int:
    """Refresh every student of these classes (all classes when None)."""
    memberships = Membership.objects.all()
    if classroom_ids is not None:
        memberships = memberships.filter(classroom_id__in=list(classroom_ids))
    learner_ids = memberships.values_list("student_id", flat=True).distinct()
    return summaries_refresh(learner_ids=list(learner_ids), now=now)


def summaries_refresh_for_table(*, table_id: int, now: datetime | None = None) -> int:
    """After a game ends: refresh the class members who sat at it."""
    seated = Seat.objects.filter(table_id=table_id, user__isnull=False).values_list(
        "user_id", flat=True
    )
    learner_ids = Membership.objects.filter(student_id__in=list(seated)).values_list(
        "student_id", flat=True
    )
    return summaries_refresh(learner_ids=list(learner_ids), now=now)
