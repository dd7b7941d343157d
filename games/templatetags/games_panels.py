"""``{% lobby_panels %}``: the lobby blocks registered by the apps above games (games/hooks.py)."""

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from games.hooks import lobby_panels as registered_panels

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
