"""Classes and join codes: create and change a class, join one with its code, leave it.

Decisions (docs/classroom.md):
- Join codes are 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S,
  8/B, U/V); typed codes are normalised (case, spaces, dashes) before lookup.
- Closed and unknown codes get the same answer, so a page does not reveal which codes exist.

Student accounts made with a code (the /join/ page, rosters) are the classroom's
(learning/classroom/services/classroom.py): they need the kana reading of a name.
"""

from __future__ import annotations

import re
import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from kanagame.classes.choices import Script, SyllabusChoice
from kanagame.classes.models import Classroom, Membership

JOIN_CODE_ALPHABET = "ACDEFGHJKMNPQRTWXY34679"
JOIN_CODE_LENGTH = 6


class ClassroomError(ValidationError):
    """A class action refused with a message for the user (views answer 400/404/409)."""


class UnknownClassCode(ClassroomError):
    """No open class has this code (the join page counts these to slow down guessing)."""


def join_code_normalize(raw: str) -> str:
    """Upper-case, drop spaces and dashes: "kmn-7rt" and "KMN 7RT" are the same code."""
    return re.sub(r"[^0-9A-Z]", "", (raw or "").upper())


def join_code_new() -> str:
    """A join code no class has (the unique constraint catches a race: callers retry)."""
    while True:
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        if not Classroom.objects.filter(join_code=code).exists():
            return code


def classroom_create(
    *,
    teacher: AbstractBaseUser,
    name: str,
    level: str = "",
    default_script: str = Script.HIRAGANA,
    syllabus: str = SyllabusChoice.BOTH,
) -> Classroom:
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return Classroom.objects.create(
                    teacher=teacher,
                    name=name.strip(),
                    level=level.strip(),
                    default_script=default_script,
                    syllabus=syllabus,
                    join_code=join_code_new(),
                )
        except IntegrityError:  # two teachers drew the same code at once: draw again
            continue
    raise ClassroomError(_("Could not create a join code, please try again."))


def classroom_update(
    *,
    classroom: Classroom,
    name: str,
    level: str,
    default_script: str,
    is_open: bool,
    syllabus: str | None = None,
) -> Classroom:
    classroom.name = name.strip()
    classroom.level = level.strip()
    classroom.default_script = default_script
    classroom.is_open = is_open
    if syllabus is not None:
        classroom.syllabus = syllabus
    classroom.save(update_fields=["name", "level", "default_script", "syllabus", "is_open"])
    return classroom


def classroom_code_regenerate(*, classroom: Classroom) -> Classroom:
    """A new join code; the old one stops working at once (students already in stay in)."""
    classroom.join_code = join_code_new()
    classroom.save(update_fields=["join_code"])
    return classroom


def classroom_set_open(*, classroom: Classroom, is_open: bool) -> Classroom:
    classroom.is_open = is_open
    classroom.save(update_fields=["is_open"])
    return classroom


def classroom_for_code(*, code: str) -> Classroom:
    """The open class with this code, or ``UnknownClassCode`` with one message for both cases."""
    normalized = join_code_normalize(code)
    typed = (code or "").strip().upper()  # codes set by hand may keep a dash ("DEMO-KANA")
    classroom = Classroom.objects.filter(join_code__in={normalized, typed}, is_open=True).first()
    if not normalized or classroom is None:
        raise UnknownClassCode(_("This class code is unknown or the class is closed."))
    return classroom


def membership_join(*, student: AbstractBaseUser, code: str) -> Membership:
    """A logged-in learner joins one more class with its code (idempotent).

    The learner joins as themselves: role and creator stay as they are, so a self-learner's
    account (or another teacher's student) never becomes this teacher's to manage.
    """
    classroom = classroom_for_code(code=code)
    membership, _created = Membership.objects.get_or_create(classroom=classroom, student=student)
    return membership


def membership_remove(*, classroom: Classroom, student: AbstractBaseUser) -> None:
    """The student leaves the class; their account and history stay theirs.

    Always allowed to the class's teacher: it ends only this membership, changes nothing of
    the account, and a teacher must be able to take anyone out of their own class.
    """
    Membership.objects.filter(classroom=classroom, student=student).delete()
