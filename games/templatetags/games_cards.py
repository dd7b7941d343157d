"""``{% kana_card card %}``: one card as HTML (a tag, not an include: boards draw ~100 cards).

``card`` is a presenter dict (``games/views/boards/common.py: kazoku_card``): glyph, romaji,
``mode`` (the table's romaji option), ``id`` (omitted when empty), optional ``word``.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def kana_card(
    card: dict[str, Any], small: bool = False, word: bool = False, focusable: bool = False
) -> SafeString:
    """``focusable``: a card shown on its own (a hand, the table), not inside a button; with
    romaji "on hover or focus" it takes the keyboard focus, which shows its romaji."""
    classes = "kana-card"
    if small:
        classes += " kana-card-sm"
    if word:
        classes += " word-card"
    if card.get("joker"):
        classes += " kana-card-joker"
    attrs = format_html(' data-card="{}"', card["id"]) if card.get("id") else ""
    if card.get("mode") == "hover":
        attrs = format_html('{} title="{}"', attrs, card["romaji"])
        if focusable:
            attrs = format_html('{} tabindex="0"', attrs)
    parts = [format_html('<span class="glyph" lang="ja">{}</span>', card["glyph"])]
    show_romaji = card.get("mode") != "never"
    if show_romaji:
        parts.append(format_html('<span class="romaji">{}</span>', card["romaji"]))
    printed = card.get("word") if word else None
    if printed:
        star = "☆" if printed.get("star") else ""
        parts.append(
            format_html('<span class="card-word" lang="ja">{}{}</span>', printed["kana"], star)
        )
        if show_romaji:
            parts.append(format_html('<span class="card-word-romaji">{}</span>', printed["romaji"]))
    inner = format_html_join("", "{}", ((part,) for part in parts))
    return format_html('<span class="{}"{}>{}</span>', classes, mark_safe(attrs), inner)
