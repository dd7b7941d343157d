"""A student plays an assignment: one tap (/assignments/<id>/play/, POST), or the create-table
form of games filled with the teacher's settings (/assignments/<id>/new/<engine>/)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games.forms import TableCreateForm
from games.services.tables import TableError
from games.views.common import engine_name, engines_offered
from learning.classroom.models import Assignment
from learning.classroom.services.classroom import ClassroomError
from learning.classroom.services.play import assignment_table_create, assignment_table_start


def _assignment_of(request: HttpRequest, assignment_id: int) -> Assignment:
    """One of the student's classes' assignments; 404 for another class's, or none."""
    assignment = (
        Assignment.objects.filter(pk=assignment_id, classroom__memberships__student=request.user)
        .select_related("classroom")
        .first()
    )
    if assignment is None:  # another class's assignment, or none: the same answer
        raise Http404
    return assignment


@login_required
@require_POST
def assignment_play(request: HttpRequest, assignment_id: int) -> HttpResponse:
    """Nothing in the request but the assignment (and ``with=classmate``: a seat left open for
    a classmate): the teacher's settings are the table's."""
    assignment = _assignment_of(request, assignment_id)
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


@login_required
@require_http_methods(["GET", "POST"])
def assignment_table_new(request: HttpRequest, assignment_id: int, engine: str) -> HttpResponse:
    """games' create-table form, filled with the assignment's options and script, in the
    assignment's class; the table made is linked to the assignment."""
    if engine not in engines_offered():
        raise Http404
    assignment = _assignment_of(request, assignment_id)
    initial = {**(assignment.options or {}), "script": assignment.script}
    form = TableCreateForm(
        request.POST if request.method == "POST" else None,  # an empty POST is still bound
        engine=engine,
        classrooms=[assignment.classroom],
        prefix="t",
        initial=initial,
    )
    if request.method == "POST" and form.is_valid():
        try:
            table = assignment_table_create(
                student=request.user,
                assignment=assignment,
                engine=engine,
                options=form.cleaned_options,
                seats=form.seats_for(request.user),
                ranked=form.is_ranked,
            )
        except (ValueError, TableError) as exc:
            form.add_error(None, getattr(exc, "message", str(exc)))
        else:
            return redirect(table.get_absolute_url())
    context = {
        "form": form,
        "engine": engine,
        "engine_name": engine_name(engine),
        "assignment": assignment,
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "classroom/assignment_table_new.html", context, status=status)
