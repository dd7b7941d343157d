"""Classroom reads: open assignments, rosters, completion (HackSoft-style selectors).

Services that write live in learning/services/classroom.py.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.utils import timezone

from .models import Assignment, Classroom, Membership


def assignments_open_for(
    *, student: AbstractBaseUser, now: datetime | None = None
) -> list[Assignment]:
    """The assignments of the student's classes that are not yet due, earliest due first.

    Contract used by the variant picker (learning.picker.recommend) and the home page.
    Completed assignments stay in the list until their due date: the picker may skip them
    with `assignment_progress_for`.
    """
    now = now or timezone.now()
    return list(
        Assignment.objects.filter(classroom__memberships__student=student, due_at__gt=now)
        .select_related("classroom")
        .order_by("due_at", "id")
    )


def classrooms_taught_by(*, teacher: AbstractBaseUser) -> QuerySet[Classroom]:
    return Classroom.objects.filter(teacher=teacher).order_by("name", "id")


def classrooms_of(*, student: AbstractBaseUser) -> QuerySet[Classroom]:
    return Classroom.objects.filter(memberships__student=student).order_by("name", "id")


def roster_for(*, classroom: Classroom) -> QuerySet[Membership]:
    """Memberships with the student and profile loaded, by display name."""
    return (
        Membership.objects.filter(classroom=classroom)
        .select_related("student", "student__profile")
        .order_by("student__profile__display_name", "student__username")
    )
