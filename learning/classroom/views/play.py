"""/assignments/<id>/play/ (POST): a student's one tap on an assignment starts its game."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from learning.classroom.models import Assignment
from learning.classroom.services.classroom import ClassroomError
from learning.classroom.services.play import assignment_table_start


@login_required
@require_POST
def assignment_play(request: HttpRequest, assignment_id: int) -> HttpResponse:
    """Nothing in the request but the assignment (and ``with=classmate``: a seat left open for
    a classmate): the teacher's settings are the table's."""
    assignment = (
        Assignment.objects.filter(pk=assignment_id, classroom__memberships__student=request.user)
        .select_related("classroom")
        .first()
    )
    if assignment is None:  # another class's assignment, or none: the same answer
        raise Http404
    try:
        table = assignment_table_start(
            student=request.user,
            assignment=assignment,
            classmate=request.POST.get("with") == "classmate",
        )
    except (ClassroomError, ValueError) as exc:
        message = exc.messages[0] if isinstance(exc, ClassroomError) else str(exc)
        return render(request, "classroom/play_error.html", {"message": message}, status=409)
    return redirect(table.get_absolute_url())
