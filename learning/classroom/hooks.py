"""What the classroom plugs into the layers below it (registered in ClassroomConfig.ready()).

`games` and `learning` never import the classroom; they ask through these:

- the class scope of games/hooks.py (`ClassroomScope`): classes of a user, who teaches whom,
  a student's assignment by id: table access, lobby lists and the create-table form;
- the lobby panel of games/hooks.py (`assignments_panel`): a student's open assignments;
- `post_delete` of a class or an assignment (`tables_unlink_*`): the tables keep their games
  and lose the id (games.Table holds plain ids, not foreign keys, to the classroom);
- games.signals.game_finished (`refresh_after_game`): refresh the dashboards' summary rows
  of the players' classes once the game's last move is committed;
- the result panel of games/hooks.py (`assignments_result_panel`): under a finished game,
  whether it counted for the student's assignments, and a button for one it did not;
- the picker's "assignments first" rule (`picker_assignments`): a student's open assignments
  as `learning.picker.AssignmentInfo`, registered with the picker's registration point.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy

from games.models import Table
from kanagame.accounts.links import SignInLink
from learning.classroom.labels import assignment_game, assignment_name
from learning.classroom.models import Assignment, Classroom, Membership
from learning.classroom.selectors import assignments_open_for, table_counted_for
from learning.classroom.tasks import refresh_summaries_after_game
from learning.picker import AssignmentInfo


def _is_teacher(user) -> bool:
    profile = getattr(user, "profile", None)
    return bool(profile and profile.is_teacher)


class ClassroomScope:
    """games.hooks.ClassScope answered from the classroom's models."""

    def classes_of(self, user) -> QuerySet[Classroom]:
        if _is_teacher(user):
            return Classroom.objects.filter(teacher=user)
        return Classroom.objects.filter(memberships__student=user)

    def in_class(self, user, class_id: int) -> bool:
        return Classroom.objects.filter(
            Q(teacher=user) | Q(memberships__student=user), pk=class_id
        ).exists()

    def teaches(self, user, class_id: int) -> bool:
        return Classroom.objects.filter(pk=class_id, teacher=user).exists()

    def students_of(self, teacher) -> QuerySet:
        return Membership.objects.filter(classroom__teacher=teacher).values("student_id")

    def assignment_for(self, user, assignment_id: int) -> Assignment | None:
        return (
            Assignment.objects.filter(pk=assignment_id, classroom__memberships__student=user)
            .select_related("classroom")
            .first()
        )

    def class_names(self, class_ids: Iterable[int]) -> dict[int, str]:
        return dict(Classroom.objects.filter(pk__in=list(class_ids)).values_list("pk", "name"))


def tables_unlink_class(sender, *, instance: Classroom, **kwargs) -> None:
    """A deleted class: its tables stay (classmates' games are kept) without a class."""
    Table.objects.filter(classroom_id=instance.pk).update(classroom_id=None)


def tables_unlink_assignment(sender, *, instance: Assignment, **kwargs) -> None:
    """A deleted assignment: its tables stay, linked to no assignment."""
    Table.objects.filter(assignment_id=instance.pk).update(assignment_id=None)


def assignments_panel(user) -> tuple[str, dict] | None:
    """The lobby's "Your assignments" block, a one-tap button that plays each."""
    rows = [
        {"assignment": a, "label": assignment_name(a), "game": assignment_game(a)}
        for a in assignments_open_for(student=user)
    ]
    if not rows:
        return None
    return "classroom/lobby_assignments.html", {"assignments": rows}


def assignments_result_panel(user, table: Table) -> tuple[str, dict] | None:
    """Under a finished game: "This game counted for your assignment…" (with the progress),
    or, when it counted for none of the student's open assignments, that it did not."""
    if table.status != "finished" or _is_teacher(user):
        return None
    counted, missed = table_counted_for(student=user, table=table)
    if not counted and not missed:
        return None
    label = {item.assignment.pk: assignment_name(item.assignment) for item in counted + missed}
    context = {"counted": counted, "missed": [] if counted else missed, "labels": label}
    return "classroom/result_assignments.html", context


def refresh_after_game(sender, *, table_id: int, **kwargs) -> None:
    """games.signals.game_finished: the players' class summaries, after the commit."""
    refresh_summaries_after_game.delay_on_commit(table_id)


def picker_assignments(*, learner, now: datetime) -> list[AssignmentInfo]:
    """The picker's "assignments first" rule: the learner's open assignments."""
    return [
        AssignmentInfo(
            id=a.pk,
            engine=a.engine,
            options=dict(a.options or {}),
            script=a.script,
            due_label=formats.date_format(timezone.localtime(a.due_at), "DATE_FORMAT"),
            title=a.title,
        )
        for a in assignments_open_for(student=learner, now=now)
    ]


def class_syllabus(*, learner) -> list[str]:
    """learning's syllabus source: the scripts each of the learner's classes learns."""
    return list(
        Classroom.objects.filter(memberships__student=learner).values_list("syllabus", flat=True)
    )


# the way into a class, on the sign-in pages of accounts (kanagame/accounts/links.py)
SIGNIN_LINKS = (
    SignInLink(
        page="login",
        url_name="join",
        lead=gettext_lazy("Students:"),
        text=gettext_lazy("join your class with its code"),
    ),
    SignInLink(page="signup", url_name="join", text=gettext_lazy("Join a class")),
)


def my_data_panel(user) -> tuple[str, dict]:
    """The learner dashboard's "My data" section: the classroom's export and deletion pages."""
    return "classroom/my_data_panel.html", {}
