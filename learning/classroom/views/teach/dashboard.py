"""The class dashboard (/teach/<class>/) and the "refresh now" button."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from kanagame.accounts.permissions import teacher_required
from learning.classroom.selectors import STATE_SYMBOLS, class_dashboard
from learning.classroom.tasks import refresh_class_summaries

from .common import own_classroom


@teacher_required
@require_GET
def teach_class(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = own_classroom(request, class_id)
    script = request.GET.get("script")
    if script not in ("hiragana", "katakana"):
        script = classroom.default_script
    dashboard = class_dashboard(classroom=classroom, script=script)
    context = {"classroom": classroom, "dash": dashboard, "symbols": STATE_SYMBOLS}
    return render(request, "teach/class.html", context)


@teacher_required
@require_POST
def teach_refresh(request: HttpRequest, class_id: int) -> HttpResponse:
    """Queue a refresh of the class's summaries (runs inline without Redis)."""
    classroom = own_classroom(request, class_id)
    refresh_class_summaries.delay(classroom.pk)
    messages.success(request, _("The figures are being refreshed."))
    return redirect("teach_class", class_id=classroom.pk)
