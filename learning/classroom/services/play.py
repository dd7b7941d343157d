"""A student plays an assignment: a table with the teacher's settings, linked to the
assignment so the game counts.

games makes the table (``games.services.tables.table_create``, in the assignment's class);
the classroom writes the link (``AssignmentTable``) in the same transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import ENGINES, get_engine
from games.models import Table
from games.services.tables import table_create
from learning.classroom.models import Assignment, AssignmentTable
from learning.classroom.services.classroom import ClassroomError
from learning.picker import recommend

CPU_LEVEL = "normal"
PLAYERS = 4  # the table's size when the game allows it (a pair game gets its 2)


def assignment_table_create(
    *,
    student: AbstractBaseUser,
    assignment: Assignment,
    engine: str,
    options: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    ranked: bool = False,
) -> Table:
    """A table of the assignment's class, linked to the assignment (one transaction).

    ``ValueError`` / ``games.services.tables.TableError`` as ``table_create`` raises them.
    """
    with transaction.atomic():
        table = table_create(
            user=student,
            engine=engine,
            options=options,
            seats=seats,
            classroom=assignment.classroom,
            ranked=ranked,
        )
        AssignmentTable.objects.create(assignment=assignment, table=table)
    return table


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
    return assignment_table_create(
        student=student, assignment=assignment, engine=engine, options=options, seats=seats
    )


def assignment_table_replay(*, source: Table, table: Table, user: AbstractBaseUser) -> None:
    """ "Play again" made ``table`` of ``source``: it counts for the same assignment, while
    ``user`` is still in the assignment's class (``games.signals.table_replayed``)."""
    link = AssignmentTable.objects.filter(
        table=source, assignment__classroom__memberships__student=user
    ).first()
    if link is not None:
        AssignmentTable.objects.create(assignment_id=link.assignment_id, table=table)


def _game_of(*, student, assignment: Assignment, now: datetime) -> tuple[str, dict]:
    if not assignment.is_recommended and assignment.engine in ENGINES:
        return assignment.engine, dict(assignment.options or {})
    recs = recommend(student, now=now)
    chosen = next((r for r in recs if r.assignment_id == assignment.pk), recs[0] if recs else None)
    if chosen is None:
        raise ClassroomError(_("No game can be recommended right now."))
    return chosen.engine, {**chosen.options, "prompts": "new", "romaji": "hover"}
