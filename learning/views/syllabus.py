"""The learner chooses the scripts they learn (/learn/syllabus/, a form on the dashboard)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from kanagame.accounts.permissions import learner_required
from learning.models import SyllabusChoice
from learning.services.syllabus import SyllabusChosenByTeacher, syllabus_set
from learning.views.learn import dashboard_render


@learner_required
@require_POST
def syllabus_choose(request: HttpRequest) -> HttpResponse:
    try:
        syllabus_set(learner=request.user, choice=request.POST.get("syllabus", ""))
    except ValueError:
        return dashboard_render(request, syllabus_error=_("Choose one of the options."), status=400)
    except SyllabusChosenByTeacher:
        error = _("Your teacher chose the scripts your class learns.")
        return dashboard_render(request, syllabus_error=error, status=409)
    label = SyllabusChoice(request.POST["syllabus"]).label
    messages.success(request, _("You now learn: %(choice)s.") % {"choice": label})
    return redirect("learn:dashboard")
