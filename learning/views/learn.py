"""Learner pages: the dashboard (/learn/), the lesson (/learn/lesson/), the warm-up quiz
(/learn/quiz/, where a kana may be asked in writing: strokes drawn on a canvas, posted as
JSON in the ``strokes`` field), prompt answers.

Thin views: parse, call one service or selector, render. Every form works without
JavaScript (POST, then redirect back); with htmx the same views answer with a partial.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.params import BadParam, id_param, optional_id_param
from kanagame.accounts.permissions import learner_required
from learning import charts, kana_table, selectors
from learning.dashboard import dashboard_for, dashboard_panels
from learning.models import SyllabusChoice
from learning.services import lesson as lesson_service
from learning.services import quiz as quiz_service
from learning.services import writing as writing_service
from learning.services.play import (
    PromptError,
    feedback_reveals,
    prompt_displayed,
    prompt_result,
    prompt_view,
    prompts_pending,
)
from learning.services.play import (
    prompt_answer as prompt_answer_service,
)
from learning.tasks import fit_parameters


@learner_required
@require_GET
def kana_detail(request: HttpRequest, script: str, kana_id: str) -> HttpResponse:
    """One kana: its stroke order (KanjiVG), its sound, the learner's memory of it and the
    words on the games' cards that use it."""
    lang = (get_language() or "en").split("-")[0]
    try:
        detail = selectors.kana_detail_for(
            learner=request.user, kana_id=kana_id, script=script, lang=lang
        )
    except KeyError:
        raise Http404(_("There is no such kana.")) from None
    return render(request, "learn/kana.html", {"nav_section": "learn", "detail": detail})


@learner_required
def dashboard(request: HttpRequest) -> HttpResponse:
    return dashboard_render(request)


def dashboard_render(request: HttpRequest, *, syllabus_error: str = "", status: int = 200):
    """The dashboard, with the syllabus form's error when its POST was refused."""
    data = dashboard_for(learner=request.user)
    return render(
        request,
        "learn/dashboard.html",
        {
            "nav_section": "learn",
            "dash": data,
            "chart": charts.bar_chart(data.history),
            "syllabus_error": syllabus_error,
            "syllabus_choices": SyllabusChoice.choices,
            "panels": dashboard_panels(request.user),
        },
        status=status,
    )


@learner_required
@require_POST
def parameters_refit(request: HttpRequest) -> HttpResponse:
    """On demand: fit the learner's FSRS parameters (a Celery task; inline without Redis)."""
    fit_parameters.delay(request.user.pk)
    messages.success(request, _("Your memory model is being updated."))
    return redirect("learn:dashboard")


def _feedback(result, *, masked: bool = False) -> dict:
    """What the page says after an answer; ``masked``: only right or wrong, since the
    reading or glyph would answer the question shown next (``feedback_reveals``)."""
    return {
        "masked": masked,
        "correct": result.correct,
        "glyph": result.glyph,
        "romaji": result.romaji,
        "given": result.given,
        "solution": result.solution,  # card prompts: what the answer begins
        **_writing_feedback(result),
    }


def _writing_feedback(result) -> dict:
    """A written answer: the checker's verdict in words, and the stroke to show in the
    reference drawing (none for a stroke too many: it is not one of the kana's)."""
    verdict = result.verdict
    if not verdict:
        return {"written": False}
    reason, stroke = verdict.get("reason", ""), verdict.get("stroke", 0)
    drawing = [
        {
            "n": n,
            "points": " ".join(f"{x},{y}" for x, y in points),
            "start": points[0],
            "wrong": n == stroke and reason not in ("", "missing"),
        }
        for n, points in enumerate(verdict.get("drawing") or [], start=1)
        if points
    ]
    return {
        "written": True,
        "verdict": writing_service.verdict_sentence(verdict),
        "wrong_stroke": stroke if reason not in ("", "extra") else 0,
        "drawing": drawing,
    }


def _safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@learner_required
@require_POST
def prompt_answer(request: HttpRequest, prompt_id: int) -> HttpResponse:
    """Answer a recognition prompt shown on the board (htmx: the partial; else redirect)."""
    answer = request.POST.get("answer", "")
    table_id = request.POST.get("table_id", "")
    try:
        result = prompt_answer_service(user=request.user, prompt_id=prompt_id, answer=answer)
    except PromptError as error:
        if request.htmx:
            return _prompts_partial(request, table_id, error=error.message, status=error.status)
        return render(
            request,
            "learn/prompt_error.html",
            {"message": error.message, "back": _safe_next(request, reverse("learn:dashboard"))},
            status=error.status,
        )
    feedback = _feedback(result, masked=feedback_reveals(user=request.user, result=result))
    if request.htmx:
        return _prompts_partial(request, str(result.table_id or ""), feedback=feedback)
    if feedback["masked"]:  # the next question asks about the same reading or glyph
        if result.correct:
            messages.success(request, _("Right."))
        else:
            messages.error(request, _("Not quite."))
    elif result.solution:  # a card question: the answer, then the text it begins
        level = messages.SUCCESS if result.correct else messages.ERROR
        messages.add_message(request, level, _card_feedback(result))
    elif result.correct:
        messages.success(request, _("Right: %(glyph)s is %(romaji)s.") % _feedback(result))
    else:
        messages.error(
            request,
            _("Not quite: %(glyph)s is %(romaji)s (you answered %(given)s).") % _feedback(result),
        )
    return redirect(_safe_next(request, reverse("learn:dashboard")))


