"""The daily session page (/daily/) of learners (self-learners and students): one view, GET
shows the current step, POST acts (the button's ``action``) then redirects back
(Post/Redirect/Get). A student's open assignments come first: the picker ranks them first,
so the session's game is the earliest-due assignment."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.display import game_title
from games.models import Table
from games.params import BadParam, id_param
from games.services.tables import table_url as url_for
from kanagame.accounts.models import Role
from kanagame.accounts.permissions import role_required
from learning.models.memory import DailyGoalKind
from learning.picker import recommend
from learning.services import daily as daily_service


@role_required(Role.SELF_LEARNER, Role.STUDENT)
@require_http_methods(["GET", "POST"])
def daily(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        return _act(request)
    session = daily_service.daily_session_current(learner=request.user)
    phase = daily_service.daily_phase(session=session)
    table_url = None
    if session.table_id:
        table = Table.objects.filter(pk=session.table_id).first()
        table_url = url_for(table) if table else None
    upcoming = _upcoming(request.user) if phase in ("lesson", "warmup", "game") else []
    context = {
        "nav_section": "daily",
        "next_game": upcoming[0] if upcoming else None,
        "assigned": [rec for rec in upcoming if rec["assignment_id"] is not None],
        "session": session,
        "phase": phase,
        "goal": daily_service.daily_goal_for(learner=request.user),
        "goal_kinds": DailyGoalKind.choices,
        "streak": daily_service.daily_streak(learner=request.user),
        "due_count": daily_service.daily_due_count(learner=request.user),
        "lesson_offered": daily_service.daily_lesson_offered(session=session, phase=phase),
        "warmup_ran": daily_service.daily_warmup_ran(session=session),
        "table_url": table_url,
        "summary": daily_service.daily_summary(learner=request.user, since=session.started_at)
        if phase == "summary"
        else None,
    }
    return render(request, "daily/daily.html", context)


def _upcoming(learner) -> list[dict]:
    """The picker's recommendations as the page shows them: open assignments first."""
    return [
        {"title": game_title(rec.engine), "reason": rec.reason, "assignment_id": rec.assignment_id}
        for rec in recommend(learner)
    ]


def _act(request: HttpRequest) -> HttpResponse:
    action = request.POST.get("action", "")
    try:
        # a refused action leaves nothing behind, not even the day's session row
        with transaction.atomic():
            session = daily_service.daily_session_get(learner=request.user)
            if action == "warmup":
                daily_service.daily_warmup_start(session=session)
                return redirect("learn:quiz")
            if action == "skip_warmup":
                daily_service.daily_warmup_skip(session=session)
            elif action == "play":
                return redirect(url_for(daily_service.daily_game_start(session=session)))
            elif action == "finish":
                daily_service.daily_finish(session=session)
            elif action == "goal":
                try:
                    value = id_param(request.POST.get("goal_value", ""))
                except BadParam:
                    raise daily_service.DailyError(_("The goal must be a whole number.")) from None
                daily_service.daily_goal_set(
                    learner=request.user, kind=request.POST.get("goal_kind", ""), value=value
                )
                messages.success(request, _("Daily goal saved."))
            else:
                raise daily_service.DailyError(_("Unknown action."))
    except daily_service.DailyError as error:
        return render(
            request,
            "learn/prompt_error.html",
            {"message": error.message, "back": request.path},
            status=error.status,
        )
    return redirect("learn:daily")
