"""Assignments: a game with the lobby's options (games.forms.TableCreateForm, without the seats)
or "recommended by the picker", a script, a due date and a goal."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from games.display import game_title
from games.engines import ENGINES
from games.forms import TableCreateForm
from games.services.tables import table_options_validate
from kanagame.accounts.permissions import teacher_required
from learning.classroom.models import Assignment, GoalKind
from learning.classroom.models.assignments import RECOMMENDED, AssignmentScript
from learning.classroom.services.classroom import assignment_create, assignment_delete

from .common import own_classroom


def engine_choices() -> list[tuple[str, str]]:
    return [(RECOMMENDED, _("Recommended by the picker, for each student"))] + [
        (name, game_title(name)) for name in ENGINES
    ]


class AssignmentGameForm(TableCreateForm):
    """The lobby's create-table form without seats: students pick opponents when they play."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in self.seat_fields:
            del self.fields[name]
        self.seat_fields = []

    def clean(self):
        data = forms.Form.clean(self)
        if self.errors:
            return data
        # the table options this game shows (not its UNUSED_TABLE_OPTIONS; card_prompts only
        # where the game asks about its cards), as in the lobby
        options = {name: data[name] for name in [*self.engine_fields, *self.table_fields]}
        try:
            self.cleaned_options = table_options_validate(eng=self.eng, options=options)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return data


class AssignmentForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Title (optional)"), max_length=120, required=False)
    script = forms.ChoiceField(
        label=gettext_lazy("Script"),
        choices=AssignmentScript.choices,
        help_text=gettext_lazy("The picker chooses a game in this script for each student."),
    )
    due_at = forms.DateTimeField(
        label=pgettext_lazy("date an assignment is due", "Due"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    goal_kind = forms.ChoiceField(label=gettext_lazy("Goal"), choices=GoalKind.choices)
    goal_value = forms.IntegerField(label=gettext_lazy("Goal amount"), min_value=1, max_value=1000)

    def __init__(self, *args, recommended: bool, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not recommended:  # the game form's own script field is used
            del self.fields["script"]

    def clean_due_at(self):
        due_at = self.cleaned_data["due_at"]
        if due_at <= timezone.now():
            raise forms.ValidationError(_("The due date must be in the future."))
        return due_at


def _forms(request: HttpRequest, classroom, engine: str):
    data = request.POST if request.method == "POST" else None
    recommended = engine == RECOMMENDED
    initial = {
        "script": classroom.default_script,
        "goal_kind": GoalKind.GAMES,
        "goal_value": 3,
        "due_at": (timezone.localtime() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M"),
    }
    form = AssignmentForm(data, initial=initial, recommended=recommended)
    game_form = None
    if not recommended:
        game_form = AssignmentGameForm(
            data, engine=engine, prefix="game", initial={"script": classroom.default_script}
        )
    return form, game_form


def _page(request, classroom, engine, form, game_form, status=200):
    context = {
        "classroom": classroom,
        "engine": engine,
        "engines": engine_choices(),
        "form": form,
        "game_form": game_form,
        "assignments": Assignment.objects.filter(classroom=classroom).order_by("-due_at", "-id"),
    }
    return render(request, "teach/assignments.html", context, status=status)


@teacher_required
@require_http_methods(["GET", "POST"])
def teach_assignments(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = own_classroom(request, class_id)
    engine = request.POST.get("engine") or request.GET.get("engine") or RECOMMENDED
    if engine not in dict(engine_choices()):
        return HttpResponse(_("Unknown game."), status=400)
    form, game_form = _forms(request, classroom, engine)
    if request.method == "GET":
        return _page(request, classroom, engine, form, game_form)
    valid = form.is_valid() & (game_form is None or game_form.is_valid())
    if not valid:
        return _page(request, classroom, engine, form, game_form, status=400)
    data = form.cleaned_data
    options = game_form.cleaned_options if game_form else {}
    assignment_create(
        classroom=classroom,
        title=data["title"],
        engine=engine,
        options=options,
        script=options.get("script", data.get("script")),
        due_at=data["due_at"],
        goal_kind=data["goal_kind"],
        goal_value=data["goal_value"],
    )
    messages.success(request, _("Assignment set."))
    return redirect("teach_assignments", class_id=classroom.pk)


@teacher_required
@require_POST
def teach_assignment_delete(
    request: HttpRequest, class_id: int, assignment_id: int
) -> HttpResponse:
    classroom = own_classroom(request, class_id)
    assignment = get_object_or_404(Assignment, pk=assignment_id, classroom=classroom)
    assignment_delete(assignment=assignment)
    messages.success(request, _("Assignment deleted."))
    return redirect("teach_assignments", class_id=classroom.pk)
