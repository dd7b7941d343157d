"""Assignments: set one (a game and its options from the lobby's form, or the picker's choice)."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_http_methods, require_POST

from learning.models import Assignment, GoalKind, Script
from learning.models.assignments import RECOMMENDED
from learning.permissions import teacher_required
from learning.services.classroom import assignment_create, assignment_delete

from .common import own_classroom

# Options the teacher does not set for a whole class (seat numbers, stacked deals).
HIDDEN_OPTIONS = {"setup", "first", "script"}


def _engine_choices() -> list[tuple[str, str]]:
    from games.engines import ENGINES

    return [(RECOMMENDED, _("Recommended by the picker, for each student"))] + [
        (name, name) for name in sorted(ENGINES)
    ]


def _option_field(spec) -> forms.Field:
    """The lobby's form field for one engine Option (choice, int or bool)."""
    common = {"label": spec.label, "help_text": spec.help, "initial": spec.default}
    if spec.kind == "choice":
        labels = spec.choice_labels or spec.choices
        return forms.ChoiceField(choices=list(zip(spec.choices, labels, strict=True)), **common)
    if spec.kind == "int":
        return forms.IntegerField(min_value=spec.min, max_value=spec.max, **common)
    return forms.BooleanField(required=False, **common)


class AssignmentForm(forms.Form):
    title = forms.CharField(label=_lazy("Title (optional)"), max_length=120, required=False)
    engine = forms.ChoiceField(label=_lazy("Game"))
    script = forms.ChoiceField(label=_lazy("Script"), choices=Script.choices)
    due_at = forms.DateTimeField(
        label=_lazy("Due"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    goal_kind = forms.ChoiceField(label=_lazy("Goal"), choices=GoalKind.choices)
    goal_value = forms.IntegerField(label=_lazy("Goal amount"), min_value=1, max_value=1000)

    def __init__(self, *args, engine: str = RECOMMENDED, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["engine"].choices = _engine_choices()
        self.engine_name = engine if engine in dict(_engine_choices()) else RECOMMENDED
        self.option_names: list[str] = []
        if self.engine_name != RECOMMENDED:
            from games.engines import get_engine

            for spec in get_engine(self.engine_name).OPTIONS:
                if spec.name not in HIDDEN_OPTIONS:
                    self.fields[f"opt_{spec.name}"] = _option_field(spec)
                    self.option_names.append(spec.name)

    def option_fields(self):
        return [self[f"opt_{name}"] for name in self.option_names]

    def clean(self):
        data = super().clean()
        if data.get("engine") and data["engine"] != self.engine_name:
            raise ValidationError(_("Choose the game first, then its options."))
        options = {name: data.get(f"opt_{name}") for name in self.option_names}
        if self.engine_name != RECOMMENDED:
            from games.engines import get_engine
            from games.services.tables import table_options_validate

            try:
                options = table_options_validate(
                    eng=get_engine(self.engine_name),
                    options={**options, "script": data.get("script", "hiragana")},
                )
            except ValueError as exc:
                raise ValidationError(str(exc)) from exc
        data["options"] = options if self.engine_name != RECOMMENDED else {}
        if data.get("due_at") and data["due_at"] <= timezone.now():
            self.add_error("due_at", _("The due date must be in the future."))
        return data


def _page(request, classroom, form, status=200):
    assignments = Assignment.objects.filter(classroom=classroom).order_by("-due_at", "-id")
    context = {"classroom": classroom, "form": form, "assignments": assignments}
    return render(request, "teach/assignments.html", context, status=status)


@teacher_required
@require_http_methods(["GET", "POST"])
def teach_assignments(request: HttpRequest, class_id: int) -> HttpResponse:
    classroom = own_classroom(request, class_id)
    engine = request.POST.get("engine") or request.GET.get("engine") or RECOMMENDED
    if request.method == "GET":
        initial = {
            "engine": engine,
            "script": classroom.default_script,
            "goal_kind": GoalKind.GAMES,
            "goal_value": 3,
            "due_at": (timezone.localtime() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M"),
        }
        return _page(request, classroom, AssignmentForm(initial=initial, engine=engine))
    form = AssignmentForm(request.POST, engine=engine)
    if not form.is_valid():
        return _page(request, classroom, form, status=400)
    data = form.cleaned_data
    assignment_create(
        classroom=classroom,
        title=data["title"],
        engine=data["engine"],
        options=data["options"],
        script=data["script"],
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
