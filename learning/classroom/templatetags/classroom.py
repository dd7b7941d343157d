"""Template helpers of the classroom pages, and the students' assignments on the home page."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy, pgettext_lazy

from kanagame.classes.selectors import classrooms_of
from learning.classroom import labels
from learning.classroom.selectors import STATE_SYMBOLS, assignments_with_progress_for

register = template.Library()


@register.filter
def assignment_name(assignment) -> str:
    """The assignment's title, or its game in words (``learning.classroom.labels``)."""
    return labels.assignment_name(assignment)


@register.filter
def assignment_game(assignment) -> str:
    """The assignment's game, variant and options in words."""
    return labels.assignment_game(assignment)


@register.filter
def get_item(mapping: dict, key):
    return mapping.get(key, "")


STATE_LABELS = {
    "new": gettext_lazy("new"),
    "learning": gettext_lazy("learning"),
    "due": pgettext_lazy("kana state", "due"),  # due for review, not a deadline
    "mastered": gettext_lazy("mastered"),
}


@register.simple_tag
def heatmap_cells(states: list[str]) -> str:
    """One <td> per kana: a symbol and the state in words (colour is never the only signal).

    Built in Python: a 35 x 71 heatmap through the template engine costs ~100 ms.
    """
    cells = {
        state: format_html(
            '<td class="st st-{}">{}<span class="visually-hidden"> {}</span></td>',
            state,
            STATE_SYMBOLS[state],
            label,
        )
        for state, label in STATE_LABELS.items()
    }
    return mark_safe("".join(cells[state] for state in states))  # noqa: S308 - escaped above


@register.inclusion_tag("teach/partials/student_assignments.html", takes_context=True)
def student_assignments(context) -> dict:
    """The viewer's open assignments with their progress, and their classes' live tables."""
    user = context["request"].user
    if not user.is_authenticated:
        return {"items": [], "classes": []}
    return {
        "items": assignments_with_progress_for(student=user),
        "classes": list(classrooms_of(student=user)),
    }
