"""The class dashboard (/teach/<class>/) and the "refresh now" button."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from kanagame.accounts.permissions import teacher_required
from learning.classroom.selectors import STATE_SYMBOLS, class_dashboard, class_kana_detail
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


@teacher_required
@require_GET
def teach_kana(request: HttpRequest, class_id: int, script: str, kana_id: str) -> HttpResponse:
    """One kana for the class: its stroke order, its sound, every student's state of it and
    what the class read it as."""
    classroom = own_classroom(request, class_id)
    try:
        detail = class_kana_detail(classroom=classroom, kana_id=kana_id, script=script)
    except KeyError:
        raise Http404(_("There is no such kana.")) from None
    context = {"classroom": classroom, "detail": detail, "symbols": STATE_SYMBOLS}
    return render(request, "teach/kana.html", context)
