"""Template helpers of the classroom pages, and the students' assignments on the home page."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def get_item(mapping: dict, key):
    return mapping.get(key, "")


@register.inclusion_tag("teach/partials/student_assignments.html", takes_context=True)
def student_assignments(context) -> dict:
    """The viewer's open assignments with their progress, first thing on their home page."""
    from learning.selectors_classroom import assignments_with_progress_for

    user = context["request"].user
    items = assignments_with_progress_for(student=user) if user.is_authenticated else []
    return {"items": items}
