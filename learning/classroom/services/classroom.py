"""Classroom writes: student accounts without email, rosters, account deletion, assignments.

Classes, memberships and join codes themselves are the low app's (kanagame/classes/
services.py: create, change, join by code, leave); this module re-exports them for the
classroom's pages and adds what needs the layers between: student accounts made with a code
or a roster (usernames read from kana), account deletion (seats handed over to CPU players),
assignments.

Decisions (docs/classroom.md):
- Students never give an email: a display name and a password. The username is generated
  from the display name (``hana-347``) unless the student picks one on /join/.
- A teacher manages a student account (rename, new password, delete, data download) only
  when it is a student account the teacher created (their roster, or /join/ with their class
  code) and every class the student is in is one of theirs. Self-learners who join a class
  stay their own: no teacher ever changes their account. Removing a student from one's own
  class only ends that membership and is always allowed (docs/security.md).
"""

from __future__ import annotations

import math
import re
import secrets
import unicodedata

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.password_validation import validate_password
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.services.tables import seats_hand_over
from kanagame.accounts.models import CanonicalUsername, Role
from kanagame.accounts.names import username_key, username_taken
from kanagame.accounts.services import account_traces_delete, user_create
from kanagame.classes.services import (
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    ClassroomError,
    UnknownClassCode,
    classroom_code_regenerate,
    classroom_create,
    classroom_for_code,
    classroom_set_open,
    classroom_update,
    join_code_normalize,
    membership_join,
    membership_remove,
)
from learning import kana_table
from learning.classroom.models import Assignment, Classroom, Membership

__all__ = [
    "JOIN_CODE_ALPHABET",
    "JOIN_CODE_LENGTH",
    "ClassroomError",
    "UnknownClassCode",
    "classroom_code_regenerate",
    "classroom_create",
    "classroom_for_code",
    "classroom_set_open",
    "classroom_update",
    "join_code_normalize",
    "membership_join",
    "membership_remove",
]

USERNAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{2,29}$")
# Generated passwords are romaji syllables (consonant + vowel, Hepburn as the rules write it),
# three words of three syllables: ``kamira-tosune-howaki``. Lower-case letters only, no digits,
# so nothing looks alike (no l/1/I, 0/O, rn/m); every syllable is said the way it is written.
# Each syllable ends in its only vowel, so a password splits into syllables one way only:
# 39 ** 9 ≈ 2.1e14 passwords, 47.6 bits (docs/security.md).
PASSWORD_SYLLABLES = (
    "ka", "ki", "ku", "ke", "ko", "sa", "shi", "su", "se", "so",
    "ta", "chi", "tsu", "te", "to", "na", "ni", "nu", "ne", "no",
    "ha", "hi", "fu", "he", "ho", "ma", "mi", "mu", "me", "mo",
    "ya", "yu", "yo", "ra", "ri", "ru", "re", "ro", "wa",
)  # fmt: skip
PASSWORD_WORDS = 3
PASSWORD_WORD_SYLLABLES = 3
MAX_ROSTER = 60


# --- student accounts ---------------------------------------------------------------------


def username_base(display_name: str) -> str:
    """The name typed, as a username: kana read in romaji, accents dropped, letters and
    digits only ("Zoé" -> zoe, "ゆき" -> yuki); "student" when nothing is left (kanji)."""
    spelled = kana_table.romanise(display_name)
    ascii_name = unicodedata.normalize("NFKD", spelled).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "", ascii_name)[:16] or "student"


def username_generate(*, display_name: str) -> str:
    """``yuki``, or ``yuki-2``, ``yuki-3``... when taken in any spelling (the join page's
    promise: the username is made from the name typed). A base shorter than 3 letters starts
    at ``-2``."""
    base = username_base(display_name)
    taken = set(
        CanonicalUsername.objects.filter(name__startswith=username_key(base)).values_list(
            "name", flat=True
        )
    )
    first = [base] if len(base) >= 3 else []
    for candidate in [*first, *(f"{base}-{n}" for n in range(2, 1000))]:
        if username_key(candidate) not in taken:
            return candidate
    for _attempt in range(5):  # a thousand namesakes: a random suffix
        candidate = f"{base}-{secrets.randbelow(900_000) + 100_000}"
        if not username_taken(candidate):
            return candidate
    raise ClassroomError(_("Could not find a free username, please try again."))


def password_generate() -> str:
    """A one-time password a child can type and read aloud: ``kamira-tosune-howaki``."""
    words = (
        "".join(secrets.choice(PASSWORD_SYLLABLES) for _ in range(PASSWORD_WORD_SYLLABLES))
        for _ in range(PASSWORD_WORDS)
    )
    return "-".join(words)


def password_entropy_bits() -> float:
    """Bits of entropy of ``password_generate`` (stated in docs/security.md)."""
    return PASSWORD_WORDS * PASSWORD_WORD_SYLLABLES * math.log2(len(set(PASSWORD_SYLLABLES)))


def _display_name_clean(display_name: str) -> str:
    name = " ".join((display_name or "").split())
    if not name:
        raise ClassroomError(_("Please enter a name."))
    if len(name) > 60:
        raise ClassroomError(_("Names are at most 60 characters."))
    return name


def _student_account_create(*, username: str, password: str, display_name: str, teacher):
    return user_create(
        username=username,
        password=password,
        role=Role.STUDENT,
        display_name=display_name,
        created_by=teacher,
    )


