"""Access helpers shared by the teacher's pages.

A teacher reaches only their own classes: any other class id answers 404 (not 403), so ids
do not reveal which classes exist. A student id must belong to the class in the URL.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from learning.classroom.models import Classroom


def own_classroom(request: HttpRequest, class_id: int) -> Classroom:
    return get_object_or_404(Classroom, pk=class_id, teacher=request.user)


def class_student(classroom: Classroom, student_id: int) -> AbstractBaseUser:
    return get_object_or_404(
        get_user_model().objects.select_related("profile"),
        pk=student_id,
        memberships__classroom=classroom,
    )
