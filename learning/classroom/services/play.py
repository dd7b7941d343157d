"""A student plays an assignment in one tap: a table with the teacher's settings, CPU players
in the other seats, linked to the assignment so the game counts."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import ENGINES, get_engine
from games.models import Table
from games.services.tables import table_create
from learning.classroom.models import Assignment
from learning.classroom.services.classroom import ClassroomError
from learning.picker import recommend

CPU_LEVEL = "normal"
PLAYERS = 4  # the table's size when the game allows it (a pair game gets its 2)


def assignment_table_start(
    *,
    student: AbstractBaseUser,
    assignment: Assignment,
    now: datetime | None = None,
    classmate: bool = False,
) -> Table:
    """A table of ``assignment`` for ``student`` against CPU players, dealt at once; with
    ``classmate`` seat 2 is left open for a classmate (the table waits for them; its code and
    link are on its page) and the other seats are CPU players.

    The options are the teacher's, as the assignment form stored them; "recommended
    by the picker" plays the picker's choice for this student and assignment. Nothing the
    student sends changes them.
    """
    now = now or timezone.now()
    if assignment.due_at <= now:
        raise ClassroomError(_("This assignment is over: its due date has passed."))
    engine, options = _game_of(student=student, assignment=assignment, now=now)
    eng = get_engine(engine)
    players = max(eng.MIN_PLAYERS, min(PLAYERS, eng.MAX_PLAYERS))
    seats = [{"kind": "human", "user": student}]
    if classmate:
        seats.append({"kind": "open"})
    seats += [{"kind": "bot", "level": CPU_LEVEL}] * (players - len(seats))
    return table_create(
        user=student, engine=engine, options=options, seats=seats, assignment=assignment
    )


def _game_of(*, student, assignment: Assignment, now: datetime) -> tuple[str, dict]:
    if not assignment.is_recommended and assignment.engine in ENGINES:
        return assignment.engine, dict(assignment.options or {})
    recs = recommend(student, now=now)
    chosen = next((r for r in recs if r.assignment_id == assignment.pk), recs[0] if recs else None)
    if chosen is None:
        raise ClassroomError(_("No game can be recommended right now."))
    return chosen.engine, {**chosen.options, "prompts": "new", "romaji": "hover"}
