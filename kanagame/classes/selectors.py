"""Who is in which class: the questions tables, lobbies and teacher pages ask.

Keyword-only, each one query (or a subquery for the caller's own query).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet

from kanagame.accounts.models import Role
from kanagame.classes.models import Classroom, Membership


def _is_teacher(user) -> bool:
    profile = getattr(user, "profile", None)
    return bool(profile and profile.role == Role.TEACHER)


def classes_of(*, user: AbstractBaseUser) -> QuerySet[Classroom]:
    """The classes ``user`` teaches (a teacher) or studies in (anyone else), by name."""
    if _is_teacher(user):
        classes = Classroom.objects.filter(teacher=user)
    else:
        classes = Classroom.objects.filter(memberships__student=user)
    return classes.order_by("name", "id")


def classrooms_taught_by(*, teacher: AbstractBaseUser) -> QuerySet[Classroom]:
    return Classroom.objects.filter(teacher=teacher).order_by("name", "id")


def classrooms_of(*, student: AbstractBaseUser) -> QuerySet[Classroom]:
    """The classes ``student`` is a member of (whatever their role), by name."""
    return Classroom.objects.filter(memberships__student=student).order_by("name", "id")


def in_class(*, user: AbstractBaseUser, classroom_id: int) -> bool:
    """Whether ``user`` teaches the class or is one of its students."""
    return Classroom.objects.filter(
        Q(teacher=user) | Q(memberships__student=user), pk=classroom_id
    ).exists()


def teaches(*, user: AbstractBaseUser, classroom_id: int) -> bool:
    return Classroom.objects.filter(pk=classroom_id, teacher=user).exists()


def students_of(*, teacher: AbstractBaseUser) -> QuerySet:
    """The ids of the students of every class ``teacher`` teaches, as a subquery."""
    return Membership.objects.filter(classroom__teacher=teacher).values("student_id")


def class_names(*, classroom_ids: Iterable[int]) -> dict[int, str]:
    """The names of these classes (a table shows the name of its class)."""
    ids = [pk for pk in classroom_ids if pk is not None]
    if not ids:
        return {}
    return dict(Classroom.objects.filter(pk__in=ids).values_list("pk", "name"))


def roster_for(*, classroom: Classroom) -> QuerySet[Membership]:
    """Memberships with the student and profile loaded, by display name."""
    return (
        Membership.objects.filter(classroom=classroom)
        .select_related("student", "student__profile")
        .order_by("student__profile__display_name", "student__username")
    )
