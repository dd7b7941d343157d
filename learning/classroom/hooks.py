"""What the classroom plugs into the layers below it (registered in ClassroomConfig.ready()).

`games` and `learning` never import the classroom; they ask through these (classes and
memberships are below them all, in kanagame.classes: they read those directly):

- the lobby panel of games/hooks.py (`assignments_panel`): a student's open assignments;
- games.signals.table_replayed (`replay_linked`): "Play again" of an assignment's table
  links the new table to the same assignment (the link rows are the classroom's);
- games.signals.game_finished (`refresh_after_game`): refresh the dashboards' summary rows
  of the players' classes once the game's last move is committed (in eager mode, once its
  response is sent: kanagame/after_response.py);
- the result panel of games/hooks.py (`assignments_result_panel`): under a finished game,
  whether it counted for the student's assignments, and a button for one it did not;
- the picker's "assignments first" rule (`picker_assignments`): a student's open assignments
  as `learning.picker.AssignmentInfo`, registered with the picker's registration point.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import formats, timezone
from django.utils.translation import gettext_lazy

from games.models import Table
from kanagame.accounts.links import SignInLink
from kanagame.after_response import delay_on_commit_after_response
from learning.classroom.labels import assignment_game, assignment_name
from learning.classroom.models import Classroom
from learning.classroom.selectors import assignments_open_for, table_counted_for
from learning.classroom.services.play import assignment_table_replay
from learning.classroom.tasks import refresh_summaries_after_game
from learning.picker import AssignmentInfo


def _is_teacher(user) -> bool:
    profile = getattr(user, "profile", None)
    return bool(profile and profile.is_teacher)


def replay_linked(sender, *, source: Table, table: Table, user, **kwargs) -> None:
    """games.signals.table_replayed: "Play again" of an assignment's table counts for it too."""
    assignment_table_replay(source=source, table=table, user=user)


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
    """games.signals.game_finished: the players' class summaries, after the commit (and, in
    eager mode, after the last move's response: no page of the move shows them)."""
    delay_on_commit_after_response(refresh_summaries_after_game, table_id)


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
