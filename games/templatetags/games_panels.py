"""``{% lobby_panels %}`` and ``{% result_panels %}``: blocks registered by the apps above games
(games/hooks.py)."""

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from games.hooks import lobby_panels as registered_panels
from games.hooks import result_panels as registered_result_panels
from games.models import Table

register = template.Library()


@register.simple_tag(takes_context=True)
def lobby_panels(context) -> SafeString:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return mark_safe("")
    parts = [
        render_to_string(template_name, panel_context, request=request)
        for template_name, panel_context in registered_panels(user)
    ]
    return mark_safe("".join(parts))  # each part is a template rendered with autoescape


@register.simple_tag(takes_context=True)
def result_panels(context, code: str) -> SafeString:
    """Under a finished game's result: what the apps above games add for this player."""
    request = context.get("request")
    user = getattr(request, "user", None)
    table = Table.objects.filter(code=code).defer("state").first()
    if user is None or not user.is_authenticated or table is None:
        return mark_safe("")
    parts = [
        render_to_string(template_name, panel_context, request=request)
        for template_name, panel_context in registered_result_panels(user, table)
    ]
    return mark_safe("".join(parts))  # each part is a template rendered with autoescape