def _card_feedback(result) -> str:
    values = _feedback(result)
    if result.correct:
        said = _("Right: it begins with %(glyph)s (%(romaji)s).") % values
    else:
        said = _("Not quite: it begins with %(glyph)s (%(romaji)s), not %(given)s.") % values
    return f"{said} {result.solution}"


def _prompts_partial(
    request: HttpRequest, table_id: str, *, feedback=None, error: str = "", status: int = 200
) -> HttpResponse:
    try:
        table = optional_id_param(table_id)
    except BadParam:
        return HttpResponse(_("No such table."), status=400)
    prompts = prompts_pending(user=request.user, table_id=table) if table is not None else []
    return render(
        request,
        "learn/partials/table_prompts.html",
        {
            "prompts": prompts,
            "prompt_feedback": feedback,
            "prompt_error": error,
            "table_id": table_id,
            "prompts_next": request.POST.get("next", ""),
        },
        status=status,
    )


@learner_required
@require_http_methods(["GET", "POST"])
def quiz(request: HttpRequest) -> HttpResponse:
    """GET: the current question (or the start screen); POST: start a run or answer."""
    feedback = None
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "start":
            quiz_service.quiz_start(learner=request.user)
            if not request.htmx:
                return redirect("learn:quiz")
        elif action == "answer":
            try:
                prompt_id = id_param(request.POST.get("prompt", ""))
            except BadParam:
                return _quiz_render(request, error=_("No such question."), status=400)
            try:
                result = prompt_answer_service(
                    user=request.user,
                    prompt_id=prompt_id,
                    # a written question posts its strokes (JSON) in "strokes"
                    answer=request.POST.get("strokes", request.POST.get("answer", "")),
                )
            except PromptError as error:
                return _quiz_render(request, error=error.message, status=error.status)
            if not request.htmx:
                return redirect(f"{reverse('learn:quiz')}?last={result.prompt_id}")
            feedback = _feedback(result, masked=feedback_reveals(user=request.user, result=result))
            feedback["run"] = result.prompt_id
        elif action == "cant_draw":  # a written question, asked by typing instead
            try:
                writing_service.writing_skip(
                    user=request.user, prompt_id=id_param(request.POST.get("prompt", ""))
                )
            except BadParam:
                return _quiz_render(request, error=_("No such question."), status=400)
            except writing_service.WritingError as error:
                return _quiz_render(request, error=error.message, status=error.status)
            if not request.htmx:
                return redirect("learn:quiz")
        else:
            return _quiz_render(request, error=_("Unknown action."), status=400)
    elif "last" in request.GET:
        try:
            last_id = id_param(request.GET["last"])
        except BadParam:
            return _quiz_render(request, error=_("No such question."), status=400)
        last = quiz_service.quiz_answered(learner=request.user, prompt_id=last_id)
        if last is not None:
            result = prompt_result(last)
            feedback = _feedback(result, masked=feedback_reveals(user=request.user, result=result))
            feedback["run"] = last.pk
    return _quiz_render(request, feedback=feedback)


def _quiz_render(request: HttpRequest, *, feedback=None, error: str = "", status: int = 200):
    current = quiz_service.quiz_current(learner=request.user)
    if current is not None:  # on screen from now: the response time starts here
        prompt_displayed(prompt=current, at=timezone.now())
    run_started = current.shown_at if current else None
    if run_started is None and feedback and feedback.get("run"):
        last = quiz_service.quiz_answered(learner=request.user, prompt_id=feedback["run"])
        run_started = last.shown_at if last else None
    progress = (
        quiz_service.quiz_progress(learner=request.user, run_started=run_started)
        if run_started
        else None
    )
    context = {
        "nav_section": "learn",
        "question": prompt_view(current) if current else None,
        "feedback": feedback,
        "error": error,
        "progress": progress,
        "due_count": selectors.kana_due_count_for(learner=request.user) if current is None else 0,
    }
    template = "learn/quiz.html#quiz-card" if request.htmx else "learn/quiz.html"
    return render(request, template, context, status=status)


@learner_required
@require_http_methods(["GET", "POST"])
def lesson(request: HttpRequest) -> HttpResponse:
    """Today's lesson: one new kana per card (reading, sound, stroke order). POST ``seen``
    (the card's kana and script) moves to the next card, then redirects back (PRG)."""
    if request.method == "POST":
        try:
            lesson_service.lesson_seen(
                learner=request.user,
                kana_id=request.POST.get("kana", ""),
                script=request.POST.get("script", ""),
            )
        except lesson_service.LessonError as error:
            return render(
                request,
                "learn/prompt_error.html",
                {"message": error.message, "back": reverse("learn:lesson")},
                status=error.status,
            )
        return redirect("learn:lesson")
    upcoming = lesson_service.lesson_kana_for(learner=request.user)
    taught = lesson_service.lesson_taught_today(learner=request.user)
    card = kana_table.info(*upcoming[0]) if upcoming else None
    context = {
        "nav_section": "learn",
        "card": card,
        "number": len(taught) + 1,
        "total": len(taught) + len(upcoming),
        "taught": [kana_table.info(*pair) for pair in taught],
        # nothing to teach now though kana are left: the adaptive lesson waits (issue 27)
        "left": lesson_service.lesson_syllabus_left(learner=request.user)
        if not upcoming and not taught
        else 0,
    }
    return render(request, "learn/lesson.html", context)
