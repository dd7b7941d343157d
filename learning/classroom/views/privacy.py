"""Learners own their data: download it (JSON) and delete the account (docs/privacy.md).

Everyone signed in downloads their own data; a self-learner deletes their own account after
confirming with their password. A teacher does both for the student accounts they manage
(created by them, in none of another teacher's classes); deleting is `teach_student_delete`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods

from kanagame.accounts.models import Role
from kanagame.accounts.permissions import role_required, teacher_required
from learning.classroom.selectors_privacy import personal_data_for
from learning.classroom.services.classroom import account_erase, student_is_managed_by
from learning.classroom.views.teach.common import class_student, own_classroom


def _download(user) -> JsonResponse:
    response = JsonResponse(
        personal_data_for(user=user), json_dumps_params={"ensure_ascii": False, "indent": 2}
    )
    filename = f"kanagame-{user.get_username()}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def account_data(request: HttpRequest) -> JsonResponse:
    """Everything Kanagame holds about the signed-in user, as a JSON file."""
    return _download(request.user)


@sensitive_post_parameters("password")
@role_required(Role.SELF_LEARNER)
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    """A confirmation page, then a real delete of the self-learner's account and data."""
    if request.method == "GET":
        return render(request, "classroom/account_delete.html")
    if not request.user.check_password(request.POST.get("password", "")):
        context = {"error": _("This is not your password: nothing was deleted.")}
        return render(request, "classroom/account_delete.html", context, status=400)
    user = request.user
    logout(request)
    account_erase(user=user)
    messages.success(request, _("Your account and all its data were deleted."))
    return redirect("home")


@teacher_required
@require_GET
def teach_student_data(request: HttpRequest, class_id: int, student_id: int) -> JsonResponse:
    """A teacher's copy of a student's data: only for student accounts they manage."""
    classroom = own_classroom(request, class_id)
    student = class_student(classroom, student_id)
    if not student_is_managed_by(teacher=request.user, student=student):
        raise PermissionDenied("not a student account this teacher manages")
    return _download(student)
