"""The roster: paste names and print login cards; rename, reset, remove, delete a student."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from kanagame.accounts.permissions import teacher_required
from kanagame.classes.selectors import roster_for
from learning.charts import bar_chart
from learning.classroom.selectors import student_detail
from learning.classroom.services.classroom import (
    NotYourStudent,
    membership_remove,
    roster_create,
    student_can_be_deleted_by,
    student_can_be_renamed_by,
    student_delete,
    student_is_managed_by,
    student_password_reset,
    student_rename,
)

from .common import class_student, own_classroom


class RosterForm(forms.Form):
    names = forms.CharField(
        label=gettext_lazy("Names, one per line"),
        widget=forms.Textarea(attrs={"rows": 10}),
        help_text=gettext_lazy("First names or nicknames only: no email or other personal data."),
    )


def _roster_page(request, classroom, form, status=200) -> HttpResponse:
    students = [m.student for m in roster_for(classroom=classroom)]
    for student in students:
        student.deletable = student_can_be_deleted_by(teacher=request.user, student=student)
        student.resettable = student_is_managed_by(teacher=request.user, student=student)
        student.renamable = student_can_be_renamed_by(teacher=request.user, student=student)
    context = {"classroom": classroom, "students": students, "form": form}
    return render(request, "teach/roster.html", context, status=status)


@never_cache
@teacher_required
@require_http_methods(["GET", "POST"])
def teach_roster(request: HttpRequest, class_id: int) -> HttpResponse:
    """GET: the students and the paste form. POST: create accounts, show the cards once."""
    classroom = own_classroom(request, class_id)
    if request.method == "GET":
        return _roster_page(request, classroom, RosterForm())
    form = RosterForm(request.POST)
    if not form.is_valid():
        return _roster_page(request, classroom, form, status=400)
    try:
        cards = roster_create(classroom=classroom, names_text=form.cleaned_data["names"])
    except ValidationError as exc:
        form.add_error("names", exc.messages)
        return _roster_page(request, classroom, form, status=400)
    # Rendered, not redirected: the passwords exist only in this response.
    return render(request, "teach/cards.html", {"classroom": classroom, "cards": cards})


@never_cache
@teacher_required
@require_POST
def teach_student_action(request: HttpRequest, class_id: int, student_id: int) -> HttpResponse:
    classroom = own_classroom(request, class_id)
    student = class_student(classroom, student_id)
    action = request.POST.get("action")
    try:
        if action == "rename":
            student_rename(
                classroom=classroom,
                student=student,
                display_name=request.POST.get("name", ""),
                teacher=request.user,
            )
        elif action == "reset":
            password = student_password_reset(
                classroom=classroom, student=student, teacher=request.user
            )
    except NotYourStudent as exc:
        messages.error(request, " ".join(exc.messages))
        return _roster_page(request, classroom, RosterForm(), status=403)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("teach_roster", class_id=classroom.pk)
    if action == "rename":
        messages.success(request, _("Name changed."))
    elif action == "reset":
        card = {"display_name": student.profile.name, "username": student.username,
                "password": password}  # fmt: skip
        return render(request, "teach/cards.html", {"classroom": classroom, "cards": [card]})
    elif action == "remove":
        membership_remove(classroom=classroom, student=student)
        messages.success(request, _("%(name)s left the class.") % {"name": student.profile.name})
    else:
        return HttpResponse(_("Unknown action."), status=400)
    return redirect("teach_roster", class_id=classroom.pk)


@teacher_required
@require_http_methods(["GET", "POST"])
def teach_student_delete(request: HttpRequest, class_id: int, student_id: int) -> HttpResponse:
    """A confirmation page, then a real delete of the account and all its data."""
    classroom = own_classroom(request, class_id)
    student = class_student(classroom, student_id)
    allowed = student_can_be_deleted_by(teacher=request.user, student=student)
    context = {"classroom": classroom, "student": student, "allowed": allowed}
    if request.method == "GET":
        return render(request, "teach/delete_student.html", context)
    if request.POST.get("confirm_name", "").strip() != student.username:
        context["error"] = _("Type the username exactly to confirm.")
        return render(request, "teach/delete_student.html", context, status=400)
    try:
        student_delete(teacher=request.user, student=student)
    except ValidationError as exc:
        context["error"] = " ".join(exc.messages)
        return render(request, "teach/delete_student.html", context, status=409)
    messages.success(request, _("The student's account and data were deleted."))
    return redirect("teach_roster", class_id=classroom.pk)


@teacher_required
def teach_student(request: HttpRequest, class_id: int, student_id: int) -> HttpResponse:
    """Drill-down: the student's kana, games, confusions and assignments, as the teacher sees."""
    classroom = own_classroom(request, class_id)
    student = class_student(classroom, student_id)
    detail = student_detail(classroom=classroom, student=student)
    chart = bar_chart(detail.learner_dashboard.history)
    context = {"classroom": classroom, "detail": detail, "dash": detail.learner_dashboard,
               "chart": chart,
               # the grid's kana link to the class's kana pages (learning/templatetags/kana_links)
               "kana_url_name": "teach_kana", "kana_url_args": [classroom.pk]}  # fmt: skip
    return render(request, "teach/student.html", context)
