"""Live tables of a class, polled by HTMX: 204 while nothing changed."""

from __future__ import annotations

import hashlib

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from learning.classroom.models import Classroom, Membership
from learning.classroom.selectors import class_live_tables


def _viewable_classroom(request: HttpRequest, class_id: int) -> Classroom:
    """The class's teacher, or one of its students; anyone else gets 404."""
    if not request.user.is_authenticated:
        raise Http404
    classroom = get_object_or_404(Classroom, pk=class_id)
    if classroom.teacher_id == request.user.pk:
        return classroom
    if Membership.objects.filter(classroom=classroom, student=request.user).exists():
        return classroom
    raise Http404


def _fingerprint(tables) -> str:
    raw = ";".join(f"{t.pk}:{t.version}:{t.status}:{len(t.seats.all())}" for t in tables)
    return hashlib.sha1(raw.encode(), usedforsecurity=False).hexdigest()[:16]


@never_cache
@require_GET
def teach_live(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = _viewable_classroom(request, class_id)
    tables = class_live_tables(classroom=classroom)
    fingerprint = _fingerprint(tables)
    if request.htmx and request.GET.get("v") == fingerprint:
        return HttpResponse(status=204)
    context = {
        "classroom": classroom,
        "tables": tables,
        "fingerprint": fingerprint,
        "is_teacher": classroom.teacher_id == request.user.pk,
    }
    template = "teach/live.html#live-tables" if request.htmx else "teach/live.html"
    return render(request, template, context)
