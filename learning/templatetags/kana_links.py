"""``{% kana_href cell %}``: where a kana of the grid links to.

The grid (``learn/partials/kana_grid.html``) belongs to learning and knows no page above it: a
learner's grid links to their own kana page (``learn:kana``); a page that includes the grid
and wants its own kana pages names them in its context, ``kana_url_name`` with
``kana_url_args`` (the arguments before the script and the kana id). The teacher's student page
does so for the class's kana page.
"""

from __future__ import annotations

from django import template
from django.urls import reverse

register = template.Library()


@register.simple_tag(takes_context=True)
def kana_href(context, cell) -> str:
    name = context.get("kana_url_name") or "learn:kana"
    args = [*context.get("kana_url_args", ()), cell.script, cell.kana_id]
    return reverse(name, args=args)
