"""``{% stroke_order glyph %}``: a kana's animated stroke order (KanjiVG), as inline SVG.

The strokes draw one after the other by CSS alone (``static/css/kanagame.css``, classes
``stroke-1``..``stroke-12``); a "draw again" checkbox restarts them, still without script.
"""

from __future__ import annotations

from typing import Any

from django import template

from learning.strokes import (
    ATTRIBUTION,
    ATTRIBUTION_URL,
    LICENCE_URL,
    VIEW_BOX,
    NoDrawing,
    strokes_of,
)

register = template.Library()


@register.inclusion_tag("learn/partials/stroke_order.html")
def stroke_order(glyph: str, romaji: str = "") -> dict[str, Any]:
    try:
        strokes = strokes_of(glyph)
    except NoDrawing:
        return {"strokes": None}
    return {
        "strokes": strokes,
        "glyph": glyph,
        "romaji": romaji,
        "view_box": VIEW_BOX,
        "paths": list(enumerate(strokes.paths, start=1)),
        "numbers": list(enumerate(strokes.numbers, start=1)),
        "attribution": ATTRIBUTION,
        "attribution_url": ATTRIBUTION_URL,
        "licence_url": LICENCE_URL,
    }
