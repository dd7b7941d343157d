"""Classes: the list, creating one, its settings, join code and open/closed state."""

from __future__ import annotations

from urllib.parse import urlencode

import segno
from django import forms
from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from kanagame.accounts.permissions import teacher_required
from kanagame.classes.selectors import classrooms_taught_by
from learning.classroom.models import Classroom
from learning.classroom.services.classroom import (
    classroom_code_regenerate,
    classroom_create,
    classroom_set_open,
    classroom_update,
)

from .common import own_classroom


class _SyllabusOptional:
    """A form posted without ``syllabus`` (an older page) keeps the class's current choice."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["syllabus"].required = False

    def clean_syllabus(self):
        return self.cleaned_data.get("syllabus") or self.instance.syllabus


class ClassroomForm(_SyllabusOptional, forms.ModelForm):
    class Meta:
        model = Classroom
        fields = ["name", "level", "default_script", "syllabus"]
        help_texts = {"level": gettext_lazy("For example: beginners, year 7, JLPT N5.")}


class ClassroomSettingsForm(_SyllabusOptional, forms.ModelForm):
    class Meta:
        model = Classroom
        fields = ["name", "level", "default_script", "syllabus", "is_open"]


@teacher_required
@require_http_methods(["GET", "POST"])
def teach_home(request: HttpRequest) -> HttpResponse:
    form = ClassroomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        classroom = classroom_create(teacher=request.user, **form.cleaned_data)
        messages.success(request, _("Class created. Its join code is %(code)s.")
                         % {"code": classroom.join_code_display})  # fmt: skip
        return redirect("teach_class", class_id=classroom.pk)
    classes = classrooms_taught_by(teacher=request.user).annotate(
        student_count=Count("memberships")
    )
    status = 400 if request.method == "POST" else 200
    return render(request, "teach/home.html", {"form": form, "classes": classes}, status=status)


@teacher_required
@require_http_methods(["GET", "POST"])
def teach_class_settings(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = own_classroom(request, class_id)
    form = ClassroomSettingsForm(request.POST or None, instance=classroom)
    if request.method == "POST":
        if not form.is_valid():
            return _settings_page(request, classroom, form, status=400)
        classroom_update(classroom=classroom, **form.cleaned_data)
        messages.success(request, _("Class saved."))
        return redirect("teach_class_settings", class_id=classroom.pk)
    return _settings_page(request, classroom, form)


def _settings_page(request: HttpRequest, classroom, form, status: int = 200) -> HttpResponse:
    """The join code as a teacher projects it: the full address, the link with the code in it
    and a QR code of that link (segno, an SVG inlined as a data: image with its alt text)."""
    join_url = request.build_absolute_uri(reverse("join"))
    join_link = f"{join_url}?{urlencode({'code': classroom.join_code})}"
    context = {
        "form": form,
        "classroom": classroom,
        "join_url": join_url,
        "join_link": join_link,
        "join_qr": segno.make(join_link, error="m").svg_data_uri(scale=6, border=2),
    }
    return render(request, "teach/settings.html", context, status=status)


@teacher_required
@require_POST
def teach_class_code(request: HttpRequest, class_id: int) -> HttpResponse:
    """The clicked button picks the action: new code, close, or open again."""
    classroom = own_classroom(request, class_id)
    action = request.POST.get("action")
    if action == "regenerate":
        classroom_code_regenerate(classroom=classroom)
        messages.success(request, _("New join code: %(code)s. The old code no longer works.")
                         % {"code": classroom.join_code_display})  # fmt: skip
    elif action in ("close", "open"):
        classroom_set_open(classroom=classroom, is_open=action == "open")
        messages.success(
            request,
            _("The class is open to new students.") if classroom.is_open
            else _("The class is closed: its code no longer lets anyone join."),
        )  # fmt: skip
    else:
        return HttpResponse(_("Unknown action."), status=400)
    return redirect("teach_class_settings", class_id=classroom.pk)