def student_join(
    *, code: str, display_name: str, password: str, username: str = ""
) -> AbstractBaseUser:
    """Create a student account and put it in the class with this join code."""
    classroom = classroom_for_code(code=code)
    display_name = _display_name_clean(display_name)
    username = username.strip().lower()
    user_model = get_user_model()
    if username:
        if not USERNAME_RE.match(username):
            raise ClassroomError(
                _(
                    "Usernames are 3 to 30 lower-case letters, digits, - or _, "
                    "starting with a letter or digit."
                )
            )
        if username_taken(username):
            raise ClassroomError(_("This username is taken, please choose another one."))
    else:
        username = username_generate(display_name=display_name)
    validate_password(password, user_model(username=username))
    with transaction.atomic():
        try:
            user = _student_account_create(
                username=username,
                password=password,
                display_name=display_name,
                teacher=classroom.teacher,
            )
        except IntegrityError as exc:
            raise ClassroomError(_("This username is taken, please choose another one.")) from exc
        Membership.objects.create(classroom=classroom, student=user)
    return user


def roster_create(*, classroom: Classroom, names_text: str) -> list[dict]:
    """Accounts for a pasted list of names (one per line); returns the login cards.

    Each card holds the display name, the generated username and a one-time password:
    the password is only ever returned here (it is stored hashed), so the teacher prints
    the cards now or resets a password later.
    """
    names = [" ".join(line.split()) for line in names_text.splitlines()]
    names = [name for name in names if name]
    if not names:
        raise ClassroomError(_("Paste at least one name, one per line."))
    if len(names) > MAX_ROSTER:
        raise ClassroomError(_("At most %(max)d names at once.") % {"max": MAX_ROSTER})
    for name in names:
        _display_name_clean(name)
    cards = []
    try:
        with transaction.atomic():
            for name in names:
                username, password = username_generate(display_name=name), password_generate()
                user = _student_account_create(
                    username=username, password=password, display_name=name,
                    teacher=classroom.teacher,
                )  # fmt: skip
                Membership.objects.create(classroom=classroom, student=user)
                cards.append({"display_name": name, "username": username, "password": password})
    except IntegrityError as exc:  # another request took a generated username meanwhile
        raise ClassroomError(_("Please try again: a username was taken meanwhile.")) from exc
    return cards


class NotYourStudent(ClassroomError):
    """The teacher may not change this account (views answer 403)."""


def _in_only_classes_of(*, teacher: AbstractBaseUser, student: AbstractBaseUser) -> bool:
    return (
        not Membership.objects.filter(student=student).exclude(classroom__teacher=teacher).exists()
    )


def _role(student: AbstractBaseUser) -> str | None:
    return getattr(getattr(student, "profile", None), "role", None)


def student_can_be_renamed_by(*, teacher: AbstractBaseUser, student: AbstractBaseUser) -> bool:
    """A student account (not a self-learner) whose every class is this teacher's."""
    return _role(student) == Role.STUDENT and _in_only_classes_of(teacher=teacher, student=student)


def student_is_managed_by(*, teacher: AbstractBaseUser, student: AbstractBaseUser) -> bool:
    """The teacher created this student account and every class the student is in is theirs.

    The guard of every write that could hand the account to the teacher or destroy it:
    new password, delete, and the teacher's copy of the student's data.
    """
    return (
        _role(student) == Role.STUDENT
        and student.profile.created_by_id == teacher.pk
        and _in_only_classes_of(teacher=teacher, student=student)
    )


def _refuse_unless(allowed: bool) -> None:
    if not allowed:
        raise NotYourStudent(
            _(
                "Only the teacher who created this student account may change it, and only "
                "while the student is in none of another teacher's classes."
            )
        )


def student_rename(
    *,
    classroom: Classroom,
    student: AbstractBaseUser,
    display_name: str,
    teacher: AbstractBaseUser | None = None,
) -> None:
    _refuse_unless(student_can_be_renamed_by(teacher=teacher or classroom.teacher, student=student))
    profile = student.profile
    profile.display_name = _display_name_clean(display_name)
    profile.save(update_fields=["display_name"])


def student_password_reset(
    *, classroom: Classroom, student: AbstractBaseUser, teacher: AbstractBaseUser | None = None
) -> str:
    """A new one-time password (returned once, for a new login card)."""
    _refuse_unless(student_is_managed_by(teacher=teacher or classroom.teacher, student=student))
    password = password_generate()
    student.set_password(password)
    student.save(update_fields=["password"])
    return password


def student_can_be_deleted_by(*, teacher: AbstractBaseUser, student: AbstractBaseUser) -> bool:
    """Only a student account this teacher created, in none of another teacher's classes."""
    return student_is_managed_by(teacher=teacher, student=student)


def student_delete(*, teacher: AbstractBaseUser, student: AbstractBaseUser) -> None:
    """Delete the student's account and everything attached to it (a real delete)."""
    if not student_can_be_deleted_by(teacher=teacher, student=student):
        raise ClassroomError(
            _(
                "Only the teacher who created this student account may delete it, and only "
                "while the student is in none of another teacher's classes: remove them from "
                "your class instead."
            )
        )
    account_erase(user=student)


def account_erase(*, user: AbstractBaseUser) -> None:
    """Delete an account and everything attached to it (a real delete), the one way every
    deletion goes: its seats at unfinished tables are handed over first (a CPU plays on, a
    waiting table frees the seat: no game ever waits on a deleted player), then its other
    sessions and failed log-ins go with it (docs/security.md §11)."""
    with transaction.atomic():
        seats_hand_over(user=user)
        account_traces_delete(user=user)
        user.delete()


# --- assignments --------------------------------------------------------------------------


def assignment_create(*, classroom: Classroom, **fields) -> Assignment:
    assignment = Assignment(classroom=classroom, **fields)
    assignment.full_clean()
    assignment.save()
    return assignment


def assignment_delete(*, assignment: Assignment) -> None:
    assignment.delete()
