"""Which scripts a learner is taught: their own choice, or their teacher's (issue 27).

Both scripts unless someone chose one. A teacher's choice for a class wins over the student's
own (the class learns what its teacher teaches; the student's page says so and offers no
choice); a student in two classes whose teachers chose different scripts learns both. The
classroom tells learning its choice through a source it registers in its ``AppConfig.ready()``
(``syllabus_source_register``): learning imports no classroom code.

The lesson (which kana are introduced), the picker (which presets are recommended) and the
learner's coverage read ``scripts_for``. Reviews are not filtered: a kana already learned in
the other script stays due.
"""

from __future__ import annotations

from collections.abc import Callable

from learning.models import LearnerSettings, SyllabusChoice
from learning.syllabus import SCRIPTS

# source(*, learner) -> the teacher's SyllabusChoice values for this learner (one per class)
SyllabusSource = Callable[..., list[str]]
_SOURCES: list[SyllabusSource] = []


class SyllabusChosenByTeacher(Exception):
    """The learner's class decides the scripts: the learner's own choice is not asked."""


def syllabus_source_register(source: SyllabusSource) -> None:
    if source not in _SOURCES:
        _SOURCES.append(source)


def scripts_of(choice: str) -> tuple[str, ...]:
    """The scripts of a SyllabusChoice value."""
    return SCRIPTS if choice == SyllabusChoice.BOTH else (choice,)


def teacher_choice_for(learner) -> str | None:
    """The scripts the learner's teachers chose (a SyllabusChoice value), or None when no
    teacher chose one script."""
    chosen = {c for source in _SOURCES for c in source(learner=learner)}
    chosen.discard(SyllabusChoice.BOTH)
    if not chosen:
        return None
    return next(iter(chosen)) if len(chosen) == 1 else SyllabusChoice.BOTH


def own_choice_for(learner) -> str:
    row = LearnerSettings.objects.filter(learner=learner).only("syllabus").first()
    return row.syllabus if row else SyllabusChoice.BOTH


def scripts_for(learner) -> tuple[str, ...]:
    """Contract: the scripts ``learner`` is taught, in ``SCRIPTS`` order."""
    return scripts_of(teacher_choice_for(learner) or own_choice_for(learner))


def syllabus_set(*, learner, choice: str) -> LearnerSettings:
    """The learner chooses the scripts they learn. ``ValueError``: not a choice;
    ``SyllabusChosenByTeacher``: their class decides."""
    if choice not in SyllabusChoice.values:
        raise ValueError(choice)
    if teacher_choice_for(learner) is not None:
        raise SyllabusChosenByTeacher
    row, _created = LearnerSettings.objects.get_or_create(learner=learner)
    if row.syllabus != choice:
        row.syllabus = choice
        row.save(update_fields=["syllabus"])
    return row
